// SPDX-License-Identifier: GPL-2.0
// The event glue of kmod/pull.c around core/grant.h; see the header.
#include "eqds_pacer.h"

#include <cstring>

#include "host.h"

namespace eqdssim {

PullPacer::PullPacer(Host &host) : host_(host), timer_(host.events(), [this] { run(); })
{
	std::memset(&sched_, 0, sizeof(sched_));
}

void PullPacer::configure()
{
	const EqdsConfig &cfg = host_.cfg();
	uint64_t bps = eqds_pacer_rate(cfg.pull_rate_bps, host_.link_rate_bps(), cfg.headroom, 0);

	eqds_sched_init(&sched_, bps, cfg.quantum, eqds_pacer_max_burst(bps, cfg.quantum),
			host_.now());
	eqds_sched_set_turn(&sched_, (uint32_t)cfg.pull_turn);
	eqds_cc_init(&cc_, &cfg.cc_params, bps);
	max_bps_ = bps;
}

void PullPacer::data_arrived(uint32_t bytes, bool ce)
{
	arrived_bytes_ += bytes;
	if (ce)
		ce_bytes_ += bytes;
}

void PullPacer::kick()
{
	if (eqds_pacer_wake(&sched_, &armed_, host_.now()))
		timer_.start(host_.now());
}

void PullPacer::run()
{
	struct eqds_pacer_plan plan;

	if (host_.cfg().cc && eqds_cc_due(&cc_, host_.now()))
		eqds_pacer_observe(&sched_, &cc_, arrived_bytes_, ce_bytes_, host_.now());
	eqds_pacer_run(&sched_, host_.now(), host_.cfg().pacer_min_interval, &plan);
	busy_us_ = plan.busy_us;
	if (plan.rearm)
		timer_.start(plan.next_ns);
	else
		armed_ = false;

	for (uint32_t i = 0; i < plan.ngrants; i++) {
		ReceiverTunnel *t = ReceiverTunnel::from_rx(plan.grant[i].rx);
		struct eqds_pkt pkt;

		if (!t->pull_pkt(plan.grant[i], busy_us_, &pkt))
			continue;
		host_.counters().pulls_sent++;
		host_.counters().pull_quanta_sent += plan.grant[i].quanta;
		host_.send_packet(t->peer(), pkt, nullptr);
	}
}

}  // namespace eqdssim
