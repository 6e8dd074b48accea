// SPDX-License-Identifier: GPL-2.0
#include "report.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "scenario.h"

namespace eqdssim {

namespace {

// Minimal JSON writer: objects of numbers and strings, comma handling.
class Json {
public:
	explicit Json(std::ostream &out) : out_(out) {}
	void open(const char *key = nullptr)
	{
		sep(key);
		out_ << "{";
		first_ = true;
	}
	void close()
	{
		out_ << "}";
		first_ = false;
	}
	void num(const char *key, double v)
	{
		sep(key);
		out_ << v;
	}
	void str(const char *key, const std::string &v)
	{
		sep(key);
		out_ << '"';
		for (char c : v) {
			if (c == '"' || c == '\\')
				out_ << '\\';
			out_ << c;
		}
		out_ << '"';
	}
	void boolean(const char *key, bool v)
	{
		sep(key);
		out_ << (v ? "true" : "false");
	}

private:
	void sep(const char *key)
	{
		if (!first_)
			out_ << ",";
		out_ << "\n";
		first_ = false;
		if (key)
			out_ << '"' << key << "\": ";
	}
	std::ostream &out_;
	bool first_ = true;
};

}  // namespace

void write_summary_json(std::ostream &out, const Scenario &s, const Results &r,
			const std::string &label)
{
	const ScenarioConfig &c = s.config();
	Json j(out);

	out.precision(10);
	j.open();
	j.str("label", label);
	j.open("config");
	j.str("topology", c.topo.kind);
	j.num("hosts", r.hosts);
	j.num("k", c.topo.k);
	j.num("host_rate_gbps", (double)c.topo.host_rate_bps / 1e9);
	j.num("fabric_rate_gbps", (double)c.topo.fabric_rate_bps / 1e9);
	j.num("link_delay_us", (double)c.topo.link_delay / 1e3);
	j.num("buffer_pkts", c.topo.buffer_pkts);
	j.num("ecn_threshold_pkts", c.topo.ecn_threshold_pkts);
	j.boolean("trim", c.topo.trim);
	j.str("ecmp", c.ecmp == EcmpMode::kPerPacket ? "per_packet" :
		      c.ecmp == EcmpMode::kPerPacketHash ? "per_packet_hash" : "per_flow");
	j.str("workload", c.work.kind);
	j.num("flow_size", (double)c.work.flow_size);
	j.num("load", c.work.load);
	j.num("window_pkts", c.eqds.window_pkts);
	j.num("queue_limit", c.eqds.queue_limit);
	j.str("mode", c.eqds.burst_mode ? "burst" : "rts");
	j.num("cc", c.eqds.cc ? 1 : 0);
	j.num("cc_interval_us", (double)c.eqds.cc_params.interval_ns / 1e3);
	j.num("cc_ai_div", c.eqds.cc_params.ai_div);
	j.num("cc_min_div", c.eqds.cc_params.min_div);
	j.num("seed", (double)c.seed);
	j.num("duration_ms", (double)c.duration / 1e6);
	j.num("warmup_ms", (double)c.warmup / 1e6);
	j.close();
	j.open("run");
	j.num("sim_seconds", r.sim_seconds);
	j.num("wall_seconds", r.wall_seconds);
	j.num("events", (double)r.events);
	j.num("events_per_second", r.events_per_second);
	j.num("peak_rss_mb", r.peak_rss_mb);
	j.num("peak_event_queue", (double)r.peak_event_queue);
	j.close();
	j.open("flows");
	j.num("count", r.flows);
	j.num("finished", r.finished);
	j.num("unfinished", r.unfinished);
	j.num("greedy_measured", (double)r.throughput_gbps.size());
	j.num("mean_utilisation", r.mean_utilisation);
	j.num("min_utilisation", r.min_utilisation);
	j.num("jain", r.jain);
	j.num("fct_p50_us", r.fct_p50_us);
	j.num("fct_p95_us", r.fct_p95_us);
	j.num("fct_p99_us", r.fct_p99_us);
	j.num("duplicates", (double)r.duplicates);
	j.num("late_packets", (double)r.late);
	j.close();
	j.open("ports");
	for (size_t i = 0; i < 3; i++) {
		const RoleStats &rs = r.roles[i];

		j.open(port_role_name((PortRole)i));
		j.num("ports", rs.ports);
		j.num("drops", (double)rs.drops);
		j.num("trims", (double)rs.trims);
		j.num("ecn_marks", (double)rs.ecn_marks);
		j.num("max_queue_pkts", rs.max_queue);
		j.num("drops_after_warmup", (double)rs.drops_measured);
		j.num("max_queue_after_warmup_pkts", rs.max_queue_measured);
		j.num("mean_queue_pkts", rs.mean_queue);
		j.num("mean_utilisation", rs.mean_utilisation);
		j.close();
	}
	j.close();
	const HostCounters &h = r.counters;

	j.open("eqds");
	j.num("tx_data", (double)h.tx_data);
	j.num("retransmits", (double)h.retransmits);
	j.num("timeouts", (double)h.timeouts);
	j.num("rts_sent", (double)h.rts_sent);
	j.num("restarts", (double)h.restarts);
	j.num("rsts_sent", (double)h.rsts_sent);
	j.num("nacks_sent", (double)h.nacks_sent);
	j.num("acks_sent", (double)h.acks_sent);
	j.num("fins_sent", (double)h.fins_sent);
	j.num("fins_rcvd", (double)h.fins_rcvd);
	j.num("challenges_sent", (double)h.challenges_sent);
	j.num("drop_epoch", (double)h.drop_epoch);
	j.num("pulls_sent", (double)h.pulls_sent);
	j.num("pull_quanta_sent", (double)h.pull_quanta_sent);
	j.num("pulls_rcvd", (double)h.pulls_rcvd);
	j.num("credit_refused", (double)h.credit_refused);
	j.num("ring_full", (double)h.ring_full);
	j.num("drop_queue_full", (double)h.drop_queue_full);
	j.num("drop_dup", (double)h.drop_dup);
	j.num("drop_window", (double)h.drop_window);
	j.num("drop_stale", (double)h.drop_stale);
	j.num("drop_ctrl", (double)h.drop_ctrl);
	j.num("drop_unknown", (double)h.drop_unknown);
	j.num("drop_trimmed", (double)h.drop_trimmed);
	j.num("decode_errors", (double)h.decode_errors);
	j.num("reorder_held", (double)h.reorder_held);
	j.num("reorder_late", (double)h.reorder_late);
	j.num("reorder_skipped", (double)h.reorder_skipped);
	j.num("max_reorder_depth", h.max_reorder_depth);
	j.num("ce_rcvd", (double)h.ce_rcvd);
	j.num("path_penalties", (double)h.path_penalties);
	j.num("path_repaths", (double)h.path_repaths);
	j.num("path_ignored", (double)h.path_ignored);
	j.num("cc_windows", (double)r.cc_windows);
	j.num("cc_marked_windows", (double)r.cc_marked_windows);
	j.num("cc_ce_byte_fraction", r.cc_bytes ? (double)r.cc_ce_bytes / (double)r.cc_bytes : 0);
	j.num("mean_pull_rate", r.mean_pull_rate);
	j.num("min_pull_rate", r.min_pull_rate);
	j.num("injected_losses", (double)r.injected_losses);
	j.close();
	j.open("credit");
	j.num("audit_checks", (double)r.audit_checks);
	j.num("audit_violations", (double)r.audit_violations);
	j.str("audit_first_violation", r.audit_first);
	j.num("max_tunnel_circulation_windows", r.max_tunnel_circulation);
	j.num("mean_circulation_bytes_per_active_tunnel", r.mean_credit_in_circulation);
	j.num("busy_tunnels_at_end", r.busy_tunnels_at_end);
	j.boolean("quiescent", r.quiescent);
	j.close();
	j.close();
	out << "\n";
}

void write_flows_csv(std::ostream &out, const Scenario &s)
{
	const ScenarioConfig &c = s.config();
	SimTime end = std::min(s.end_time(), c.duration);
	double window = end > c.warmup ? (double)(end - c.warmup) / 1e9 : 0;

	out << "id,src,dst,size,start_us,finish_us,fct_us,delivered,throughput_gbps\n";
	for (const Flow &f : s.traffic().flows()) {
		double gbps = !f.finite() && window > 0 ?
			      (double)f.measured * (double)Traffic::kFullPacketIpBytes / Traffic::kMss * 8 / window / 1e9 : 0;

		out << f.id << ',' << f.src << ',' << f.dst << ',' << f.size << ','
		    << (double)f.start / 1e3 << ',' << (double)f.finish / 1e3 << ','
		    << (f.finish ? (double)(f.finish - f.start) / 1e3 : 0) << ','
		    << f.delivered << ',' << gbps << '\n';
	}
}

void write_samples_csv(std::ostream &out, const Scenario &s)
{
	out << "t_us,max_queue_host_nic,max_queue_to_host,max_queue_fabric,"
	       "credit_in_circulation,max_tunnel_circulation_windows,active_tunnels,"
	       "held_packets,max_held,mean_pull_rate,min_pull_rate\n";
	for (const Sample &x : s.samples())
		out << (double)x.t / 1e3 << ',' << x.max_queue[0] << ',' << x.max_queue[1] << ','
		    << x.max_queue[2] << ',' << x.credit_in_circulation << ','
		    << x.max_tunnel_circulation << ',' << x.active_tunnels << ','
		    << x.held_packets << ',' << x.max_held << ',' << x.mean_pull_rate << ','
		    << x.min_pull_rate << '\n';
}

void write_outputs(const std::string &dir, const Scenario &s, const Results &r,
		   const std::string &label)
{
	std::filesystem::create_directories(dir);
	std::ofstream summary(dir + "/summary.json"), flows(dir + "/flows.csv"),
		samples(dir + "/samples.csv");

	if (!summary || !flows || !samples)
		throw std::runtime_error("cannot write into " + dir);
	write_summary_json(summary, s, r, label);
	write_flows_csv(flows, s);
	write_samples_csv(samples, s);
}

}  // namespace eqdssim
