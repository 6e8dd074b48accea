// SPDX-License-Identifier: GPL-2.0
// The event glue of a sending tunnel; see the header.
#include "eqds_sender.h"

#include <cstring>

#include "host.h"

namespace eqdssim {

namespace {
// Bytes a data packet puts on the wire: an unsegmented packet, inner length
// plus eqds_overhead(AF_INET).
uint32_t wire_bytes(const AppData &d)
{
	return eqds_txq_wire_bytes(d.inner_bytes, 0, 1, kOuterIpUdpBytes + EQDS_DATA_HLEN);
}
}  // namespace

SenderTunnel::SenderTunnel(Host &host, uint32_t peer)
	: host_(host), peer_(peer), ring_(EQDS_TXQ_RING_MAX), kept_(EQDS_TXQ_RING_MAX),
	  timer_(host.events(), [this] { on_timer(); })
{
	const EqdsConfig &cfg = host.cfg();
	u8 path = (u8)host.rng()();

	eqds_txq_start(&q_, cfg.window_pkts, cfg.burst_mode, (u32)cfg.rto_min,
		       host.epoch_clock(), host.now(), path);
	eqds_tx_set_overdraft(&q_.tx, cfg.small_overdraft);
	eqds_paths_set_on(&q_.paths, cfg.path_choice);
	eqds_txq_ring_move(&q_, ring_.data(), (u32)ring_.size(), nullptr, nullptr);
	ledger_.initial = q_.tx.credit.credit;
}

bool SenderTunnel::idle() const
{
	return queue_.empty() && !q_.nrtx && !eqds_tx_inflight(&q_.tx);
}

void SenderTunnel::arm_timer(u64 when)
{
	if (!when)
		return;
	if (timer_.queued() && timer_.expires() <= when)
		return;
	timer_.start(when);
}

void SenderTunnel::send_data(const AppData *app, const struct eqds_txq_step &st)
{
	struct eqds_pkt hdr;

	eqds_txq_step_hdr(&st, EQDS_NP_IPV4, app ? app->inner_bytes : 0, &hdr);
	if (app) {
		host_.counters().tx_data++;
		ledger_.charged += eqds_tx_cost(&q_.tx, st.wire_bytes, st.nsegs);
	}
	host_.send_packet(peer_, hdr, app);
}

// The ring is full size: a committed packet always has its slot.
void SenderTunnel::keep(const AppData &app, const struct eqds_txq_step &st)
{
	if (eqds_txq_ring_need(&q_, &st))
		return;
	kept_[eqds_txq_keep(&q_, &st)] = app;
	inflight_bytes_ += st.wire_bytes;
}

// The core's pump, step by step (tx_tunnel.c's pump()).
void SenderTunnel::pump(SimTime now)
{
	struct eqds_txq_desc heads[EQDS_TXQ_NCLASSES] = {};
	struct eqds_txq_pump p;
	struct eqds_txq_step st;

	eqds_txq_pump_begin(&p, now);
	for (;;) {
		if (!queue_.empty())
			heads[0] = { queue_.front().wire_bytes, 0, 0, 1, 0 };
		switch (eqds_txq_pump_next(&q_, &p, heads, &st)) {
		case EQDS_TXQ_RTX:
			eqds_txq_commit(&q_, &p, &st);
			send_data(&kept_[st.slot], st);
			host_.counters().retransmits++;
			continue;
		case EQDS_TXQ_NEW: {
			Queued qd = queue_.front();

			queue_.pop_front();
			eqds_txq_commit(&q_, &p, &st);
			keep(qd.app, st);
			send_data(&qd.app, st);
			continue;
		}
		case EQDS_TXQ_RTS:
			eqds_txq_commit(&q_, &p, &st);
			send_data(nullptr, st);
			host_.counters().rts_sent++;
			continue;
		default:
			break;
		}
		break;
	}
	// Credit in hand but every sequence slot in flight.
	if (p.window_full)
		host_.counters().ring_full++;
	arm_timer(eqds_txq_pump_end(&q_, &p));
	count_paths();
}

// The core's path counters into the host's, as they grow.
void SenderTunnel::count_paths()
{
	const struct eqds_paths_stats &s = q_.paths.stats;
	HostCounters &c = host_.counters();

	c.path_penalties += s.penalties - paths_counted_.penalties;
	c.path_repaths += s.repaths - paths_counted_.repaths;
	c.path_ignored += s.ignored - paths_counted_.ignored;
	paths_counted_ = s;
}

// tx_tunnel.c's enqueue(): tail drop at the limit (no ECN in the simulator).
bool SenderTunnel::capture(const AppData &d)
{
	const struct eqds_txq_limits lim = { host_.cfg().queue_limit, 0, 0 };

	uint32_t bytes = wire_bytes(d);

	// MARK and RED queue unmarked: the application does not react to CE.
	if (!eqds_txq_admitted(eqds_txq_admit(&q_, 0, bytes, 1, &lim, nullptr))) {
		host_.counters().drop_queue_full++;
		return false;
	}
	queue_.push_back(Queued{ d, bytes });
	eqds_txq_enqueue(&q_, 0, bytes, 1);
	pump(host_.now());
	refill();
	return true;
}

void SenderTunnel::ctrl_rcv(const struct eqds_pkt &pkt)
{
	struct eqds_tx_actions act;
	struct eqds_txq_cursor cur;
	struct eqds_txq_desc d;
	struct eqds_pkt fin;
	SimTime now = host_.now();
	u64 refused = q_.tx.credit.refused_bytes;
	u32 slot;

	std::memset(&fin, 0, sizeof(fin));
	switch (eqds_txq_ctrl(&q_, &pkt, now, &act, &cur, &fin)) {
	case EQDS_CTRL_OK:
		break;
	case EQDS_CTRL_STALE:
		host_.counters().drop_stale++;
		if (fin.type) {
			host_.counters().fins_sent++;
			host_.send_packet(peer_, fin, nullptr);
		}
		if (act.pump_now)
			pump(now);
		return;
	default:
		host_.counters().drop_ctrl++;
		return;
	}
	ledger_.gained += act.credit_gained;
	if (q_.tx.credit.refused_bytes != refused)
		host_.counters().credit_refused++;
	if (pkt.flags & EQDS_F_PULL)
		host_.counters().pulls_rcvd++;
	if (act.restart) {
		host_.counters().rsts_rcvd++;
		eqds_txq_restart(&q_, now, host_.epoch_clock(), &cur);
		while (eqds_txq_requeue_next(&q_, &cur, &slot, &d)) {
			inflight_bytes_ -= d.wire_bytes;
			queue_.push_front(Queued{ kept_[slot], d.wire_bytes });
		}
		ledger_ = CreditLedger();
		host_.counters().restarts++;
	} else {
		while (eqds_txq_acked_next(&q_, &cur, &slot))
			inflight_bytes_ -= ring_[slot].wire_bytes;
		if (act.retransmit)
			host_.counters().nacks_rcvd++;
	}
	if (act.pump_now)
		pump(now);
	audit();
	refill();
}

void SenderTunnel::on_timer()
{
	struct eqds_tx_actions act;

	eqds_txq_timer(&q_, host_.now(), &act);
	if (act.retransmit)
		host_.counters().timeouts++;
	pump(host_.now());
	refill();
}

void SenderTunnel::refill()
{
	if (filling_ || !host_.app() || queue_.size() >= host_.cfg().queue_limit)
		return;
	filling_ = true;
	host_.app()->fill(host_, *this);
	filling_ = false;
}

void SenderTunnel::audit()
{
	if (!host_.audit())
		return;
	Host *peer = host_.peer(peer_);
	ReceiverTunnel *rx = peer ? peer->find_receiver(host_.id()) : nullptr;

	host_.audit()->check(*this, rx, host_.cfg().quantum);
}

}  // namespace eqdssim
