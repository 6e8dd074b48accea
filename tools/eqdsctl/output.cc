// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "output.h"
#include "details.h"
#include "rate.h"

#include "json.h"

#include <cstdio>
#include <string>

namespace eqdsctl {

namespace {

// The version string comes from the kernel: keep control bytes off the terminal.
std::string printable(const std::string &s)
{
	std::string out = s;
	for (char &c : out)
		if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
			c = '?';
	return out;
}

// How "show -s" lays the counters out, "ip -s" style: one line per group,
// "label: item N  item N ...". Each counter of kStats appears once (a unit
// test checks it); one the kernel did not send is skipped.
struct Shown {
	const char *group;
	const char *stat;	// kStats name
	const char *label;	// as shown within the group
};

const Shown kLayout[] = {
	{"tx", "tx_packets", "packets"},
	{"tx", "tx_bytes", "bytes"},
	{"tx", "tx_drops", "drops"},
	{"tx", "tx_ctrl", "ctrl"},
	{"rx", "rx_packets", "packets"},
	{"rx", "rx_bytes", "bytes"},
	{"rx", "rx_drops", "drops"},
	{"rx", "rx_ctrl", "ctrl"},
	{"rx", "rx_arrived_bytes", "arrived-bytes"},
	{"rx", "rx_ce_bytes", "ce-bytes"},
	{"pulls", "pulls_sent", "sent"},
	{"pulls", "pulls_rcvd", "rcvd"},
	{"pulls", "credit_refused", "credit-refused"},
	{"pulls", "pacer_runs", "pacer-runs"},
	{"pulls", "pacer_late_bytes", "pacer-late-bytes"},
	{"pulls", "pull_rate", "rate"},
	{"tunnels", "tunnels", "alive"},
	{"tunnels", "tunnels_created", "created"},
	{"tunnels", "tunnels_reaped", "reaped"},
	{"tunnels", "restarts", "restarts"},
	{"ctrl", "acks_sent", "acks-sent"},
	{"ctrl", "nacks_sent", "nacks-sent"},
	{"ctrl", "nacks_rcvd", "nacks-rcvd"},
	{"ctrl", "rsts_sent", "rsts-sent"},
	{"ctrl", "rsts_rcvd", "rsts-rcvd"},
	{"ctrl", "challenges_sent", "challenges-sent"},
	{"ctrl", "fins_sent", "fins-sent"},
	{"ctrl", "fins_rcvd", "fins-rcvd"},
	{"sender", "rts_sent", "rts-sent"},
	{"sender", "syns_sent", "syns-sent"},
	{"sender", "retransmits", "retransmits"},
	{"sender", "timeouts", "timeouts"},
	{"sender", "mss_clamped", "mss-clamped"},
	{"sender", "outer_id_fallback", "outer-id-fallback"},
	{"sender", "icmp_rcvd", "icmp-rcvd"},
	{"sender", "mtu_split", "mtu-split"},
	{"sender", "mtu_fragmented", "mtu-fragmented"},
	{"sender", "small_borrowed", "small-borrowed"},
	{"reorder", "reorder_held", "held"},
	{"reorder", "reorder_late", "late"},
	{"reorder", "reorder_skipped", "skipped"},
	{"reorder", "outer_id_rewritten", "outer-id-rewritten"},
	{"drops", "drop_queue_full", "queue-full"},
	{"drops", "drop_nomem", "nomem"},
	{"drops", "drop_noroute", "noroute"},
	{"drops", "drop_tunnel_limit", "tunnel-limit"},
	{"drops", "drop_no_socket", "no-socket"},
	{"drops", "drop_xmit", "xmit"},
	{"drops", "drop_decode", "decode"},
	{"drops", "drop_inner", "inner"},
	{"drops", "drop_unknown", "unknown"},
	{"drops", "drop_dup", "dup"},
	{"drops", "drop_window", "window"},
	{"drops", "drop_stale", "stale"},
	{"drops", "drop_segs", "segs"},
	{"drops", "drop_peer", "peer"},
	{"drops", "drop_ctrl", "ctrl"},
	{"drops", "drop_tunnel_rate", "tunnel-rate"},
	{"drops", "drop_epoch", "epoch"},
	{"drops", "drop_queued_limit", "queued-limit"},
	{"drops", "drop_deliver", "deliver"},
	{"drops", "drop_local_port", "local-port"},
	{"classes", "ll_queued", "ll-queued"},
	{"classes", "ecn_marked", "ecn-marked"},
	{"classes", "queued_bytes", "queued-bytes"},
};

// Lines longer than this wrap, continuing under the group's first item.
constexpr size_t kWidth = 80;

void print_stats(std::ostream &out, const Instance &inst)
{
	const size_t n = sizeof(kLayout) / sizeof(kLayout[0]);

	for (size_t i = 0; i < n;) {
		const std::string prefix = std::string("  ") + kLayout[i].group + ": ";
		std::string line;
		size_t col = prefix.size();
		size_t j = i;
		for (; j < n && std::string(kLayout[j].group) == kLayout[i].group; j++) {
			auto v = inst.stats.find(kLayout[j].stat);
			if (v == inst.stats.end())
				continue;
			std::string item = std::string(kLayout[j].label) + " " + std::to_string(v->second);
			if (line.empty()) {
				line = item;
				col += item.size();
			} else if (col + 2 + item.size() > kWidth) {
				line += "\n" + std::string(prefix.size(), ' ') + item;
				col = prefix.size() + item.size();
			} else {
				line += "  " + item;
				col += 2 + item.size();
			}
		}
		if (!line.empty())
			out << prefix << line << "\n";
		i = j;
	}
}

std::string threshold(uint32_t v)
{
	return v ? std::to_string(v) : std::string("auto");
}

// The classes, one line each, in the words "set" takes; a line only for
// what the kernel sent.
void print_classes(std::ostream &out, const Config &c)
{
	std::string tcp, ll;
	auto item = [](std::string &line, const std::string &s) { line += "  " + s; };

	if (c.tcp_ecn_min)
		item(tcp, "ecn-min " + threshold(*c.tcp_ecn_min));
	if (c.tcp_ecn_max)
		item(tcp, "ecn-max " + threshold(*c.tcp_ecn_max));
	if (c.tcp_tc_priority)
		item(tcp, "tc-priority " + format_tc_priority(*c.tcp_tc_priority));
	if (!tcp.empty())
		out << "  class tcp:" << tcp << "\n";
	if (c.ll_queue_limit)
		item(ll, "queue-limit " + std::to_string(*c.ll_queue_limit));
	if (c.ll_ecn_min)
		item(ll, "ecn-min " + threshold(*c.ll_ecn_min));
	if (c.ll_ecn_max)
		item(ll, "ecn-max " + threshold(*c.ll_ecn_max));
	if (c.ll_tc_priority)
		item(ll, "tc-priority " + format_tc_priority(*c.ll_tc_priority));
	if (c.ll_priority)
		item(ll, "priority " + (*c.ll_priority ? format_tc_priority(*c.ll_priority)
						       : std::string("none")));
	if (c.ll_mark && c.ll_mark_mask) {
		char buf[40];
		snprintf(buf, sizeof(buf), "0x%x/0x%x", *c.ll_mark, *c.ll_mark_mask);
		item(ll, std::string("mark ") + (*c.ll_mark_mask ? buf : "none"));
	}
	if (!ll.empty())
		out << "  class ll:" << ll << "\n";
	if (c.queued_limit_kb)
		out << "  queued-limit "
		    << (*c.queued_limit_kb ? std::to_string(*c.queued_limit_kb) + "kb"
					   : std::string("none"))
		    << "\n";
}

} // namespace

void print_text(std::ostream &out, const Instance &inst, bool stats, const Bound *details)
{
	const Config &c = inst.config;
	std::string line;
	auto item = [&line](const std::string &s) {
		line += "  " + s;	// indent, then two spaces between items
	};

	out << "eqds: version " << (inst.version ? printable(*inst.version) : "unknown") << "\n";

	if (c.port)
		item("port " + std::to_string(*c.port));
	if (c.mode)
		item("mode " + mode_string(*c.mode));
	if (c.pull_rate_mbit)
		item("pull-rate " + (*c.pull_rate_mbit ? format_rate_mbit(*c.pull_rate_mbit)
						       : std::string("auto")));
	if (c.headroom)
		item("headroom " + std::to_string(*c.headroom) + "%");
	// Where pulls come from, then what bounds a tunnel: two short lines.
	if (!line.empty())
		out << line << "\n";
	line.clear();
	if (c.window)
		item("window " + std::to_string(*c.window));
	if (c.queue_limit)
		item("queue-limit " + std::to_string(*c.queue_limit));
	if (c.idle_timeout_ms)
		item("idle-timeout " + std::to_string(*c.idle_timeout_ms) + "ms");
	if (!line.empty())
		out << line << "\n";

	print_classes(out, c);

	if (c.dests) {
		out << "  dests";
		if (c.dests->empty())
			out << " none";
		for (const Prefix &p : *c.dests)
			out << " " << format_prefix(p);
		out << "\n";
	}
	if (details)
		print_instance_details_text(out, c, *details);

	if (stats)
		print_stats(out, inst);
}

void print_json(std::ostream &out, const Instance &inst, bool pretty, const Bound *details)
{
	const Config &c = inst.config;
	JsonWriter w(out, pretty);
	auto u = [&w](const char *key, const auto &opt) {
		w.key(key);
		if (opt)
			w.u64(*opt);
		else
			w.null();
	};

	w.begin_object();
	w.key("version");
	if (inst.version)
		w.string(*inst.version);
	else
		w.null();
	u("port", c.port);
	w.key("mode");
	if (c.mode)
		w.string(mode_string(*c.mode));
	else
		w.null();
	u("pull_rate_mbit", c.pull_rate_mbit);
	u("headroom", c.headroom);
	u("window", c.window);
	u("queue_limit", c.queue_limit);
	u("idle_timeout_ms", c.idle_timeout_ms);
	w.key("dests");
	if (c.dests) {
		w.begin_array();
		for (const Prefix &p : *c.dests)
			w.string(format_prefix(p));
		w.end_array();
	} else {
		w.null();
	}
	// Class settings as the kernel sent them (0 thresholds: automatic).
	w.key("classes");
	w.begin_object();
	w.key("tcp");
	w.begin_object();
	u("queue_limit", c.queue_limit);
	u("ecn_min", c.tcp_ecn_min);
	u("ecn_max", c.tcp_ecn_max);
	u("tc_priority", c.tcp_tc_priority);
	w.end_object();
	w.key("ll");
	w.begin_object();
	u("queue_limit", c.ll_queue_limit);
	u("ecn_min", c.ll_ecn_min);
	u("ecn_max", c.ll_ecn_max);
	u("tc_priority", c.ll_tc_priority);
	u("priority", c.ll_priority);
	u("mark", c.ll_mark);
	u("mark_mask", c.ll_mark_mask);
	w.end_object();
	w.end_object();
	u("queued_limit_kb", c.queued_limit_kb);
	w.key("stats");
	w.begin_object();
	for (const StatInfo &s : kStats) {
		w.key(s.name);
		auto v = inst.stats.find(s.name);
		if (v != inst.stats.end())
			w.u64(v->second);
		else
			w.null();
	}
	w.end_object();
	if (details)
		write_instance_details_json(w, c, *details);
	w.end_object();
	out << "\n";
}

} // namespace eqdsctl
