// SPDX-License-Identifier: GPL-2.0
// Mirrors kmod/pull.c; see the header.
#include "eqds_pacer.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "host.h"

namespace eqdssim {

namespace {
// pull.c's max_burst(): what accrues over a late expiry, at least one turn.
uint32_t max_burst(const EqdsConfig &cfg, uint64_t bps)
{
	uint64_t late = bps / 8 * cfg.pacer_late / 1000000000ull;

	return (uint32_t)std::max<uint64_t>(EQDS_SCHED_MAX_QUANTA * cfg.quantum, late);
}
}  // namespace

PullPacer::PullPacer(Host &host) : host_(host), timer_(host.events(), [this] { run(); })
{
	std::memset(&sched_, 0, sizeof(sched_));
}

void PullPacer::configure()
{
	const EqdsConfig &cfg = host_.cfg();
	uint64_t bps = cfg.pull_rate_bps ? cfg.pull_rate_bps :
		       host_.link_rate_bps() * cfg.pull_rate_percent / 100;

	eqds_sched_init(&sched_, bps, cfg.quantum, max_burst(cfg, bps), host_.now());
	eqds_cc_init(&cc_, &cfg.cc_params, bps);
	max_bps_ = bps;
}

void PullPacer::data_arrived(uint32_t bytes, bool ce)
{
	if (!host_.cfg().cc)
		return;
	if (eqds_cc_data(&cc_, bytes, ce, host_.now()))
		eqds_sched_set_rate(&sched_, eqds_cc_rate(&cc_), host_.now());
}

void PullPacer::kick()
{
	if (armed_)
		return;
	armed_ = true;
	eqds_sched_advance(&sched_, host_.now());
	timer_.start(host_.now());
}

void PullPacer::run()
{
	struct grant {
		ReceiverTunnel *t;
		uint32_t pull_no;
		uint32_t epoch;
		uint32_t quanta;
	};
	const EqdsConfig &cfg = host_.cfg();
	grant g[64];
	uint32_t n = 0, max_grants = std::min<uint32_t>(cfg.grants_per_run, 64);
	struct eqds_asl_node *node;
	SimTime now = host_.now();

	eqds_sched_advance(&sched_, now);
	while (n < max_grants && (node = eqds_sched_peek(&sched_))) {
		ReceiverTunnel *t = ReceiverTunnel::from_asl(node);
		u32 want = eqds_pullgen_outstanding(&t->rx().pulls);
		u32 q = eqds_sched_quanta(&sched_, node, want);

		if (!q) {
			eqds_sched_granted(&sched_, node, 0, want);
			if (want)
				break;
			continue;
		}
		g[n].t = t;
		g[n].epoch = t->rx().epoch;
		g[n].pull_no = t->pull_grant(q);
		g[n].quanta = q;
		eqds_sched_set_backlog(&sched_, node, want - q);
		eqds_sched_granted(&sched_, node, q, want - q);
		n++;
	}
	update_busy();
	if (sched_.active) {
		u64 next = std::max<u64>(eqds_sched_next_ns(&sched_, now), cfg.pacer_min_interval);

		timer_.start(now + next);
	} else {
		armed_ = false;
	}

	for (uint32_t i = 0; i < n; i++) {
		struct eqds_pkt pkt;

		if (g[i].t->rx().epoch != g[i].epoch)
			continue;
		std::memset(&pkt, 0, sizeof(pkt));
		g[i].t->fill_pull(&pkt);
		pkt.type = EQDS_TYPE_CTRL;
		pkt.hlen = EQDS_CTRL_HLEN;
		pkt.flags = EQDS_F_SYN | EQDS_F_ACK | EQDS_F_PULL;
		if (pkt.ctrl.sack)
			pkt.flags |= EQDS_F_SACK;
		pkt.epoch = g[i].epoch;
		pkt.ctrl.pull_no = g[i].pull_no;
		pkt.ctrl.quantum = (u16)(cfg.quantum >> EQDS_QUANTUM_SHIFT);
		pkt.ctrl.busy_us = busy_us_;
		host_.counters().pulls_sent++;
		host_.counters().pull_quanta_sent += g[i].quanta;
		host_.send_packet(g[i].t->peer(), pkt, nullptr);
	}
}

}  // namespace eqdssim
