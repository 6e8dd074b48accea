// SPDX-License-Identifier: GPL-2.0
// What a run measured, reduced to figures: throughput and fairness of
// greedy flows, completion times of finite ones, queues, drops and link
// use per kind of port, protocol counters summed over hosts, the credit
// audit, and the simulator's own speed and memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host_counters.h"
#include "port.h"

namespace eqdssim {

class Scenario;

struct RoleStats {
	uint32_t ports = 0;
	uint64_t drops = 0, trims = 0, ecn_marks = 0;
	uint32_t max_queue = 0;		// packets, worst port
	uint64_t drops_measured = 0;	// the same two from the warm-up on
	uint32_t max_queue_measured = 0;
	double mean_queue = 0;		// packets, time average over ports
	double mean_utilisation = 0;	// IP bytes sent / capacity, over ports
};

struct Results {
	// Run.
	double sim_seconds = 0, wall_seconds = 0;
	uint64_t events = 0;
	double events_per_second = 0;
	double peak_rss_mb = 0;
	uint64_t peak_event_queue = 0;
	uint32_t hosts = 0;
	// Flows.
	uint32_t flows = 0, finished = 0, unfinished = 0;
	std::vector<double> throughput_gbps;	// per greedy flow, measured window
	double mean_utilisation = 0;	// greedy flows' throughput / host link rate
	double min_utilisation = 0;
	double jain = 0;
	std::vector<double> fct_us;	// finished finite flows, ascending
	double fct_p50_us = 0, fct_p95_us = 0, fct_p99_us = 0;
	uint64_t duplicates = 0, late = 0;
	// Network.
	RoleStats roles[3];
	// Hosts and protocol.
	HostCounters counters;
	uint64_t injected_losses = 0;
	uint64_t audit_checks = 0, audit_violations = 0;
	std::string audit_first;
	uint32_t busy_tunnels_at_end = 0;	// not idle when the run ended
	double max_tunnel_circulation = 0;	// worst tunnel, windows
	double mean_credit_in_circulation = 0;	// bytes per active tunnel
	// The congestion reaction (core/congestion.h), summed over hosts.
	uint64_t cc_windows = 0, cc_marked_windows = 0;
	uint64_t cc_bytes = 0, cc_ce_bytes = 0;
	// Pull rate / its ceiling over receiving hosts, from the samples
	// after the warm-up: time average of the mean, and the lowest seen.
	double mean_pull_rate = 1, min_pull_rate = 1;
	bool quiescent = false;
};

Results compute_results(const Scenario &s);
double jain_index(const std::vector<double> &x);
// The p-th percentile (0..100) of an ascending vector, nearest rank.
double percentile(const std::vector<double> &sorted, double p);
double peak_rss_mb();

}  // namespace eqdssim
