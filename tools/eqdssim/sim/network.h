// SPDX-License-Identifier: GPL-2.0
// The network: hosts, output-queued switches, the ports (links) between
// them, and shortest-path routing with every equal-cost next hop kept for
// ECMP. Topology builders (topology.h) add nodes and links; the network
// owns them.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "ecmp.h"
#include "node.h"
#include "port.h"

namespace eqdssim {

class Network;

class Switch : public Node {
public:
	Switch(uint32_t id, Network &net, uint64_t salt) : Node(id), net_(net), hash_(salt) {}
	bool is_host() const override { return false; }
	void receive(Packet *p) override;

	std::vector<Port *> ports;
	// Equal-cost ports towards each destination host: route_ports[
	// route_off[d] .. route_off[d] + route_cnt[d]).
	std::vector<uint32_t> route_off;
	std::vector<uint8_t> route_cnt;
	std::vector<uint16_t> route_ports;

	// The port a packet takes (the same choice routing and the fluid model make).
	Port *next_port(uint32_t src, uint32_t dst, uint8_t path_id, EcmpMode mode) const;
	void set_tier(uint32_t tier) { hash_.set_tier(tier); }

private:
	Network &net_;
	EcmpHash hash_;
};

class Network {
public:
	Network(EventQueue &q, EcmpMode mode, uint64_t seed)
		: q_(q), mode_(mode), seed_(seed) {}

	EventQueue &events() { return q_; }
	PacketPool &pool() { return pool_; }
	EcmpMode ecmp_mode() const { return mode_; }

	// Hosts first (ids 0..n-1), then switches: node id = position.
	uint32_t add_host(std::unique_ptr<Node> host);
	Switch *add_switch();
	// A bidirectional link: one port each way. Roles are derived from the ends.
	void link(Node *a, Node *b, const PortConfig &ab, const PortConfig &ba);
	// Compute ECMP routes to every host; call once all links exist.
	void build_routes();

	uint32_t host_count() const { return nhosts_; }
	Node *host(uint32_t id) const { return nodes_[id].get(); }
	Port *host_nic(uint32_t id) const { return nic_[id]; }
	const std::vector<std::unique_ptr<Port>> &ports() const { return ports_; }
	const std::vector<Switch *> &switches() const { return switches_; }
	// The ports a (src, dst, path id) packet crosses, host NIC first.
	std::vector<Port *> path(uint32_t src, uint32_t dst, uint8_t path_id, EcmpMode mode) const;

private:
	EventQueue &q_;
	EcmpMode mode_;
	uint64_t seed_;
	PacketPool pool_;
	std::vector<std::unique_ptr<Node>> nodes_;
	std::vector<Switch *> switches_;
	std::vector<std::unique_ptr<Port>> ports_;
	std::vector<Port *> nic_;
	uint32_t nhosts_ = 0;
};

}  // namespace eqdssim
