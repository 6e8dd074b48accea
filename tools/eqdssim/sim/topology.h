// SPDX-License-Identifier: GPL-2.0
// Topology builders: dumbbell, N:1 star, leaf-spine and k-ary FatTree.
// Hosts get ids 0..n-1 in a fixed order (left to right, pod by pod), so a
// seed and a topology name give the same network every time.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "network.h"

namespace eqdssim {

struct TopologyConfig {
	std::string kind = "star";	// dumbbell | star | leafspine | fattree
	uint32_t hosts = 8;		// star: all hosts; dumbbell: hosts per side
	uint32_t k = 4;			// fattree
	uint32_t leaves = 4, spines = 4, hosts_per_leaf = 4;	// leafspine
	uint64_t host_rate_bps = 10000000000ull;
	uint64_t fabric_rate_bps = 10000000000ull;	// switch to switch links
	SimTime link_delay = 1 * kUs;
	uint32_t buffer_pkts = 100;	// switch output queues
	uint32_t ecn_threshold_pkts = 0;
	bool trim = false;
	uint32_t host_queue_pkts = 100000;	// the NIC's queue: not a switch buffer
};

using HostFactory = std::function<std::unique_ptr<Node>(uint32_t id)>;

// How many hosts the topology has.
uint32_t topology_hosts(const TopologyConfig &cfg);
// Build it into net (empty), then compute routes. Throws on a bad config.
void build_topology(Network &net, const TopologyConfig &cfg, const HostFactory &make_host);

}  // namespace eqdssim
