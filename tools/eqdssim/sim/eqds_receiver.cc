// SPDX-License-Identifier: GPL-2.0
// Mirrors kmod/rx_tunnel.c; see the header.
#include "eqds_receiver.h"

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
	/* Epoch 0: no sender epoch yet; the first SYN sets it. */
	eqds_rx_init(&core_.rx, 0, host.cfg().window_pkts, EQDS_SCHED_MAX_QUANTA);
}

ReceiverTunnel::~ReceiverTunnel()
{
	timer_.cancel();
	eqds_sched_deactivate(&host_.pacer().sched(), &core_.rx.asl);
}

ReceiverTunnel *ReceiverTunnel::from_asl(struct eqds_asl_node *node)
{
	auto *rx = reinterpret_cast<struct eqds_rx *>(reinterpret_cast<char *>(node) -
						     offsetof(struct eqds_rx, asl));

	return reinterpret_cast<RxCore *>(rx)->owner;
}

void ReceiverTunnel::plan_ack(AckPlan *a, uint8_t extra, uint32_t nack_seq)
{
	a->send = true;
	a->flags = EQDS_F_SYN | EQDS_F_ACK | extra;
	a->ack = (extra & EQDS_F_NACK) ? nack_seq : core_.rx.rcv_nxt;
	a->sack = (extra & EQDS_F_NACK) ? 0 : eqds_rx_sack(&core_.rx);
	if (a->sack)
		a->flags |= EQDS_F_SACK;
	a->epoch = core_.rx.epoch;
	a->path = path_++;
	core_.rx.since_ack = 0;
}

void ReceiverTunnel::send_ack(const AckPlan &a)
{
	struct eqds_pkt pkt;

	std::memset(&pkt, 0, sizeof(pkt));
	pkt.type = EQDS_TYPE_CTRL;
	pkt.hlen = EQDS_CTRL_HLEN;
	pkt.flags = a.flags;
	pkt.epoch = a.epoch;
	pkt.path_id = a.path;
	pkt.ctrl.ack = a.ack;
	pkt.ctrl.sack = a.sack;
	if (a.flags & EQDS_F_NACK)
		host_.counters().nacks_sent++;
	else
		host_.counters().acks_sent++;
	host_.send_packet(peer_, pkt, nullptr);
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

// rx_tunnel.c's release(): what the reorder state lets go, and a NACK for
// the first hole given up on.
void ReceiverTunnel::release(SimTime now, AckPlan *ack)
{
	struct eqds_rx &rx = core_.rx;
	u64 skipped = rx.stats.skipped, before;
	bool nack = false;
	u32 first_missing = 0, from, seq;
	SimTime timeout = host_.cfg().reorder_timeout;

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
		plan_ack(ack, EQDS_F_NACK, first_missing);
	if (rx.nheld)
		arm_timer(eqds_rx_deadline(&rx, timeout));
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
	eqds_pullgen_demand(&core_.rx.pulls, pull_target);
	if (eqds_pullgen_outstanding(&core_.rx.pulls)) {
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

	if (pkt.epoch != rx.epoch) {
		if (!syn) {
			host_.counters().rsts_sent++;
			host_.counters().drop_unknown++;
			struct eqds_pkt rst;

			std::memset(&rst, 0, sizeof(rst));
			rst.type = EQDS_TYPE_CTRL;
			rst.hlen = EQDS_CTRL_HLEN;
			rst.flags = EQDS_F_RST;
			rst.epoch = pkt.epoch;
			host_.send_packet(peer_, rst, nullptr);
			return;
		}
		if (rx.epoch && !eqds_seq_after(pkt.epoch, rx.epoch)) {
			host_.counters().drop_stale++;
			return;
		}
		new_epoch(pkt.epoch);
		plan_ack(&ack, 0, 0);
	}
	demand(pkt.data.pull_target);

	if (nsegs) {
		epoch_rx_bytes_ += ip_bytes;
		if (ce)
			host_.counters().ce_rcvd++;
		switch (eqds_rx_data(&rx, pkt.data.seq, nsegs, now)) {
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
			plan_ack(&ack, 0, 0);
			break;
		default:
			host_.counters().drop_window++;
			break;
		}
		release(now, &ack);
		if (!ack.send && rx.since_ack >= host_.cfg().ack_every)
			plan_ack(&ack, 0, 0);
		else if (!ack.send && rx.since_ack)
			arm_timer(now + host_.cfg().ack_delay);
	}
	if (ack.send)
		send_ack(ack);
}

void ReceiverTunnel::on_timer()
{
	AckPlan ack;

	release(host_.now(), &ack);
	if (!ack.send && core_.rx.since_ack)
		plan_ack(&ack, 0, 0);
	if (ack.send)
		send_ack(ack);
}

uint32_t ReceiverTunnel::pull_grant(uint32_t quanta)
{
	u32 pull_no = core_.rx.pulls.pull_no;

	while (quanta--)
		pull_no = eqds_pullgen_next(&core_.rx.pulls);
	return pull_no;
}

void ReceiverTunnel::fill_pull(struct eqds_pkt *pkt)
{
	pkt->ctrl.ack = core_.rx.rcv_nxt;
	pkt->ctrl.sack = eqds_rx_sack(&core_.rx);
	pkt->path_id = path_++;
	core_.rx.since_ack = 0;
}

}  // namespace eqdssim
