// SPDX-License-Identifier: GPL-2.0
// Mirrors kmod/rx_tunnel.c; see the header.
#include "eqds_receiver.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "host.h"
#include "seq.h"

namespace eqdssim {

ReceiverTunnel::ReceiverTunnel(Host &host, uint32_t peer)
	: host_(host), peer_(peer), timer_(host.events(), [this] { on_timer(); })
{
	for (Held &h : held_)
		h = Held{ AppData(), false };
	core_.owner = this;
	eqds_epoch_guard_init(&guard_);
	/* Epoch 0: no sender epoch yet; the first SYN sets it. */
	eqds_rx_init(&core_.rx, 0, host.cfg().window_pkts, EQDS_SCHED_MAX_QUANTA);
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

void ReceiverTunnel::plan(AckPlan *a, uint8_t extra, uint32_t ack, uint64_t sack)
{
	a->send = true;
	a->epoch = core_.rx.epoch;
	a->ack.flags = EQDS_F_SYN | EQDS_F_ACK | extra | (sack ? EQDS_F_SACK : 0);
	a->ack.ack = ack;
	a->ack.sack = sack;
	a->ack.path = path_++;
	core_.rx.since_ack = 0;
}

void ReceiverTunnel::plan_ack(AckPlan *a)
{
	plan(a, 0, core_.rx.rcv_nxt, eqds_rx_sack(&core_.rx));
}

void ReceiverTunnel::plan_nack(AckPlan *a, uint32_t seq, uint64_t sack)
{
	CtrlMsg &m = a->nack[a->nnacks++];

	a->epoch = core_.rx.epoch;
	m.flags = EQDS_F_NACK | (sack ? EQDS_F_SACK : 0);
	m.ack = seq;
	m.sack = sack;
	m.path = path_++;
}

void ReceiverTunnel::send_ctrl(uint32_t epoch, const CtrlMsg &m)
{
	struct eqds_pkt pkt;

	std::memset(&pkt, 0, sizeof(pkt));
	pkt.type = EQDS_TYPE_CTRL;
	pkt.hlen = EQDS_CTRL_HLEN;
	pkt.flags = m.flags;
	pkt.epoch = epoch;
	pkt.path_id = m.path;
	pkt.ctrl.ack = m.ack;
	pkt.ctrl.sack = m.sack;
	pkt.ctrl.busy_us = host_.pacer().busy_us();
	if (m.flags & EQDS_F_NACK)
		host_.counters().nacks_sent++;
	else
		host_.counters().acks_sent++;
	host_.send_packet(peer_, pkt, nullptr);
}

void ReceiverTunnel::send_acks(const AckPlan &a)
{
	if (a.send)
		send_ctrl(a.epoch, a.ack);
	for (uint32_t i = 0; i < a.nnacks; i++)
		send_ctrl(a.epoch, a.nack[i]);
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

// rx_tunnel.c's release(): what the reorder state lets go; a NACK for the
// first hole given up on, and NACKs of holes that have waited longer than
// holes take to fill while the packets after them are still held.
void ReceiverTunnel::release(SimTime now, AckPlan *ack)
{
	struct eqds_rx &rx = core_.rx;
	u64 skipped = rx.stats.skipped, before, sack;
	bool nack = false;
	u32 first_missing = 0, from, seq;
	SimTime timeout = host_.cfg().reorder_timeout;
	uint32_t burst = std::min<uint32_t>(host_.cfg().nack_burst, 8);

	for (;;) {
		from = rx.rcv_nxt;
		before = rx.stats.skipped;
		if (!eqds_rx_release(&rx, now, timeout, &seq))
			break;
		if (rx.stats.skipped != before && !nack) {
			nack = true;
			first_missing = from;
		}
		Held &h = held_[eqds_rx_slot(seq)];

		if (h.used) {
			h.used = false;
			deliver(h.app, false);
		}
	}
	host_.counters().reorder_skipped += rx.stats.skipped - skipped;
	if (nack)
		plan(ack, EQDS_F_NACK, first_missing, 0);
	while (ack->nnacks < burst && eqds_rx_nack(&rx, now, timeout, &seq, &sack)) {
		/* The hole at rcv_nxt: the acknowledgment names it. */
		if (seq == rx.rcv_nxt && !nack)
			plan(ack, EQDS_F_NACK, seq, sack);
		else
			plan_nack(ack, seq, sack);
	}
	if (rx.nheld) {
		u64 when = eqds_rx_deadline(&rx, timeout);
		u64 nack_when = eqds_rx_nack_deadline(&rx, timeout);

		arm_timer(nack_when ? std::min(when, nack_when) : when);
	}
}

void ReceiverTunnel::new_epoch(uint32_t epoch)
{
	for (Held &h : held_)
		h.used = false;
	eqds_sched_deactivate(&host_.pacer().sched(), &core_.rx.asl);
	eqds_rx_init(&core_.rx, epoch, host_.cfg().window_pkts, EQDS_SCHED_MAX_QUANTA);
	epoch_rx_bytes_ = 0;
}

void ReceiverTunnel::demand(uint16_t pull_target)
{
	u32 want;

	eqds_pullgen_demand(&core_.rx.pulls, pull_target);
	want = eqds_pullgen_outstanding(&core_.rx.pulls);
	eqds_sched_set_backlog(&host_.pacer().sched(), &core_.rx.asl, want);
	host_.pacer().update_busy();
	if (want) {
		eqds_sched_activate(&host_.pacer().sched(), &core_.rx.asl);
		host_.pacer().kick();
	}
}

void ReceiverTunnel::data_rcv(const struct eqds_pkt &pkt, const AppData &app, uint32_t ip_bytes,
			      bool ce)
{
	struct eqds_rx &rx = core_.rx;
	bool syn = pkt.flags & EQDS_F_SYN;
	SimTime now = host_.now();
	uint32_t nsegs = pkt.next_proto != EQDS_NP_NONE ? 1 : 0;
	AckPlan ack;

	switch (eqds_epoch_data(&guard_, rx.epoch, pkt.epoch, syn, now)) {
	case EQDS_EPOCH_CURRENT:
		break;
	case EQDS_EPOCH_BEGIN:
		new_epoch(pkt.epoch);
		eqds_epoch_guard_init(&guard_);
		plan_ack(&ack);
		break;
	case EQDS_EPOCH_UNKNOWN: {
		struct eqds_pkt rst;

		host_.counters().rsts_sent++;
		host_.counters().drop_unknown++;
		std::memset(&rst, 0, sizeof(rst));
		rst.type = EQDS_TYPE_CTRL;
		rst.hlen = EQDS_CTRL_HLEN;
		rst.flags = EQDS_F_RST;
		rst.epoch = pkt.epoch;
		host_.send_packet(peer_, rst, nullptr);
		return;
	}
	case EQDS_EPOCH_DISOWNED:
		host_.counters().drop_stale++;
		return;
	case EQDS_EPOCH_CHALLENGE:
		/* An ack for our epoch: only its real sender can act on it. */
		plan_ack(&ack);
		host_.counters().challenges_sent++;
		host_.counters().drop_epoch++;
		send_acks(ack);
		return;
	case EQDS_EPOCH_REFUSED:
	default:
		host_.counters().drop_epoch++;
		return;
	}
	demand(pkt.data.pull_target);

	if (nsegs) {
		epoch_rx_bytes_ += ip_bytes;
		if (ce)
			host_.counters().ce_rcvd++;
		host_.pacer().data_arrived(ip_bytes, ce);
		switch (eqds_rx_packet(&rx, pkt.data.seq, nsegs, pkt.flags & EQDS_F_RTX, now)) {
		case EQDS_RX_DELIVER:
			deliver(app, false);
			break;
		case EQDS_RX_LATE:
			host_.counters().reorder_late++;
			deliver(app, true);
			break;
		case EQDS_RX_HOLD:
			host_.counters().reorder_held++;
			held_[eqds_rx_slot(pkt.data.seq)] = Held{ app, true };
			if (rx.nheld > host_.counters().max_reorder_depth)
				host_.counters().max_reorder_depth = rx.nheld;
			break;
		case EQDS_RX_DUP:
			host_.counters().drop_dup++;
			plan_ack(&ack);
			break;
		default:
			host_.counters().drop_window++;
			break;
		}
		release(now, &ack);
		if (!ack.send && rx.since_ack >= host_.cfg().ack_every)
			plan_ack(&ack);
		else if (!ack.send && rx.since_ack)
			arm_timer(now + host_.cfg().ack_delay);
	}
	send_acks(ack);
}

void ReceiverTunnel::on_timer()
{
	AckPlan ack;

	release(host_.now(), &ack);
	if (!ack.send && core_.rx.since_ack)
		plan_ack(&ack);
	send_acks(ack);
}

bool ReceiverTunnel::fin_rcv(uint32_t epoch)
{
	if (!eqds_epoch_fin(&guard_, core_.rx.epoch, epoch))
		return false;
	new_epoch(core_.rx.epoch);
	return true;
}

bool ReceiverTunnel::pull_pkt(const struct eqds_grant &g, uint16_t busy_us, struct eqds_pkt *pkt)
{
	return eqds_grant_pull(&core_.rx, &g, host_.cfg().quantum, busy_us, &path_, pkt);
}

}  // namespace eqdssim
