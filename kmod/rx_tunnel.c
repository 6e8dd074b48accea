// SPDX-License-Identifier: GPL-2.0
/*
 * The receiving EQIF, per sending host and our address it sends to (one
 * sending tunnel of that host's, tunnels.c): data packets are put back in order
 * (sprayed packets arrive out of order) and re-injected into the stack; the
 * sender's pull target feeds the pull scheduler; acks tell the sender what
 * to free and what to resend.
 *
 * What this file moves: packets between the socket, a tunnel's ring of held
 * packets and the delivery lanes, and the control packets the core plans.
 * Every decision is the core's (core/rxq.h): which epoch a packet is taken
 * for (a SYN for another epoch is answered with a challenge, not taken,
 * until the sender disowns the old one, core/epoch.h), what is held and
 * released, what is acknowledged and NACKed, when the timer fires.
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
#include <linux/tcp.h>
#include <net/inet_ecn.h>
#include "eqds.h"
#include "netns.h"
#include "tunnel.h"
#include "core/seq.h"
#include "core/rxq.h"
#include "tunnels.h"
#include "pull.h"
#include "xmit.h"
#include "deliver.h"
#include "events.h"
#include "policy.h"

static u64 now_ns(void)
{
	return ktime_get_ns();
}

static void send_ctrl(struct eqds_rxt *t, u32 epoch, const struct eqds_rxq_ctrl *m)
{
	struct eqds_pkt pkt;

	if (m->flags & EQDS_F_NACK)
		trace_eqds_nack(t->en->net->ns.inum, EQDS_TUNNEL_DIR_RX, t->id, &t->peer,
				epoch, m->ack, m->sack);
	eqds_rxq_ctrl_pkt(m, epoch, &pkt);
	pkt.ctrl.busy_us = READ_ONCE(t->en->busy_us);
	if (READ_ONCE(t->ids_rewritten))
		pkt.next_proto |= EQDS_CO_SEG_NUMBERS;
	if (eqds_xmit_ctrl(t->en, &t->dst_cache, &t->local, &t->peer, &pkt) == 0)
		eqds_count(t->en, m->flags & EQDS_F_NACK ?
			   EQDS_STATS_A_NACKS_SENT : EQDS_STATS_A_ACKS_SENT);
}

static void send_acks(struct eqds_rxt *t, const struct eqds_rxq_plan *p)
{
	u8 i;

	if (p->send)
		send_ctrl(t, p->epoch, &p->ack);
	for (i = 0; i < p->nnacks; i++)
		send_ctrl(t, p->epoch, &p->nack[i]);
}

/* Tell a sender we hold no state for its epoch: it restarts. */
static void send_rst(struct eqds_net *en, const struct eqds_addr *local,
		     const struct eqds_addr *peer, u32 epoch)
{
	struct eqds_pkt pkt;

	eqds_rxq_rst_pkt(epoch, &pkt);
	if (eqds_xmit_ctrl(en, NULL, local, peer, &pkt) == 0)
		eqds_count(en, EQDS_STATS_A_RSTS_SENT);
}

/* Drop every packet held; caller holds t->lock (or t is unreachable). */
static void drop_held(struct eqds_rxt *t)
{
	u32 i;

	if (!t->held)
		return;
	for (i = 0; i < EQDS_RX_AHEAD; i++) {
		kfree_skb(t->held[i]);
		t->held[i] = NULL;
	}
}

/* Fire at when, unless the timer is due earlier already. */
static void arm_timer(struct eqds_rxt *t, u64 when)
{
	if (hrtimer_is_queued(&t->timer) &&
	    ktime_to_ns(hrtimer_get_expires(&t->timer)) <= when)
		return;
	hrtimer_start(&t->timer, ns_to_ktime(when), HRTIMER_MODE_ABS_SOFT);
}

/* Move what the core releases from the ring to out. */
static void release(struct eqds_rxt *t, u64 now, struct sk_buff_head *out,
		    struct eqds_rxq_plan *p)
{
	struct sk_buff *skb;
	u32 seq;

	lockdep_assert_held(&t->lock);
	while (eqds_rxq_release(&t->rx, &eqds_rxq_defaults, now, p, &seq)) {
		skb = t->held[eqds_rx_held_slot(seq)];
		t->held[eqds_rx_held_slot(seq)] = NULL;
		if (WARN_ON_ONCE(!skb))
			continue;
		__skb_queue_tail(out, skb);
		trace_eqds_reorder_release(t->en->net->ns.inum, t->id, &t->peer, seq,
					   p->last_skipped, t->rx.nheld);
	}
}

/*
 * Keep skb, held by the core, at its first seq's slot. The core holds one
 * packet per slot and releases each before the slot is reused (fuzz_rxq
 * checks it), so the slot is empty; should a core bug leave a packet
 * there, it is dropped and counted rather than leaked.
 */
static void keep_held(struct eqds_rxt *t, struct sk_buff *skb, u32 seq)
{
	struct sk_buff **slot = &t->held[eqds_rx_held_slot(seq)];

	lockdep_assert_held(&t->lock);
	if (WARN_ON_ONCE(*slot)) {
		t->counters.drops++;
		eqds_rx_drop(t->en, *slot, EQDS_STATS_A_DROP_WINDOW, &t->peer);
	}
	eqds_cb(skb)->seq = seq;
	*slot = skb;
}

/*
 * Our control packets to the peer skip the path ids that our data to it
 * avoids (core/paths.h, eqds_paths_next_clear()): they cross the same
 * links, and a failed one would lose our acks and pulls as it loses the
 * data. Copied at most once a jiffy, without the sending tunnel's lock:
 * the copy may be a jiffy old, or a word torn, which sends a few control
 * packets on an id just penalised or keeps one off an id just released.
 * Ids whose penalty is over but that the sending walk has not reached yet
 * stay avoided until it does. Caller holds t->lock and rcu_read_lock().
 */
void eqds_rxt_learn_paths(struct eqds_rxt *t)
{
	u32 bad[EQDS_PATHS / 32];
	struct eqds_txt *tx;
	int i;

	lockdep_assert_held(&t->lock);
	if (!time_after(jiffies, t->avoid_at))
		return;
	t->avoid_at = jiffies;
	tx = eqds_txt_lookup(t->en, &t->peer);
	if (!tx) {
		eqds_rx_avoid(&t->rx, NULL);
		return;
	}
	for (i = 0; i < EQDS_PATHS / 32; i++)
		bad[i] = READ_ONCE(tx->q.paths.bad[i]);
	eqds_rx_avoid(&t->rx, bad);
}

/*
 * The plan's effects under the lock: counters, the next path id, the
 * timer. What it sends goes after the unlock (send_acks()).
 */
static void plan_commit(struct eqds_rxt *t, const struct eqds_rxq_plan *p)
{
	u64 skipped = 0, when;

	lockdep_assert_held(&t->lock);
	when = eqds_rxq_commit(p, &t->path, &t->counters.nacks, &skipped);
	if (skipped)
		eqds_stats_add(t->en->stats, EQDS_STATS_A_REORDER_SKIPPED, skipped);
	if (when)
		arm_timer(t, when);
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

	drop_held(t);
	spin_lock(&en->sched_lock);
	eqds_sched_deactivate(&en->sched, &t->rx.asl);
	eqds_rx_init(&t->rx, epoch, cfg->window, EQDS_SCHED_TURN_QUANTA);
	eqds_policy_apply(en, t, cfg);
	spin_unlock(&en->sched_lock);
	/* The new epoch's first acks avoid what the old one's did. */
	t->avoid_at = jiffies - 1;
	eqds_rxt_learn_paths(t);
	if (restart) {
		t->counters.restarts++;
		eqds_event_tunnel(en, EQDS_CMD_TUNNEL_RESTART, EQDS_TUNNEL_DIR_RX, t->id,
				  &t->peer, epoch, -1);
	}
}

static void demand(struct eqds_rxt *t, u16 pull_target, bool probe)
{
	struct eqds_net *en = t->en;

	spin_lock(&en->sched_lock);
	if (eqds_rxq_demand(&en->sched, &t->rx, pull_target, probe))
		eqds_pacer_kick(en);
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
 * The TCP sequence number of a piece's inner packet (skb->data at its IP
 * header, which inner_ok() checked): a TCPSEQ piece is numbered by it.
 */
static bool inner_tcp_seq(struct sk_buff *skb, u8 next_proto, u32 *seq)
{
	unsigned int off;
	u8 proto;

	if (next_proto == EQDS_NP_IPV4) {
		off = ip_hdr(skb)->ihl * 4;
		proto = ip_hdr(skb)->protocol;
	} else {
		off = sizeof(struct ipv6hdr);
		proto = ipv6_hdr(skb)->nexthdr;
	}
	if (proto != IPPROTO_TCP || !pskb_may_pull(skb, off + sizeof(struct tcphdr)))
		return false;
	*seq = ntohl(((const struct tcphdr *)(skb->data + off))->seq);
	return true;
}

/*
 * A data packet (or RTS) arrived; skb->data is at the inner packet.
 * ip_id is the outer IPv4 ID (pieces of a split GSO packet count up from
 * eqds_outer_id(seq), core/wire.h), 0 for IPv6; ce: the outer header
 * arrived CE-marked. Softirq, under rcu_read_lock().
 */
void eqds_rx_data_rcv(struct eqds_net *en, struct sk_buff *skb,
		      const struct eqds_pkt *pkt, const struct eqds_addr *peer,
		      const struct eqds_addr *local, u32 ip_id, bool ce)
{
	bool syn = pkt->flags & EQDS_F_SYN;
	enum eqds_stats_attr why;
	struct eqds_rxq_plan plan;
	struct sk_buff_head out;
	struct eqds_arrival arrival = {};
	enum eqds_number_verdict numbered;
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
	arrival.npieces = nsegs;
	arrival.has_id = peer->family == AF_INET;
	arrival.id = (u16)ip_id;
	arrival.untrusted = READ_ONCE(t->ids_rewritten);
	if ((pkt->flags & EQDS_F_TCPSEQ) && nsegs < pkt->data.seg_count)
		arrival.has_tcp_seq = inner_tcp_seq(skb, pkt->next_proto, &arrival.tcp_seq);
	numbered = eqds_number(pkt, &arrival, &seq);
	if (eqds_outer_id_rewritten(numbered)) {
		eqds_count(en, EQDS_STATS_A_OUTER_ID_REWRITTEN);
		if (!READ_ONCE(t->ids_rewritten))
			WRITE_ONCE(t->ids_rewritten, true);
	}
	if (numbered != EQDS_NUM_OK && numbered != EQDS_NUM_REWRITTEN) {
		eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_SEGS, peer);
		return;
	}

	__skb_queue_head_init(&out);
	spin_lock(&t->lock);
	eqds_rxt_learn_paths(t);
	eqds_rxq_plan_init(&plan, t->path);
	if (unlikely(t->dead)) {
		spin_unlock(&t->lock);
		eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_UNKNOWN, peer);
		return;
	}
	switch (eqds_rxq_admit(&t->rx, &t->guard, pkt->epoch, syn, now, &plan)) {
	case EQDS_RXQ_TAKE:
		break;
	case EQDS_RXQ_BEGIN:
		new_epoch(t, pkt->epoch);
		eqds_rxq_begin(&t->rx, &t->guard, &plan);
		break;
	case EQDS_RXQ_RST:
		t->counters.drops++;
		spin_unlock(&t->lock);
		send_rst(en, local, peer, pkt->epoch);
		eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_UNKNOWN, peer);
		return;
	case EQDS_RXQ_STALE:
		t->counters.drops++;
		spin_unlock(&t->lock);
		eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_STALE, peer);
		return;
	case EQDS_RXQ_REFUSED:
		t->counters.drops++;
		plan_commit(t, &plan);
		spin_unlock(&t->lock);
		eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_EPOCH, peer);
		if (plan.send) {
			eqds_count(en, EQDS_STATS_A_CHALLENGES_SENT);
			send_acks(t, &plan);
		}
		return;
	}
	t->last_used = jiffies;
	demand(t, pkt->data.pull_target, pkt->flags & EQDS_F_RTS);

	if (!nsegs) {
		consume_skb(skb);	/* RTS: demand only */
	} else {
		/*
		 * The ring is allocated by the first packet that may be held
		 * (ahead of a hole, within the window). A tunnel whose packets
		 * come in order, or as duplicates, late or beyond the window
		 * (a spoofed SYN's, mostly), has none, and such packets are
		 * answered even when memory is short. One page on 4 KiB-page
		 * machines, no high-order atomic allocation.
		 */
		if (unlikely(!t->held) && eqds_rxq_may_hold(&t->rx, seq, nsegs)) {
			t->held = kcalloc(EQDS_RX_AHEAD, sizeof(*t->held), GFP_ATOMIC);
			if (!t->held) {
				t->counters.drops++;
				plan_commit(t, &plan);
				spin_unlock(&t->lock);
				eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_NOMEM, peer);
				send_acks(t, &plan);
				return;
			}
		}
		/*
		 * Under the tunnel's lock, as the acks and PULLs that take the
		 * echo. path_choice off: peers may run a version that refuses it.
		 */
		if (ce && READ_ONCE(eqds_path_choice))
			eqds_rx_ce(&t->rx, pkt->path_id);
		eqds_deliver_park(skb);
		switch (eqds_rxq_data(&t->rx, seq, nsegs, pkt->flags & EQDS_F_RTX,
				      now, &plan)) {
		case EQDS_RX_DELIVER:
			__skb_queue_tail(&out, skb);
			break;
		case EQDS_RX_LATE:
			eqds_count(en, EQDS_STATS_A_REORDER_LATE);
			__skb_queue_tail(&out, skb);
			break;
		case EQDS_RX_HOLD:
			eqds_count(en, EQDS_STATS_A_REORDER_HELD);
			keep_held(t, skb, seq);
			break;
		case EQDS_RX_DUP:
			t->counters.drops++;
			eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_DUP, peer);
			break;
		default:
			t->counters.drops++;
			eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_WINDOW, peer);
			break;
		}
		release(t, now, &out, &plan);
		eqds_rxq_done(&t->rx, &eqds_rxq_defaults, now, false, &plan);
	}
	plan_commit(t, &plan);
	eqds_tunnel_count_list(&t->counters, &out);
	eqds_deliver_list(en, &out);
	spin_unlock(&t->lock);

	send_acks(t, &plan);
}

static enum hrtimer_restart rxt_timer(struct hrtimer *timer)
{
	struct eqds_rxt *t = container_of(timer, struct eqds_rxt, timer);
	struct eqds_rxq_plan plan;
	struct sk_buff_head out;
	u64 now;

	__skb_queue_head_init(&out);
	rcu_read_lock();
	spin_lock_bh(&t->lock);
	/*
	 * Read under the lock: an arrival that held it meanwhile may have
	 * moved the hole's wait to a later time, and a time before that
	 * releases nothing and re-arms for a deadline already past.
	 */
	now = now_ns();
	eqds_rxt_learn_paths(t);
	eqds_rxq_plan_init(&plan, t->path);
	if (!t->dead) {
		release(t, now, &out, &plan);
		eqds_rxq_done(&t->rx, &eqds_rxq_defaults, now, true, &plan);
		plan_commit(t, &plan);
	}
	eqds_tunnel_count_list(&t->counters, &out);
	eqds_deliver_list(t->en, &out);
	spin_unlock_bh(&t->lock);
	send_acks(t, &plan);
	rcu_read_unlock();
	return HRTIMER_NORESTART;
}

void eqds_rxt_setup(struct eqds_rxt *t, const struct eqds_config *cfg)
{
	spin_lock_init(&t->lock);
	hrtimer_init(&t->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	t->timer.function = rxt_timer;
	t->last_used = jiffies;
	t->avoid_at = jiffies - 1;	/* the first control packet copies */
	/* Epoch 0: no sender epoch yet; the first SYN sets it. */
	eqds_rx_init(&t->rx, 0, cfg->window, EQDS_SCHED_TURN_QUANTA);
	/* Not on the list yet: no sched_lock needed. */
	eqds_policy_apply(t->en, t, cfg);
	eqds_epoch_guard_init(&t->guard);
}

/* t is dead and its timer cancelled: nothing reaches the ring any more. */
void eqds_rxt_purge(struct eqds_rxt *t)
{
	drop_held(t);
	kfree(t->held);
	t->held = NULL;
}

bool eqds_rxt_idle(struct eqds_rxt *t, unsigned long timeout)
{
	return !t->rx.nheld && time_after(jiffies, t->last_used + timeout);
}
