// SPDX-License-Identifier: GPL-2.0
#include "scenario.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace eqdssim {

namespace {
constexpr uint32_t kSample = 1;
constexpr uint32_t kForget = 2;
constexpr uint32_t kForgetSend = 3;
constexpr uint32_t kFailLink = 4;
// While draining, check this often whether everything is done.
constexpr SimTime kDrainStep = 1 * kMs;
}

Scenario::Scenario(const ScenarioConfig &cfg) : cfg_(cfg), faults_(cfg.seed)
{
	for (size_t k = 0; k < cfg.loss.size(); k++)
		faults_.set_loss((PacketKind)k, cfg.loss[k]);
	net_ = std::make_unique<Network>(events_, cfg.ecmp, cfg.seed);
	traffic_ = std::make_unique<Traffic>(*net_);
	env_.net = net_.get();
	env_.cfg = cfg.eqds;
	env_.app = traffic_.get();
	env_.faults = faults_.any() ? &faults_ : nullptr;
	env_.audit = &audit_;
	build_topology(*net_, cfg.topo, [this](uint32_t id) {
		return std::make_unique<Host>(id, env_, cfg_.seed);
	});
	for (uint32_t h = 0; h < net_->host_count(); h++)
		host(h).pacer().configure();

	std::mt19937_64 rng(cfg.seed);

	make_workload(*traffic_, cfg.work, net_->host_count(), cfg.topo.host_rate_bps,
		      cfg.duration, rng);
	traffic_->set_measure_from(cfg.warmup);
	for (const auto &p : net_->ports())
		p->set_measure_from(cfg.warmup);
	if (cfg.sample_interval)
		events_.at(cfg.sample_interval, this, kSample, 0);
	if (cfg.forget_at)
		events_.at(cfg.forget_at, this, kForget, 0);
	if (cfg.forget_send_at)
		events_.at(cfg.forget_send_at, this, kForgetSend, 0);
	if (cfg.slow_link > 1)
		for (Port *p : core_link())
			p->set_rate(p->config().rate_bps / cfg.slow_link);
	if (cfg.fail_link_at)
		events_.at(cfg.fail_link_at, this, kFailLink, 0);
}

std::vector<Port *> Scenario::core_link() const
{
	std::vector<Port *> link;
	const auto &ports = net_->ports();

	for (size_t i = ports.size(); i-- > 0 && link.size() < 2;)
		if (ports[i]->role() == PortRole::kFabric)
			link.push_back(ports[i].get());
	return link;
}

void Scenario::fire(uint32_t kind, uint64_t)
{
	if (kind == kForget) {
		host(cfg_.forget_host).forget_receive_state();
		return;
	}
	if (kind == kFailLink) {
		for (Port *p : core_link())
			p->set_failed(true);
		return;
	}
	if (kind == kForgetSend) {
		host(cfg_.forget_send_host).forget_send_state();
		traffic_->restart_sender(cfg_.forget_send_host);
		return;
	}
	if (kind != kSample)
		return;
	sample();
	if (events_.now() + cfg_.sample_interval <= cfg_.duration)
		events_.at(events_.now() + cfg_.sample_interval, this, kSample, 0);
}

void Scenario::sample()
{
	Sample s;
	const uint32_t quantum = cfg_.eqds.quantum;
	uint32_t receivers = 0;

	s.t = events_.now();
	for (const auto &p : net_->ports()) {
		uint32_t &m = s.max_queue[(size_t)p->role()];

		m = std::max(m, p->queue_len());
	}
	for (uint32_t h = 0; h < net_->host_count(); h++) {
		Host &x = host(h);

		for (const auto &[dst, t] : x.senders()) {
			const struct eqds_tx &tx = t->tx();
			uint64_t circ = tx.credit.credit + t->inflight_bytes();
			ReceiverTunnel *r = host(dst).find_receiver(h);

			if (r && r->rx().epoch == tx.epoch)
				circ += (uint64_t)(uint32_t)(r->rx().pulls.pull_no - tx.credit.pull_hi) *
					quantum;
			s.credit_in_circulation += circ;
			s.max_tunnel_circulation = std::max(s.max_tunnel_circulation,
							    (double)circ / tx.credit.window);
			if (!t->idle())
				s.active_tunnels++;
		}
		for (const auto &[src, r] : x.receivers()) {
			s.held_packets += r->rx().nheld;
			s.max_held = std::max(s.max_held, r->rx().nheld);
		}
		if (!x.receivers().empty() && x.pacer().max_rate_bps()) {
			double f = (double)x.pacer().rate_bps() / (double)x.pacer().max_rate_bps();

			s.mean_pull_rate += f;
			s.min_pull_rate = receivers ? std::min(s.min_pull_rate, f) : f;
			receivers++;
		}
	}
	if (receivers)
		s.mean_pull_rate /= receivers;
	samples_.push_back(s);
}

bool Scenario::quiescent() const
{
	for (const Flow &f : traffic_->flows())
		if (f.finite() && !f.finish)
			return false;
	for (uint32_t h = 0; h < net_->host_count(); h++)
		for (const auto &[dst, t] : host(h).senders())
			if (!t->idle())
				return false;
	return true;
}

void Scenario::run()
{
	auto t0 = std::chrono::steady_clock::now();

	const uint32_t steps = cfg_.progress ? 10 : 1;

	for (uint32_t i = 1; i <= steps; i++) {
		events_.run_until(cfg_.duration * i / steps);
		if (cfg_.progress)
			std::fprintf(stderr, "  %u%%: %.1f ms simulated, %.0f M events, %.0f s\n",
				     i * 100 / steps, (double)events_.now() / 1e6,
				     (double)events_.events_run() / 1e6,
				     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
	}
	for (SimTime waited = 0; cfg_.drain && waited < cfg_.drain && !quiescent();
	     waited += kDrainStep)
		events_.run_until(events_.now() + kDrainStep);
	end_ = events_.now();
	for (const auto &p : net_->ports())
		p->account(end_);
	wall_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace eqdssim
