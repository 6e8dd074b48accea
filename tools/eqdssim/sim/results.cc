// SPDX-License-Identifier: GPL-2.0
#include "results.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "scenario.h"

namespace eqdssim {

double jain_index(const std::vector<double> &x)
{
	double sum = 0, sq = 0;

	for (double v : x) {
		sum += v;
		sq += v * v;
	}
	return x.empty() || sq == 0 ? 0 : sum * sum / ((double)x.size() * sq);
}

double percentile(const std::vector<double> &sorted, double p)
{
	if (sorted.empty())
		return 0;
	size_t rank = (size_t)std::ceil(p / 100 * (double)sorted.size());

	return sorted[rank ? rank - 1 : 0];
}

double peak_rss_mb()
{
	std::ifstream in("/proc/self/status");
	std::string line;

	while (std::getline(in, line)) {
		if (line.rfind("VmHWM:", 0) == 0) {
			std::istringstream ls(line.substr(6));
			double kb = 0;

			ls >> kb;
			return kb / 1024;
		}
	}
	return 0;
}

Results compute_results(const Scenario &s)
{
	Results r;
	const ScenarioConfig &cfg = s.config();
	const double host_bps = (double)cfg.topo.host_rate_bps;
	SimTime end = s.end_time();
	SimTime measured = std::min(end, cfg.duration) > cfg.warmup ?
			   std::min(end, cfg.duration) - cfg.warmup : 0;

	r.sim_seconds = (double)end / 1e9;
	r.wall_seconds = s.wall_seconds();
	r.events = s.events().events_run();
	r.events_per_second = r.wall_seconds > 0 ? (double)r.events / r.wall_seconds : 0;
	r.peak_rss_mb = peak_rss_mb();
	r.peak_event_queue = s.events().peak_pending();
	r.hosts = s.net().host_count();

	std::vector<double> util;

	for (const Flow &f : s.traffic().flows()) {
		r.flows++;
		r.duplicates += f.duplicates;
		if (f.finite()) {
			if (f.finish) {
				r.finished++;
				r.fct_us.push_back((double)(f.finish - f.start) / 1e3);
			} else {
				r.unfinished++;
			}
		} else if (measured) {
			// Inner bytes delivered, counted as outer IP bytes on the wire.
			double ip = (double)f.measured * (double)Traffic::kFullPacketIpBytes / Traffic::kMss;
			double gbps = ip * 8 / ((double)measured / 1e9) / 1e9;

			r.throughput_gbps.push_back(gbps);
			util.push_back(gbps * 1e9 / host_bps);
		}
	}
	r.late = s.traffic().late_packets();
	std::sort(r.fct_us.begin(), r.fct_us.end());
	r.fct_p50_us = percentile(r.fct_us, 50);
	r.fct_p95_us = percentile(r.fct_us, 95);
	r.fct_p99_us = percentile(r.fct_us, 99);
	if (!util.empty()) {
		double sum = 0;

		for (double u : util)
			sum += u;
		r.mean_utilisation = sum / (double)util.size();
		r.min_utilisation = *std::min_element(util.begin(), util.end());
		r.jain = jain_index(r.throughput_gbps);
	}

	for (const auto &p : s.net().ports()) {
		RoleStats &rs = r.roles[(size_t)p->role()];
		const PortStats &ps = p->stats();

		rs.ports++;
		rs.drops += ps.drops;
		rs.drops_measured += ps.drops_measured;
		rs.trims += ps.trims;
		rs.ecn_marks += ps.ecn_marks;
		rs.max_queue = std::max(rs.max_queue, ps.max_queue);
		rs.max_queue_measured = std::max(rs.max_queue_measured, ps.max_queue_measured);
		if (end) {
			rs.mean_queue += ps.queue_pkt_ns / (double)end;
			rs.mean_utilisation += (double)ps.tx_ip_bytes * 8 /
					       ((double)p->config().rate_bps * (double)end / 1e9);
		}
	}
	for (RoleStats &rs : r.roles) {
		if (rs.ports) {
			rs.mean_queue /= rs.ports;
			rs.mean_utilisation /= rs.ports;
		}
	}

	for (uint32_t h = 0; h < r.hosts; h++) {
		const Host &x = s.host(h);

		r.counters.add(x.counters());
		r.cc_windows += x.pacer().cc().stats.windows;
		r.cc_marked_windows += x.pacer().cc().stats.marked;
		r.cc_bytes += x.pacer().cc().stats.bytes;
		r.cc_ce_bytes += x.pacer().cc().stats.ce_bytes;
		for (const auto &[dst, t] : x.senders())
			if (!t->idle())
				r.busy_tunnels_at_end++;
	}
	for (size_t k = 0; k < (size_t)PacketKind::kCount; k++)
		r.injected_losses += s.faults().dropped((PacketKind)k);
	r.audit_checks = s.audit().checks();
	r.audit_violations = s.audit().violations();
	r.audit_first = s.audit().first_violation();

	uint64_t circ = 0, active = 0, rate_samples = 0;
	double rate_sum = 0;

	for (const Sample &sm : s.samples()) {
		r.max_tunnel_circulation = std::max(r.max_tunnel_circulation, sm.max_tunnel_circulation);
		circ += sm.credit_in_circulation;
		active += sm.active_tunnels;
		if (sm.t >= cfg.warmup && sm.mean_pull_rate > 0) {
			rate_sum += sm.mean_pull_rate;
			rate_samples++;
			r.min_pull_rate = std::min(r.min_pull_rate, sm.min_pull_rate);
		}
	}
	if (rate_samples)
		r.mean_pull_rate = rate_sum / (double)rate_samples;
	r.mean_credit_in_circulation = active ? (double)circ / (double)active : 0;
	r.quiescent = s.quiescent();
	return r;
}

}  // namespace eqdssim
