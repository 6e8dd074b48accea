// SPDX-License-Identifier: GPL-2.0
// Traffic patterns: permutation, N:1 incast, closed-loop transfers and
// Poisson arrivals with sizes drawn from a CSV distribution.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "traffic.h"

namespace eqdssim {

// A flow-size distribution: CSV lines "size_bytes,cumulative_probability",
// ascending, the last at 1. '#' starts a comment. Sizes between points are
// interpolated linearly.
class SizeDistribution {
public:
	static SizeDistribution from_csv(const std::string &path);
	static SizeDistribution fixed(uint64_t size);
	uint64_t sample(std::mt19937_64 &rng) const;
	double mean() const;

private:
	std::vector<std::pair<double, double>> points_;	// (size, cdf)
};

// A random permutation with no fixed point: host i sends to dst[i] != i.
std::vector<uint32_t> random_derangement(uint32_t n, std::mt19937_64 &rng);

struct WorkloadConfig {
	std::string kind = "incast";	// greedy | permutation | incast | closedloop | poisson
	uint64_t flow_size = 0;		// bytes; 0: greedy
	uint32_t senders = 0;		// incast: 0 means every other host
	uint32_t receiver = 0;		// incast
	double load = 0.3;		// poisson: of each host's link
	std::string size_csv;		// poisson
	SimTime start_spread = 0;	// flows start uniformly in [0, spread)
};

// Add the workload's flows to traffic. greedy: hosts of the left half send to
// the right half, one to one (a dumbbell's natural pattern).
void make_workload(Traffic &traffic, const WorkloadConfig &w, uint32_t hosts,
		   uint64_t host_rate_bps, SimTime duration, std::mt19937_64 &rng);

}  // namespace eqdssim
