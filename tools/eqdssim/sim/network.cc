// SPDX-License-Identifier: GPL-2.0
#include "network.h"

#include <deque>
#include <limits>
#include <stdexcept>

namespace eqdssim {

Port *Switch::next_port(uint32_t src, uint32_t dst, uint8_t path_id, EcmpMode mode) const
{
	uint32_t n = route_cnt[dst];

	if (!n)
		return nullptr;
	uint32_t i = n == 1 ? 0 : hash_.pick(mode, src, dst, path_id, n);

	return ports[route_ports[route_off[dst] + i]];
}

void Switch::receive(Packet *p)
{
	Port *port = next_port(p->src, p->dst, p->path_id, net_.ecmp_mode());

	if (!port) {
		net_.pool().put(p);	// unroutable: cannot happen in a connected topology
		return;
	}
	port->send(p);
}

uint32_t Network::add_host(std::unique_ptr<Node> host)
{
	if (!switches_.empty())
		throw std::logic_error("hosts must be added before switches");
	nodes_.push_back(std::move(host));
	nic_.push_back(nullptr);
	return nhosts_++;
}

Switch *Network::add_switch()
{
	uint32_t id = (uint32_t)nodes_.size();
	auto sw = std::make_unique<Switch>(id, *this, mix64(seed_ * 1000003 + id));
	Switch *raw = sw.get();

	nodes_.push_back(std::move(sw));
	switches_.push_back(raw);
	return raw;
}

void Network::link(Node *a, Node *b, const PortConfig &ab, const PortConfig &ba)
{
	auto role = [](Node *from, Node *to) {
		if (from->is_host())
			return PortRole::kHostNic;
		return to->is_host() ? PortRole::kToHost : PortRole::kFabric;
	};
	auto add = [&](Node *from, Node *to, const PortConfig &cfg) {
		ports_.push_back(std::make_unique<Port>(q_, pool_, from, to, cfg, role(from, to)));
		Port *p = ports_.back().get();

		if (from->is_host())
			nic_[from->id()] = p;
		else
			static_cast<Switch *>(from)->ports.push_back(p);
	};
	add(a, b, ab);
	add(b, a, ba);
}

void Network::build_routes()
{
	const uint32_t n = (uint32_t)nodes_.size();
	const uint32_t inf = std::numeric_limits<uint32_t>::max();
	std::vector<std::vector<uint32_t>> adj(n);
	std::vector<uint32_t> dist(n);
	std::deque<uint32_t> frontier;

	for (auto &p : ports_)
		adj[p->from()->id()].push_back(p->to()->id());
	// A switch's tier is its distance to the nearest host, less one.
	std::vector<uint32_t> tier(n, inf);

	frontier.clear();
	for (uint32_t h = 0; h < nhosts_; h++) {
		tier[h] = 0;
		frontier.push_back(h);
	}
	while (!frontier.empty()) {
		uint32_t u = frontier.front();

		frontier.pop_front();
		for (uint32_t v : adj[u]) {
			if (tier[v] == inf) {
				tier[v] = tier[u] + 1;
				frontier.push_back(v);
			}
		}
	}
	for (Switch *s : switches_) {
		s->set_tier(tier[s->id()] - 1);
		s->route_off.assign(nhosts_, 0);
		s->route_cnt.assign(nhosts_, 0);
		s->route_ports.clear();
	}
	for (uint32_t d = 0; d < nhosts_; d++) {
		// Distances to host d; other hosts do not forward.
		std::fill(dist.begin(), dist.end(), inf);
		dist[d] = 0;
		frontier.assign(1, d);
		while (!frontier.empty()) {
			uint32_t u = frontier.front();

			frontier.pop_front();
			if (u != d && nodes_[u]->is_host())
				continue;
			for (uint32_t v : adj[u]) {
				if (dist[v] == inf) {
					dist[v] = dist[u] + 1;
					frontier.push_back(v);
				}
			}
		}
		for (Switch *s : switches_) {
			uint32_t du = dist[s->id()];

			s->route_off[d] = (uint32_t)s->route_ports.size();
			if (du == inf)
				continue;
			for (uint32_t i = 0; i < s->ports.size(); i++) {
				Node *to = s->ports[i]->to();

				if (to->is_host() && to->id() != d)
					continue;
				if (dist[to->id()] + 1 == du) {
					s->route_ports.push_back((uint16_t)i);
					s->route_cnt[d]++;
				}
			}
		}
	}
}

std::vector<Port *> Network::path(uint32_t src, uint32_t dst, uint8_t path_id, EcmpMode mode) const
{
	std::vector<Port *> out;
	Port *p = nic_[src];

	while (p) {
		out.push_back(p);
		Node *to = p->to();

		if (to->is_host() || out.size() > nodes_.size())
			break;
		p = static_cast<Switch *>(to)->next_port(src, dst, path_id, mode);
	}
	return out;
}

}  // namespace eqdssim
