// SPDX-License-Identifier: GPL-2.0
#include "topology.h"

#include <stdexcept>
#include <vector>

namespace eqdssim {

namespace {

struct Links {
	Network &net;
	const TopologyConfig &cfg;

	PortConfig switch_port(uint64_t rate) const
	{
		PortConfig p;

		p.rate_bps = rate;
		p.delay = cfg.link_delay;
		p.buffer_pkts = cfg.buffer_pkts;
		p.ecn_threshold_pkts = cfg.ecn_threshold_pkts;
		p.trim = cfg.trim;
		return p;
	}
	void host(uint32_t h, Switch *sw) const
	{
		PortConfig nic;

		nic.rate_bps = cfg.host_rate_bps;
		nic.delay = cfg.link_delay;
		nic.buffer_pkts = cfg.host_queue_pkts;
		net.link(net.host(h), sw, nic, switch_port(cfg.host_rate_bps));
	}
	void fabric(Switch *a, Switch *b) const
	{
		PortConfig p = switch_port(cfg.fabric_rate_bps);

		net.link(a, b, p, p);
	}
};

}  // namespace

uint32_t topology_hosts(const TopologyConfig &cfg)
{
	if (cfg.kind == "star")
		return cfg.hosts;
	if (cfg.kind == "dumbbell")
		return 2 * cfg.hosts;
	if (cfg.kind == "leafspine")
		return cfg.leaves * cfg.hosts_per_leaf;
	if (cfg.kind == "fattree")
		return cfg.k * cfg.k * cfg.k / 4;
	throw std::invalid_argument("unknown topology " + cfg.kind);
}

void build_topology(Network &net, const TopologyConfig &cfg, const HostFactory &make_host)
{
	uint32_t n = topology_hosts(cfg);
	Links l{ net, cfg };

	if (cfg.kind == "fattree" && (cfg.k < 2 || cfg.k % 2))
		throw std::invalid_argument("fattree k must be even");
	for (uint32_t h = 0; h < n; h++)
		net.add_host(make_host(h));

	if (cfg.kind == "star") {
		Switch *sw = net.add_switch();

		for (uint32_t h = 0; h < n; h++)
			l.host(h, sw);
	} else if (cfg.kind == "dumbbell") {
		Switch *left = net.add_switch(), *right = net.add_switch();

		for (uint32_t h = 0; h < n; h++)
			l.host(h, h < cfg.hosts ? left : right);
		l.fabric(left, right);
	} else if (cfg.kind == "leafspine") {
		std::vector<Switch *> leaves, spines;

		for (uint32_t i = 0; i < cfg.leaves; i++)
			leaves.push_back(net.add_switch());
		for (uint32_t i = 0; i < cfg.spines; i++)
			spines.push_back(net.add_switch());
		for (uint32_t h = 0; h < n; h++)
			l.host(h, leaves[h / cfg.hosts_per_leaf]);
		for (Switch *leaf : leaves)
			for (Switch *spine : spines)
				l.fabric(leaf, spine);
	} else {
		const uint32_t k = cfg.k, half = k / 2;
		std::vector<Switch *> edge, agg, core;

		for (uint32_t i = 0; i < k * half; i++)
			edge.push_back(net.add_switch());
		for (uint32_t i = 0; i < k * half; i++)
			agg.push_back(net.add_switch());
		for (uint32_t i = 0; i < half * half; i++)
			core.push_back(net.add_switch());
		// Host h sits under edge switch h / half (pod (h / half) / half).
		for (uint32_t h = 0; h < n; h++)
			l.host(h, edge[h / half]);
		for (uint32_t pod = 0; pod < k; pod++) {
			for (uint32_t e = 0; e < half; e++)
				for (uint32_t a = 0; a < half; a++)
					l.fabric(edge[pod * half + e], agg[pod * half + a]);
			// Aggregation switch a of every pod reaches core group a.
			for (uint32_t a = 0; a < half; a++)
				for (uint32_t c = 0; c < half; c++)
					l.fabric(agg[pod * half + a], core[a * half + c]);
		}
	}
	net.build_routes();
}

}  // namespace eqdssim
