// SPDX-License-Identifier: GPL-2.0
// Mirrors kmod/tx_tunnel.c; see the header.
#include "eqds_sender.h"

#include <cstring>

#include "ctrl_check.h"
#include "host.h"
#include "seq.h"

namespace eqdssim {

namespace {
// Bytes a data packet puts on the wire: tx_tunnel.c's wire_bytes() for an
// unsegmented packet, inner length plus eqds_overhead(AF_INET).
uint32_t wire_bytes(const AppData &d)
{
	return d.inner_bytes + kOuterIpUdpBytes + EQDS_DATA_HLEN;
}

// A new tunnel takes the clock as its epoch (tx_tunnel.c's first_epoch()).
uint32_t first_epoch(uint32_t clock)
{
	return clock ? clock : 1;
}
}  // namespace

SenderTunnel::SenderTunnel(Host &host, uint32_t peer)
	: host_(host), peer_(peer), timer_(host.events(), [this] { on_timer(); })
{
	const EqdsConfig &cfg = host.cfg();

	for (Sent &s : inflight_)
		s = Sent{ AppData(), 0, 0, 0, false };
	path_ = (uint8_t)host.rng()();
	eqds_tx_init(&tx_, first_epoch(host.epoch_clock()), cfg.window_pkts * cfg.quantum_guess,
		     cfg.quantum_guess, cfg.burst_mode, (u32)cfg.rto_min, host.now());
	ledger_.initial = tx_.credit.credit;
	rts_due_ = !cfg.burst_mode;
}

bool SenderTunnel::idle() const
{
	return queue_.empty() && !nrtx_ && !eqds_tx_inflight(&tx_);
}

void SenderTunnel::arm_timer()
{
	u64 when = eqds_tx_deadline(&tx_, queued_bytes_);

	if (!when)
		return;
	if (timer_.queued() && timer_.expires() <= when)
		return;
	timer_.start(when);
}

void SenderTunnel::send_data(const AppData *app, uint32_t seq, uint32_t nsegs, uint8_t flags,
			     SimTime now)
{
	struct eqds_pkt hdr;

	std::memset(&hdr, 0, sizeof(hdr));
	hdr.type = EQDS_TYPE_DATA;
	hdr.flags = flags;
	hdr.path_id = path_++;
	hdr.epoch = tx_.epoch;
	hdr.hlen = EQDS_DATA_HLEN;
	hdr.data.seq = seq;
	hdr.data.pull_target = eqds_tx_pull_target(&tx_, queued_bytes_, now);
	hdr.data.seg_count = (u16)nsegs;
	if (app) {
		hdr.next_proto = EQDS_NP_IPV4;
		hdr.payload_len = app->inner_bytes;
		host_.counters().tx_data++;
	} else {
		hdr.next_proto = EQDS_NP_NONE;
	}
	host_.send_packet(peer_, hdr, app);
}

const SenderTunnel::Sent *SenderTunnel::inflight_find(uint32_t seq) const
{
	const Sent &s = inflight_[eqds_tx_slot(seq)];

	return s.used && s.seq == seq ? &s : nullptr;
}

// tx_tunnel.c's pump(): retransmissions first, then new packets in order,
// then an RTS if one is due and nothing else could go.
void SenderTunnel::pump(SimTime now)
{
	bool sent_any = false;
	u32 seq;

	while (nrtx_) {
		const Sent *s = inflight_find(rtx_[0]);

		if (s) {
			if (!eqds_tx_send(&tx_, s->wire_bytes, s->nsegs, true, now, &seq))
				break;
			ledger_.charged += eqds_tx_cost(&tx_, s->wire_bytes, s->nsegs);
			send_data(&s->app, s->seq, s->nsegs, eqds_tx_data_flags(&tx_) | EQDS_F_RTX,
				  now);
			host_.counters().retransmits++;
			sent_any = true;
		}
		std::memmove(rtx_, rtx_ + 1, --nrtx_ * sizeof(rtx_[0]));
	}

	while (!queue_.empty()) {
		Queued q = queue_.front();

		if (!eqds_tx_send(&tx_, q.wire_bytes, 1, false, now, &seq)) {
			// Credit in hand but every sequence slot in flight.
			if (tx_.credit.credit >= eqds_tx_cost(&tx_, q.wire_bytes, 1))
				host_.counters().ring_full++;
			break;
		}
		queue_.pop_front();
		queued_bytes_ -= q.wire_bytes;
		ledger_.charged += eqds_tx_cost(&tx_, q.wire_bytes, 1);
		Sent &slot = inflight_[eqds_tx_slot(seq)];

		if (slot.used)
			inflight_bytes_ -= slot.wire_bytes;	// overwritten: the glue frees it
		slot = Sent{ q.app, seq, 1, q.wire_bytes, true };
		inflight_bytes_ += q.wire_bytes;
		send_data(&q.app, seq, 1, eqds_tx_data_flags(&tx_), now);
		sent_any = true;
	}

	if (rts_due_ && queued_bytes_ && !sent_any) {
		send_data(nullptr, tx_.snd_nxt, 0, EQDS_F_RTS | eqds_tx_data_flags(&tx_), now);
		host_.counters().rts_sent++;
	}
	rts_due_ = false;
	arm_timer();
}

// tx_tunnel.c's admit() and enqueue(): tail drop at the limit.
bool SenderTunnel::capture(const AppData &d)
{
	if (queue_.size() >= host_.cfg().queue_limit) {
		host_.counters().drop_queue_full++;
		return false;
	}
	queue_.push_back(Queued{ d, wire_bytes(d) });
	queued_bytes_ += queue_.back().wire_bytes;
	pump(host_.now());
	refill();
	return true;
}

void SenderTunnel::restart(SimTime now)
{
	u32 seq = tx_.snd_nxt;

	while (seq != tx_.snd_una) {
		seq--;
		Sent &s = inflight_[eqds_tx_slot(seq)];

		if (!s.used || s.seq != seq)
			continue;
		s.used = false;
		inflight_bytes_ -= s.wire_bytes;
		queue_.push_front(Queued{ s.app, s.wire_bytes });
		queued_bytes_ += s.wire_bytes;
	}
	nrtx_ = 0;
	eqds_tx_restart(&tx_, now, host_.epoch_clock());
	ledger_ = CreditLedger();
	rts_due_ = true;
	host_.counters().restarts++;
}

// tx_tunnel.c's free_acked(): the ack moved from una to acked_to; the core
// says which sent packets are wholly acknowledged. Every packet here holds
// one seq (GSO is not modelled), so none starts before una.
void SenderTunnel::free_acked(uint32_t una, uint32_t acked_to)
{
	for (uint32_t seq = una; seq != acked_to; seq++) {
		Sent &s = inflight_[eqds_tx_slot(seq)];

		if (s.used && s.seq == seq && eqds_tx_acked(&tx_, s.seq, s.nsegs)) {
			s.used = false;
			inflight_bytes_ -= s.wire_bytes;
		}
	}
}

void SenderTunnel::add_rtx(uint32_t seq)
{
	for (uint32_t i = 0; i < nrtx_; i++)
		if (rtx_[i] == seq)
			return;
	if (nrtx_ < host_.cfg().rtx_max && nrtx_ < sizeof(rtx_) / sizeof(rtx_[0]))
		rtx_[nrtx_++] = seq;
}

// The other holes a NACK's SACK bitmap shows (tx_tunnel.c's add_nack_holes).
void SenderTunnel::add_nack_holes(const struct eqds_tx_actions &act)
{
	u32 seq = act.retransmit_seq + 1, end = seq + 64;

	if (!act.nack_sack)
		return;
	for (; seq != end && eqds_seq_before(seq, tx_.snd_nxt); seq++)
		if (inflight_find(seq) && eqds_tx_nack_hole(&act, seq))
			add_rtx(seq);
}

void SenderTunnel::ctrl_rcv(const struct eqds_pkt &pkt)
{
	struct eqds_tx_actions act;
	SimTime now = host_.now();
	u32 una = tx_.snd_una;
	u64 refused = tx_.credit.refused_bytes;

	// A control packet that must not touch the tunnel (core/ctrl_check.h).
	switch (eqds_tx_ctrl_verdict(&tx_, &pkt)) {
	case EQDS_CTRL_OK:
		break;
	case EQDS_CTRL_STALE: {
		// An ack for an epoch we left: disown it, so the receiver takes
		// our new one (core/epoch.h), and ask for credit again now.
		struct eqds_pkt fin;

		std::memset(&fin, 0, sizeof(fin));
		host_.counters().drop_stale++;
		if (eqds_epoch_answer(&disown_rl_, &tx_, &pkt, now, &fin)) {
			host_.counters().fins_sent++;
			host_.send_packet(peer_, fin, nullptr);
			rts_due_ = true;
			pump(now);
		}
		return;
	}
	default:
		host_.counters().drop_ctrl++;
		return;
	}
	eqds_tx_ctrl(&tx_, &pkt, now, &act);
	ledger_.gained += act.credit_gained;
	if (tx_.credit.refused_bytes != refused)
		host_.counters().credit_refused++;
	if (pkt.flags & EQDS_F_PULL)
		host_.counters().pulls_rcvd++;
	if (act.restart) {
		host_.counters().rsts_rcvd++;
		restart(now);
	} else {
		if (act.acked)
			free_acked(una, act.acked_to);
		if (act.retransmit) {
			host_.counters().nacks_rcvd++;
			add_rtx(act.retransmit_seq);
			add_nack_holes(act);
		}
	}
	pump(now);
	audit();
	refill();
}

void SenderTunnel::on_timer()
{
	struct eqds_tx_actions act;
	SimTime now = host_.now();

	eqds_tx_timer(&tx_, now, queued_bytes_, &act);
	if (act.retransmit) {
		host_.counters().timeouts++;
		add_rtx(act.retransmit_seq);
	}
	if (act.send_rts)
		rts_due_ = true;
	pump(now);
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
