// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "tunnel_output.h"

#include "details.h"

#include <linux/eqds.h>

#include <string>

namespace eqdsctl {

namespace {

// "label value" items of the state line, by side: (JSON key, label, unit).
struct Item {
	const char *key;
	const char *label;
	const char *unit;
};

const Item kTxItems[] = {
	{"credit", "credit", ""},	{"window", "window", ""},
	{"quantum", "quantum", ""},	{"queue_len", "queue", "p"},
	{"queue_bytes", "queue-bytes", ""}, {"inflight", "inflight", ""},
	{"snd_una", "snd-una", ""},	{"snd_nxt", "snd-nxt", ""},
	{"rtx_queued", "rtx", ""},	{"rto_us", "rto", "us"},
	{"pull_hi", "pull-hi", ""},
};

const Item kRxItems[] = {
	{"rcv_nxt", "rcv-nxt", ""},	{"reorder_held", "held", "p"},
	{"skew_ns", "skew", "ns"},	{"pulls_granted", "pulls-granted", ""},
	{"pulls_wanted", "pulls-wanted", ""}, {"window", "window", ""},
	{"quantum", "quantum", ""},
};

const Item kStatItems[] = {
	{"packets", "packets", ""},	{"bytes", "bytes", ""},
	{"retransmits", "retransmits", ""}, {"nacks", "nacks", ""},
	{"drops", "drops", ""},		{"pulls", "pulls", ""},
	{"restarts", "restarts", ""},	{"timeouts", "timeouts", ""},
	{"rts", "rts", ""},		{"reorder_held", "reorder-held", ""},
	{"reorder_skipped", "reorder-skipped", ""}, {"reorder_late", "reorder-late", ""},
	{"paths_penalised", "paths-penalised", ""}, {"path_penalties", "path-penalties", ""},
	{"repaths", "repaths", ""},	{"path_penalties_ignored", "path-penalties-ignored", ""},
};

template <size_t N>
std::string items(const Item (&list)[N], const std::map<std::string, uint64_t> &values)
{
	std::string line;
	for (const Item &i : list) {
		auto v = values.find(i.key);
		if (v == values.end())
			continue;
		line += (line.empty() ? "" : "  ") + std::string(i.label) + " " +
			std::to_string(v->second) + i.unit;
	}
	return line;
}

std::string field(const Tunnel &t, const char *key, const char *label, const char *unit = "")
{
	auto v = t.fields.find(key);
	if (v == t.fields.end())
		return "";
	return std::string(" ") + label + " " + std::to_string(v->second) + unit;
}

std::string name_line(const Tunnel &t)
{
	std::string s = dir_string(t.dir) + " " + (t.peer ? format_addr(*t.peer) : "?");
	s += field(t, "id", "id");
	s += field(t, "epoch", "epoch");
	return s;
}

void u64_or_null(JsonWriter &w, const std::map<std::string, uint64_t> &m, const char *key)
{
	w.key(key);
	auto v = m.find(key);
	if (v != m.end())
		w.u64(v->second);
	else
		w.null();
}

} // namespace

void print_tunnel_text(std::ostream &out, const Tunnel &t, bool stats, const Policy *details)
{
	bool tx = t.dir == EQDS_TUNNEL_DIR_TX;

	out << name_line(t);
	if (t.state)
		out << " " << state_string(*t.state);
	if (t.active)
		out << (*t.active ? " active" : " inactive");
	out << field(t, "idle_ms", "idle", "ms") << field(t, "heard_ms", "heard", "ms");
	if (t.local)
		out << " local " << format_addr(*t.local);
	out << "\n";
	std::string line = tx ? items(kTxItems, t.fields) : items(kRxItems, t.fields);
	if (!line.empty())
		out << "    " << line << "\n";
	if (stats) {
		line = items(kStatItems, t.stats);
		if (!line.empty())
			out << "    " << line << "\n";
	}
	if (details && t.dir == EQDS_TUNNEL_DIR_RX && t.peer)
		out << "    " << share_text(share_for(*details, *t.peer)) << "\n";
}

void write_tunnel_json(JsonWriter &w, const Tunnel &t, bool stats, const Policy *details)
{
	w.begin_object();
	w.key("dir");
	w.string(dir_string(t.dir));
	u64_or_null(w, t.fields, "id");
	w.key("peer");
	if (t.peer)
		w.string(format_addr(*t.peer));
	else
		w.null();
	if (t.dir == EQDS_TUNNEL_DIR_RX) {
		w.key("local");
		if (t.local)
			w.string(format_addr(*t.local));
		else
			w.null();
	}
	u64_or_null(w, t.fields, "epoch");
	w.key("state");
	if (t.state)
		w.string(state_string(*t.state));
	else
		w.null();
	for (const TunnelField &f : kTunnelFields) {
		std::string k = f.name;
		if (k == "id" || k == "epoch")
			continue;
		auto v = t.fields.find(k);
		if (v == t.fields.end())
			continue;	// the other side's
		w.key(k);
		w.u64(v->second);
	}
	if (t.active) {
		w.key("active");
		w.boolean(*t.active);
	}
	if (stats) {
		w.key("stats");
		w.begin_object();
		for (const TunnelField &f : kTunnelStats) {
			auto v = t.stats.find(f.name);
			if (v == t.stats.end())
				continue;	// the other side's
			w.key(f.name);
			w.u64(v->second);
		}
		w.end_object();
	}
	if (details && t.dir == EQDS_TUNNEL_DIR_RX && t.peer) {
		w.key("policy");
		write_share_json(w, share_for(*details, *t.peer));
	}
	w.end_object();
}

void print_event_text(std::ostream &out, const TunnelEvent &e)
{
	out << event_string(e.cmd) << " " << name_line(e.tunnel);
	if (e.tunnel.del_reason)
		out << " reason " << del_reason_string(*e.tunnel.del_reason);
	out << "\n";
}

void print_event_json(std::ostream &out, const TunnelEvent &e)
{
	JsonWriter w(out);
	const Tunnel &t = e.tunnel;

	w.begin_object();
	w.key("event");
	w.string(event_string(e.cmd));
	w.key("dir");
	w.string(dir_string(t.dir));
	u64_or_null(w, t.fields, "id");
	w.key("peer");
	if (t.peer)
		w.string(format_addr(*t.peer));
	else
		w.null();
	u64_or_null(w, t.fields, "epoch");
	if (t.del_reason) {
		w.key("reason");
		w.string(del_reason_string(*t.del_reason));
	}
	w.end_object();
	out << "\n";
}

} // namespace eqdsctl
