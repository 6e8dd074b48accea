// SPDX-License-Identifier: GPL-2.0
/*
 * The receiving EQIF, per sending host and our address it sends to (one
 * sending tunnel of that host's, tunnels.c): data packets are put back in order
 * (sprayed packets arrive out of order) and re-injected into the stack; the
 * sender's pull target feeds the pull scheduler; acks tell the sender what
 * to free and what to resend.
 *
 * Which epoch of its sender a tunnel follows, and who may replace it, is
 * the core's decision (core/epoch.h): a SYN for another epoch is answered
 * with a challenge, not taken, until the sender disowns the old epoch.
 *
 * Contexts: packet receive (softirq) and the tunnel's release timer
 * (softirq) take t->lock; the pull scheduler's state needs en->sched_lock,
 * taken inside t->lock. What a tunnel releases is handed to its flows'
 * delivery lanes under t->lock, so two CPUs releasing in turn cannot swap
 * their batches; the lanes' NAPI polls take them up the stack later.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <net/inet_ecn.h>
#include "eqds.h"
#include "netns.h"
#include "tunnel.h"
#include "core/seq.h"
#include "tunnels.h"
#include "pull.h"
#include "xmit.h"
#include "deliver.h"
#include "events.h"
#include "policy.h"

/*
 * How long a hole may hold back the packets after it: longer than the delay
 * skew between paths (plus timer jitter), or spraying shows TCP reordering,
 * and long enough for a hole NACKed halfway (eqds_rx_nack_after) to be
 * resent, or TCP sees the loss.
 */
#define EQDS_REORDER_TIMEOUT_NS	(16 * NSEC_PER_MSEC)
/* Acknowledge at least every this many data packets, */
#define EQDS_ACK_EVERY		16
/* and no later than this after one, so the tail of a burst is freed. */
#define EQDS_ACK_DELAY_NS	(1 * NSEC_PER_MSEC)

static u64 now_ns(void)
{
	return ktime_get_ns();
}

/* NACKs one arrival or timer expiry may send; the rest wait for the next. */
#define EQDS_NACK_BURST	8

/* A control packet sent after the lock is dropped. */
struct ctrl_msg {
	u8 flags;
	u8 path;
	u32 ack;
	u64 sack;
};

/*
 * What to send once the lock is dropped: an acknowledgment (send; it may
 * carry the first NACK) and NACKs of further holes, which acknowledge
 * nothing.
 */
struct ack_plan {
	bool send;
	u8 nnacks;
	u32 epoch;
	struct ctrl_msg ack;
	struct ctrl_msg nack[EQDS_NACK_BURST];
};

static void plan(struct eqds_rxt *t, struct ack_plan *a, u8 extra, u32 ack,
		 u64 sack)
{
	a->send = true;
	a->epoch = t->rx.epoch;
	a->ack.flags = EQDS_F_SYN | EQDS_F_ACK | extra | (sack ? EQDS_F_SACK : 0);
	a->ack.ack = ack;
	a->ack.sack = sack;
	a->ack.path = t->path++;
	t->rx.since_ack = 0;
	if (extra & EQDS_F_NACK) {
		t->counters.nacks++;
		trace_eqds_nack(t->en->net->ns.inum, EQDS_TUNNEL_DIR_RX, t->id, &t->peer,
				t->rx.epoch, ack, sack);
	}
}

static void plan_ack(struct eqds_rxt *t, struct ack_plan *a)
{
	plan(t, a, 0, t->rx.rcv_nxt, eqds_rx_sack(&t->rx));
}

/* A hole beyond rcv_nxt: a NACK that acknowledges nothing. */
static void plan_nack(struct eqds_rxt *t, struct ack_plan *a, u32 seq, u64 sack)
{
	struct ctrl_msg *m = &a->nack[a->nnacks++];

	a->epoch = t->rx.epoch;
	m->flags = EQDS_F_NACK | (sack ? EQDS_F_SACK : 0);
	m->ack = seq;
	m->sack = sack;
	m->path = t->path++;
	t->counters.nacks++;
	trace_eqds_nack(t->en->net->ns.inum, EQDS_TUNNEL_DIR_RX, t->id, &t->peer,
			t->rx.epoch, seq, sack);
}

static void send_ctrl(struct eqds_rxt *t, u32 epoch, const struct ctrl_msg *m)
{
	struct eqds_pkt pkt = {};

	pkt.type = EQDS_TYPE_CTRL;
	pkt.hlen = EQDS_CTRL_HLEN;
	pkt.flags = m->flags;
	pkt.epoch = epoch;
	pkt.path_id = m->path;
	pkt.ctrl.ack = m->ack;
	pkt.ctrl.sack = m->sack;
	pkt.ctrl.busy_us = READ_ONCE(t->en->busy_us);
	if (READ_ONCE(t->ids_rewritten))
		pkt.next_proto = EQDS_CO_SEG_NUMBERS;
	if (eqds_xmit_ctrl(t->en, &t->local, &t->peer, &pkt) == 0)
		eqds_count(t->en, m->flags & EQDS_F_NACK ?
			   EQDS_STATS_A_NACKS_SENT : EQDS_STATS_A_ACKS_SENT);
}

static void send_acks(struct eqds_rxt *t, const struct ack_plan *a)
{
	u8 i;

	if (a->send)
		send_ctrl(t, a->epoch, &a->ack);
	for (i = 0; i < a->nnacks; i++)
		send_ctrl(t, a->epoch, &a->nack[i]);
}

/* Tell a sender we hold no state for its epoch: it restarts. */
static void send_rst(struct eqds_net *en, const struct eqds_addr *local,
		     const struct eqds_addr *peer, u32 epoch)
{
	struct eqds_pkt pkt = {};

	pkt.type = EQDS_TYPE_CTRL;
	pkt.hlen = EQDS_CTRL_HLEN;
	pkt.flags = EQDS_F_RST;
	pkt.epoch = epoch;
	if (eqds_xmit_ctrl(en, local, peer, &pkt) == 0)
		eqds_count(en, EQDS_STATS_A_RSTS_SENT);
}

static void hold(struct eqds_rxt *t, struct sk_buff *skb, u32 seq)
{
	struct sk_buff *pos;

	eqds_cb(skb)->seq = seq;
	/* Sorted by seq; arrivals are mostly newest, so search from the tail. */
	skb_queue_reverse_walk(&t->held, pos) {
		if (eqds_seq_before(eqds_cb(pos)->seq, seq)) {
			__skb_queue_after(&t->held, pos, skb);
			return;
		}
	}
	__skb_queue_head(&t->held, skb);
}

/* Fire at when, unless the timer is due earlier already. */
static void arm_timer(struct eqds_rxt *t, u64 when)
{
	if (hrtimer_is_queued(&t->timer) &&
	    ktime_to_ns(hrtimer_get_expires(&t->timer)) <= when)
		return;
	hrtimer_start(&t->timer, ns_to_ktime(when), HRTIMER_MODE_ABS_SOFT);
}

/*
 * Move what the reorder state releases to out. A hole that has waited
 * longer than holes take to fill is NACKed while the packets after it are
 * still held; one given up on is NACKed too (the sender resends it, it is
 * delivered late).
 */
static void release(struct eqds_rxt *t, u64 now, struct sk_buff_head *out,
		    struct ack_plan *ack)
{
	u64 skipped = t->rx.stats.skipped, before, sack, when, nack_when;
	bool nack = false;
	u32 first_missing = 0, from, seq;
	struct sk_buff *skb;

	for (;;) {
		from = t->rx.rcv_nxt;
		before = t->rx.stats.skipped;
		if (!eqds_rx_release(&t->rx, now, EQDS_REORDER_TIMEOUT_NS, &seq))
			break;
		/* A release that skipped a hole started at the old rcv_nxt. */
		if (t->rx.stats.skipped != before && !nack) {
			nack = true;
			first_missing = from;
		}
		skb = __skb_dequeue(&t->held);
		if (WARN_ON_ONCE(!skb))
			break;
		__skb_queue_tail(out, skb);
		trace_eqds_reorder_release(t->en->net->ns.inum, t->id, &t->peer, seq,
					   t->rx.stats.skipped - before, t->rx.nheld);
	}
	if (t->rx.stats.skipped != skipped)
		eqds_stats_add(t->en->stats, EQDS_STATS_A_REORDER_SKIPPED,
			       t->rx.stats.skipped - skipped);
	if (nack)
		plan(t, ack, EQDS_F_NACK, first_missing, 0);
	while (ack->nnacks < EQDS_NACK_BURST &&
	       eqds_rx_nack(&t->rx, now, EQDS_REORDER_TIMEOUT_NS, &seq, &sack)) {
		/* The hole at rcv_nxt: the acknowledgment names it. */
		if (seq == t->rx.rcv_nxt && !nack)
			plan(t, ack, EQDS_F_NACK, seq, sack);
		else
			plan_nack(t, ack, seq, sack);
	}
	if (t->rx.nheld) {
		when = eqds_rx_deadline(&t->rx, EQDS_REORDER_TIMEOUT_NS);
		nack_when = eqds_rx_nack_deadline(&t->rx, EQDS_REORDER_TIMEOUT_NS);
		arm_timer(t, nack_when ? min(when, nack_when) : when);
	}
}

/*
 * A new epoch from the sender, or the old one disowned: everything held
 * belongs to the old one, and no more pulls go to it.
 */
static void new_epoch(struct eqds_rxt *t, u32 epoch)
{
	struct eqds_net *en = t->en;
	const struct eqds_config *cfg = rcu_dereference(en->config);
	bool restart = t->rx.epoch;	/* 0: the tunnel's first epoch */

	__skb_queue_purge(&t->held);
	spin_lock(&en->sched_lock);
	eqds_sched_deactivate(&en->sched, &t->rx.asl);
	eqds_rx_init(&t->rx, epoch, cfg->window, EQDS_SCHED_MAX_QUANTA);
	eqds_policy_apply(en, t, cfg);
	spin_unlock(&en->sched_lock);
	if (restart) {
		t->counters.restarts++;
		eqds_event_tunnel(en, EQDS_CMD_TUNNEL_RESTART, EQDS_TUNNEL_DIR_RX, t->id,
				  &t->peer, epoch, -1);
	}
}

static void demand(struct eqds_rxt *t, u16 pull_target)
{
	struct eqds_net *en = t->en;
	u32 want;

	spin_lock(&en->sched_lock);
	eqds_pullgen_demand(&t->rx.pulls, pull_target);
	want = eqds_pullgen_outstanding(&t->rx.pulls);
	eqds_sched_set_backlog(&en->sched, &t->rx.asl, want);
	if (want) {
		eqds_sched_activate(&en->sched, &t->rx.asl);
		eqds_pacer_kick(en);
	}
	spin_unlock(&en->sched_lock);
}

/* Inner packet sanity before the stack sees it; its own checks follow. */
static bool inner_ok(struct sk_buff *skb, u8 next_proto)
{
	if (next_proto == EQDS_NP_IPV4)
		return pskb_may_pull(skb, sizeof(struct iphdr)) &&
		       ip_hdr(skb)->version == 4 && ip_hdr(skb)->ihl >= 5;
	return pskb_may_pull(skb, sizeof(struct ipv6hdr)) &&
	       ipv6_hdr(skb)->version == 6;
}

/*
 * A FIN: the sender disowns an epoch it has left (core/epoch.h). If it is
 * the one this tunnel follows, stop pulling for it and drop what it holds;
 * the next SYN begins a new epoch at once. Anything else is stale, and
 * draws no RST: the sender is not in that epoch either.
 */
static void fin_rcv(struct eqds_net *en, struct sk_buff *skb,
		    const struct eqds_pkt *pkt, const struct eqds_addr *peer,
		    const struct eqds_addr *local)
{
	struct eqds_rxt *t = eqds_rxt_lookup(en, peer, local);
	bool disowned = false;

	if (t) {
		spin_lock(&t->lock);
		if (!t->dead && eqds_epoch_fin(&t->guard, t->rx.epoch, pkt->epoch)) {
			new_epoch(t, t->rx.epoch);
			disowned = true;
		}
		spin_unlock(&t->lock);
	}
	if (!disowned) {
		eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_STALE, peer);
		return;
	}
	eqds_count(en, EQDS_STATS_A_FINS_RCVD);
	consume_skb(skb);
}

/*
 * A data packet (or RTS) arrived; skb->data is at the inner packet.
 * ip_id is the outer IPv4 ID (pieces of a split GSO packet count up from
 * eqds_outer_id(seq), core/wire.h), 0 for IPv6. Softirq, under
 * rcu_read_lock().
 */
void eqds_rx_data_rcv(struct eqds_net *en, struct sk_buff *skb,
		      const struct eqds_pkt *pkt, const struct eqds_addr *peer,
		      const struct eqds_addr *local, u32 ip_id)
{
	bool syn = pkt->flags & EQDS_F_SYN;
	enum eqds_stats_attr why;
	struct ack_plan ack = {};
	struct sk_buff_head out;
	enum eqds_outer_id_verdict numbered;
	struct eqds_rxt *t;
	u32 seq, nsegs = 0;
	u64 now = now_ns();

	eqds_test_inject_rx(skb);
	if (pkt->flags & EQDS_F_FIN) {
		fin_rcv(en, skb, pkt, peer, local);
		return;
	}
	/* A SYN whose tunnel cannot be made for another reason: the limit's. */
	why = syn ? EQDS_STATS_A_DROP_TUNNEL_LIMIT : EQDS_STATS_A_DROP_UNKNOWN;
	t = syn ? eqds_rxt_get(en, peer, local, &why) : eqds_rxt_lookup(en, peer, local);
	if (!t) {
		if (!syn)
			send_rst(en, local, peer, pkt->epoch);
		eqds_rx_drop(en, skb, why, peer);
		return;
	}
	if (pkt->next_proto != EQDS_NP_NONE) {
		if (!inner_ok(skb, pkt->next_proto)) {
			eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_INNER, peer);
			return;
		}
		nsegs = skb_is_gso(skb) ? (skb_shinfo(skb)->gso_segs ?: 1) : 1;
	}
	/* A range from GRO or an unsplit GSO packet: pieces of one packet. */
	numbered = eqds_outer_id_number(pkt, nsegs, peer->family == AF_INET, (u16)ip_id,
					READ_ONCE(t->ids_rewritten), &seq);
	if (eqds_outer_id_rewritten(numbered)) {
		eqds_count(en, EQDS_STATS_A_OUTER_ID_REWRITTEN);
		if (!READ_ONCE(t->ids_rewritten))
			WRITE_ONCE(t->ids_rewritten, true);
	}
	if (numbered != EQDS_OID_OK && numbered != EQDS_OID_REWRITTEN) {
		eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_SEGS, peer);
		return;
	}

	__skb_queue_head_init(&out);
	spin_lock(&t->lock);
	if (unlikely(t->dead)) {
		spin_unlock(&t->lock);
		eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_UNKNOWN, peer);
		return;
	}
	switch (eqds_epoch_data(&t->guard, t->rx.epoch, pkt->epoch, syn, now)) {
	case EQDS_EPOCH_CURRENT:
		break;
	case EQDS_EPOCH_BEGIN:
		new_epoch(t, pkt->epoch);
		eqds_epoch_guard_init(&t->guard);
		plan_ack(t, &ack);
		break;
	case EQDS_EPOCH_UNKNOWN:
		t->counters.drops++;
		spin_unlock(&t->lock);
		send_rst(en, local, peer, pkt->epoch);
		eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_UNKNOWN, peer);
		return;
	case EQDS_EPOCH_DISOWNED:
		t->counters.drops++;
		spin_unlock(&t->lock);
		eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_STALE, peer);
		return;
	case EQDS_EPOCH_CHALLENGE:
		/* An ack for our epoch: only its real sender can act on it. */
		plan_ack(t, &ack);
		fallthrough;
	case EQDS_EPOCH_REFUSED:
		t->counters.drops++;
		spin_unlock(&t->lock);
		eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_EPOCH, peer);
		if (ack.send) {
			eqds_count(en, EQDS_STATS_A_CHALLENGES_SENT);
			send_acks(t, &ack);
		}
		return;
	}
	t->last_used = jiffies;
	demand(t, pkt->data.pull_target);

	if (!nsegs) {
		consume_skb(skb);	/* RTS: demand only */
	} else {
		eqds_deliver_park(skb);
		switch (eqds_rx_packet(&t->rx, seq, nsegs,
				       pkt->flags & EQDS_F_RTX, now)) {
		case EQDS_RX_DELIVER:
			__skb_queue_tail(&out, skb);
			break;
		case EQDS_RX_LATE:
			eqds_count(en, EQDS_STATS_A_REORDER_LATE);
			__skb_queue_tail(&out, skb);
			break;
		case EQDS_RX_HOLD:
			eqds_count(en, EQDS_STATS_A_REORDER_HELD);
			hold(t, skb, seq);
			break;
		case EQDS_RX_DUP:
			t->counters.drops++;
			eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_DUP, peer);
			plan_ack(t, &ack);
			break;
		default:
			t->counters.drops++;
			eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_WINDOW, peer);
			break;
		}
		release(t, now, &out, &ack);
		if (!ack.send && t->rx.since_ack >= EQDS_ACK_EVERY)
			plan_ack(t, &ack);
		else if (!ack.send && t->rx.since_ack)
			arm_timer(t, now + EQDS_ACK_DELAY_NS);
	}
	eqds_tunnel_count_list(&t->counters, &out);
	eqds_deliver_list(en, &out);
	spin_unlock(&t->lock);

	send_acks(t, &ack);
}

static enum hrtimer_restart rxt_timer(struct hrtimer *timer)
{
	struct eqds_rxt *t = container_of(timer, struct eqds_rxt, timer);
	struct ack_plan ack = {};
	struct sk_buff_head out;

	__skb_queue_head_init(&out);
	rcu_read_lock();
	spin_lock_bh(&t->lock);
	if (!t->dead)
		release(t, now_ns(), &out, &ack);
	if (!ack.send && !t->dead && t->rx.since_ack)
		plan_ack(t, &ack);
	eqds_tunnel_count_list(&t->counters, &out);
	eqds_deliver_list(t->en, &out);
	spin_unlock_bh(&t->lock);
	send_acks(t, &ack);
	rcu_read_unlock();
	return HRTIMER_NORESTART;
}

void eqds_rxt_setup(struct eqds_rxt *t, const struct eqds_config *cfg)
{
	spin_lock_init(&t->lock);
	skb_queue_head_init(&t->held);
	hrtimer_init(&t->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	t->timer.function = rxt_timer;
	t->last_used = jiffies;
	/* Epoch 0: no sender epoch yet; the first SYN sets it. */
	eqds_rx_init(&t->rx, 0, cfg->window, EQDS_SCHED_MAX_QUANTA);
	/* Not on the list yet: no sched_lock needed. */
	eqds_policy_apply(t->en, t, cfg);
	eqds_epoch_guard_init(&t->guard);
}

void eqds_rxt_purge(struct eqds_rxt *t)
{
	__skb_queue_purge(&t->held);
}

bool eqds_rxt_idle(struct eqds_rxt *t, unsigned long timeout)
{
	return !skb_queue_len(&t->held) && time_after(jiffies, t->last_used + timeout);
}
