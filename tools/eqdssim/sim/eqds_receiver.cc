// SPDX-License-Identifier: GPL-2.0
// The event glue of kmod/rx_tunnel.c around core/rxq.h; see the header.
#include "eqds_receiver.h"

#include <algorithm>
#include <cstddef>

#include "host.h"
#include "seq.h"

namespace eqdssim {

ReceiverTunnel::ReceiverTunnel(Host &host, uint32_t peer)
	: host_(host), peer_(peer), timer_(host.events(), [this] { on_timer(); })
{
	for (Held &h : held_)
		h = Held{ AppData(), false };
	core_.owner = this;
	rxq_cfg_ = host.cfg().rxq;
	eqds_epoch_guard_init(&guard_);
	/* Epoch 0: no sender epoch yet; the first SYN sets it. */
	eqds_rx_init(&core_.rx, 0, host.cfg().window_pkts, EQDS_SCHED_TURN_QUANTA);
}

ReceiverTunnel::~ReceiverTunnel()
{
	timer_.cancel();
	eqds_sched_deactivate(&host_.pacer().sched(), &core_.rx.asl);
}

ReceiverTunnel *ReceiverTunnel::from_rx(struct eqds_rx *rx)
{
	return reinterpret_cast<RxCore *>(rx)->owner;
}

void ReceiverTunnel::send_ctrl(uint32_t epoch, const struct eqds_rxq_ctrl &m)
{
	struct eqds_pkt pkt;

	eqds_rxq_ctrl_pkt(&m, epoch, &pkt);
	pkt.ctrl.busy_us = host_.pacer().busy_us();
	if (m.flags & EQDS_F_NACK)
		host_.counters().nacks_sent++;
	else
		host_.counters().acks_sent++;
	host_.send_packet(peer_, pkt, nullptr);
}

void ReceiverTunnel::send_acks(const struct eqds_rxq_plan &p)
{
	if (p.send)
		send_ctrl(p.epoch, p.ack);
	for (uint32_t i = 0; i < p.nnacks; i++)
		send_ctrl(p.epoch, p.nack[i]);
}

// rx_tunnel.c's plan_commit(); NACKs are counted as they are sent.
void ReceiverTunnel::commit(const struct eqds_rxq_plan &p)
{
	u64 skipped = 0;
	SimTime when = eqds_rxq_commit(&p, &path_, nullptr, &skipped);

	host_.counters().reorder_skipped += skipped;
	if (when)
		arm_timer(when);
}

void ReceiverTunnel::deliver(const AppData &app, bool late)
{
	host_.counters().rx_delivered++;
	if (host_.app())
		host_.app()->delivered(host_, peer_, app, late);
}

void ReceiverTunnel::arm_timer(SimTime when)
{
	if (timer_.queued() && timer_.expires() <= when)
		return;
	timer_.start(when);
}

// rx_tunnel.c's release(): what the core lets go, from the held ring.
void ReceiverTunnel::release(SimTime now, struct eqds_rxq_plan *p)
{
	u32 seq;

	while (eqds_rxq_release(&core_.rx, &rxq_cfg_, now, p, &seq)) {
		Held &h = held_[eqds_rx_held_slot(seq)];

		if (h.used) {
			h.used = false;
			deliver(h.app, false);
		}
	}
}

void ReceiverTunnel::new_epoch(uint32_t epoch)
{
	for (Held &h : held_)
		h.used = false;
	eqds_sched_deactivate(&host_.pacer().sched(), &core_.rx.asl);
	eqds_rx_init(&core_.rx, epoch, host_.cfg().window_pkts, EQDS_SCHED_TURN_QUANTA);
	learn_paths();
	epoch_rx_bytes_ = 0;
}

void ReceiverTunnel::demand(uint16_t pull_target, bool probe)
{
	u32 want = eqds_rxq_demand(&host_.pacer().sched(), &core_.rx, pull_target, probe);

	host_.pacer().update_busy();
	if (want)
		host_.pacer().kick();
}

void ReceiverTunnel::data_rcv(const struct eqds_pkt &pkt, const AppData &app, uint32_t ip_bytes,
			      bool ce)
{
	struct eqds_rx &rx = core_.rx;
	bool syn = pkt.flags & EQDS_F_SYN;
	SimTime now = host_.now();
	uint32_t nsegs = pkt.next_proto != EQDS_NP_NONE ? 1 : 0;
	struct eqds_rxq_plan plan;

	learn_paths();
	eqds_rxq_plan_init(&plan, path_);

	switch (eqds_rxq_admit(&rx, &guard_, pkt.epoch, syn, now, &plan)) {
	case EQDS_RXQ_TAKE:
		break;
	case EQDS_RXQ_BEGIN:
		new_epoch(pkt.epoch);
		eqds_rxq_begin(&rx, &guard_, &plan);
		break;
	case EQDS_RXQ_RST:
		host_.counters().drop_unknown++;
		host_.send_rst(peer_, pkt.epoch);
		return;
	case EQDS_RXQ_STALE:
		host_.counters().drop_stale++;
		return;
	case EQDS_RXQ_REFUSED:
	default:
		host_.counters().drop_epoch++;
		commit(plan);
		if (plan.send) {
			host_.counters().challenges_sent++;
			send_acks(plan);
		}
		return;
	}
	demand(pkt.data.pull_target, pkt.flags & EQDS_F_RTS);

	if (nsegs) {
		epoch_rx_bytes_ += ip_bytes;
		if (ce) {
			host_.counters().ce_rcvd++;
			if (host_.cfg().path_choice)
				eqds_rx_ce(&rx, pkt.path_id);
		}
		host_.pacer().data_arrived(ip_bytes, ce);
		switch (eqds_rxq_data(&rx, pkt.data.seq, nsegs, pkt.flags & EQDS_F_RTX, now,
				      &plan)) {
		case EQDS_RX_DELIVER:
			deliver(app, false);
			break;
		case EQDS_RX_LATE:
			host_.counters().reorder_late++;
			deliver(app, true);
			break;
		case EQDS_RX_HOLD:
			host_.counters().reorder_held++;
			held_[eqds_rx_held_slot(pkt.data.seq)] = Held{ app, true };
			if (rx.nheld > host_.counters().max_reorder_depth)
				host_.counters().max_reorder_depth = rx.nheld;
			break;
		case EQDS_RX_DUP:
			host_.counters().drop_dup++;
			break;
		default:
			host_.counters().drop_window++;
			break;
		}
		release(now, &plan);
		eqds_rxq_done(&rx, &rxq_cfg_, now, false, &plan);
	}
	commit(plan);
	send_acks(plan);
}

void ReceiverTunnel::on_timer()
{
	struct eqds_rxq_plan plan;
	SimTime now = host_.now();

	learn_paths();
	eqds_rxq_plan_init(&plan, path_);
	release(now, &plan);
	eqds_rxq_done(&core_.rx, &rxq_cfg_, now, true, &plan);
	commit(plan);
	send_acks(plan);
}

bool ReceiverTunnel::fin_rcv(uint32_t epoch)
{
	if (!eqds_epoch_fin(&guard_, core_.rx.epoch, epoch))
		return false;
	new_epoch(core_.rx.epoch);
	return true;
}

void ReceiverTunnel::learn_paths()
{
	const SenderTunnel *tx = host_.find_sender(peer_);

	eqds_rx_avoid(&core_.rx, tx ? tx->paths().bad : nullptr);
}

bool ReceiverTunnel::pull_pkt(const struct eqds_grant &g, uint16_t busy_us, struct eqds_pkt *pkt)
{
	learn_paths();
	return eqds_grant_pull(&core_.rx, &g, host_.cfg().quantum, busy_us, &path_, pkt);
}

}  // namespace eqdssim
