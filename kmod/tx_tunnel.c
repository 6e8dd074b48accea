// SPDX-License-Identifier: GPL-2.0
/*
 * The sending EQIF: one queue per destination host. Captured packets wait
 * here until the destination grants credit, leave numbered and sprayed, and
 * stay (as clones) until acknowledged, for retransmission.
 *
 * Contexts: capture (process or softirq), control packet receive (softirq),
 * the tunnel's timer (softirq). All take t->lock with BHs off, ask the
 * queue's model (core/txq.h) what to do, move the sk_buffs as it says, and
 * send after dropping the lock.
 *
 * EQIF classes: each tunnel holds one queue per class (config.h). Capture
 * picks the class from the packet's skb->priority or skb->mark (which
 * SO_PRIORITY, IP_TOS, nftables or iptables set before our hook; tc runs
 * after it); the core admits it against the class's own limit and ECN
 * thresholds, and its pump serves the low-latency class first. Encapsulated packets
 * carry their class's tc priority in skb->priority, so a classful qdisc on
 * the uplink shares the link among classes (Documentation/eqds.rst).
 *
 * Every queued byte is also counted in en->queued_bytes, one atomic per
 * namespace, against the namespace's limit (queued_limit_kb): a host with
 * thousands of destinations cannot queue 100 packets for each. And in
 * eqds_host_queued_bytes, against the host's limit over all namespaces
 * (module parameter host_queued_limit_kb), which a namespace cannot change:
 * queued packets are orphaned, so no socket or memory cgroup of the
 * container that sent them is charged for them.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <linux/random.h>
#include <net/inet_ecn.h>
#include "compat.h"
#include "eqds.h"
#include "netns.h"
#include "tunnel.h"
#include "core/seq.h"
#include "tunnels.h"
#include "xmit.h"
#include "pull.h"
#include "core/ctrl_check.h"
#include "events.h"

static atomic64_t eqds_host_queued_bytes = ATOMIC64_INIT(0);

static u64 now_ns(void)
{
	return ktime_get_ns();
}

/* Wall time in microseconds: epochs of later incarnations compare later. */
static u32 epoch_clock(void)
{
	return (u32)div_u64(ktime_get_real_ns(), NSEC_PER_USEC);
}

/* Bytes this packet will put on the wire once encapsulated (and split). */
static u32 wire_bytes(struct sk_buff *skb, u16 family, u32 nsegs)
{
	u32 hdr = 0;

	if (nsegs > 1) {
		hdr = skb_transport_offset(skb);
		hdr += (skb_shinfo(skb)->gso_type & (SKB_GSO_TCPV4 | SKB_GSO_TCPV6)) ?
			tcp_hdrlen(skb) : sizeof(struct udphdr);
	}
	return eqds_txq_wire_bytes(skb->len, hdr, nsegs,
				   eqds_overhead(family, eqds_tcp_gso(skb)));
}

static u32 gso_nsegs(struct sk_buff *skb)
{
	if (!skb_is_gso(skb))
		return 1;
	return skb_shinfo(skb)->gso_segs ?:
	       DIV_ROUND_UP(skb->len - skb_transport_offset(skb), skb_shinfo(skb)->gso_size);
}

static void arm_timer(struct eqds_txt *t, u64 when)
{
	if (!when || t->dead)
		return;
	if (hrtimer_is_queued(&t->timer) &&
	    ktime_to_ns(hrtimer_get_expires(&t->timer)) <= when)
		return;
	hrtimer_start(&t->timer, ns_to_ktime(when), HRTIMER_MODE_ABS_SOFT);
}

/* Every change of the queued bytes, also in the namespace's and the host's totals. */
static void queued_total_add(struct eqds_txt *t, s64 bytes)
{
	atomic64_add(bytes, &t->en->queued_bytes);
	atomic64_add(bytes, &eqds_host_queued_bytes);
}

/*
 * A bigger ring of kept packets, the core's slots and our copies moved
 * together. False if the memory is not there. Caller holds t->lock.
 */
static bool inflight_grow(struct eqds_txt *t, u32 size)
{
	struct eqds_txq_desc *meta, *old = t->q.ring;
	struct sk_buff **ring;

	lockdep_assert_held(&t->lock);
	meta = kcalloc(size, sizeof(*meta), GFP_ATOMIC);
	ring = kcalloc(size, sizeof(*ring), GFP_ATOMIC);
	if (!meta || !ring) {
		kfree(meta);
		kfree(ring);
		return false;
	}
	eqds_txq_ring_move(&t->q, meta, size, (void **)t->inflight, (void **)ring);
	kfree(old);
	kfree(t->inflight);
	t->inflight = ring;
	return true;
}

/*
 * Keep a copy of a new packet until acknowledged; without one (no memory),
 * TCP recovers what EQDS cannot resend. Caller holds t->lock.
 */
static void keep_copy(struct eqds_txt *t, const struct eqds_txq_step *st,
		      struct sk_buff *skb)
{
	u32 need = eqds_txq_ring_need(&t->q, st), slot;
	struct sk_buff *copy;

	lockdep_assert_held(&t->lock);
	if (need > EQDS_TXQ_RING_MAX || (need && !inflight_grow(t, need)))
		return;
	copy = skb_clone(skb, GFP_ATOMIC);
	if (!copy)
		return;
	slot = eqds_txq_keep(&t->q, st);
	consume_skb(t->inflight[slot]);	/* a copy: see eqds_txt_purge() */
	t->inflight[slot] = copy;
}

/* What the pump needs to know of each class queue's head. Caller holds t->lock. */
static void describe_heads(struct eqds_txt *t, struct eqds_txq_desc *heads)
{
	int c;

	lockdep_assert_held(&t->lock);
	for (c = 0; c < EQDS_NCLASSES; c++) {
		struct sk_buff *skb = skb_peek(&t->queue[c]);

		heads[c].wire_bytes = skb ? eqds_cb(skb)->tx.wire_bytes : 0;
		/* At most EQDS_MAX_SEGS: eqds_txq_enqueue() took no more. */
		heads[c].nsegs = skb ? eqds_cb(skb)->tx.nsegs : 0;
	}
}

/*
 * The core's counts of waiting packets from our queues, after a mismatch:
 * the tunnel goes on with what it really holds. Caller holds t->lock.
 */
static void resync(struct eqds_txt *t)
{
	u32 qlen[EQDS_NCLASSES];
	struct sk_buff *skb;
	u64 bytes = 0;
	int c;

	lockdep_assert_held(&t->lock);
	for (c = 0; c < EQDS_NCLASSES; c++) {
		qlen[c] = skb_queue_len(&t->queue[c]);
		skb_queue_walk(&t->queue[c], skb)
			bytes += eqds_cb(skb)->tx.wire_bytes;
	}
	queued_total_add(t, (s64)bytes - (s64)t->q.queued_bytes);
	eqds_txq_resync(&t->q, qlen, bytes);
}

/* A clone of the kept packet at st->slot, numbered as before. NULL: none made. */
static struct sk_buff *pump_rtx(struct eqds_txt *t, struct eqds_txq_pump *p,
				struct eqds_txq_step *st)
{
	struct sk_buff *orig = t->inflight[st->slot];
	struct sk_buff *copy = orig ? skb_clone(orig, GFP_ATOMIC) : NULL;

	if (!copy) {
		eqds_txq_skip(&t->q, p, st);
		return NULL;
	}
	eqds_txq_commit(&t->q, p, st);
	eqds_cb(copy)->tx = *st;
	if (st->borrowed)
		eqds_count(t->en, EQDS_STATS_A_SMALL_BORROWED);
	eqds_count(t->en, EQDS_STATS_A_RETRANSMITS);
	t->counters.retransmits++;
	trace_eqds_retransmit(t->en->net->ns.inum, t->id, &t->peer,
			      st->epoch, st->rtx_seq, copy->len);
	return copy;
}

/*
 * The head of class st->cls, numbered; a copy kept, numbered too (a clone
 * has its own cb). NULL: none there.
 */
static struct sk_buff *pump_new(struct eqds_txt *t, struct eqds_txq_pump *p,
				struct eqds_txq_step *st)
{
	struct sk_buff *skb = __skb_dequeue(&t->queue[st->cls]);

	/* The core counted a packet the queue does not have: a bug. */
	if (WARN_ON_ONCE(!skb)) {
		eqds_txq_skip(&t->q, p, st);
		resync(t);
		return NULL;
	}
	eqds_txq_commit(&t->q, p, st);
	eqds_cb(skb)->tx = *st;
	queued_total_add(t, -(s64)st->wire_bytes);
	if (st->borrowed)
		eqds_count(t->en, EQDS_STATS_A_SMALL_BORROWED);
	if (st->flags & EQDS_F_SYN)
		eqds_count(t->en, EQDS_STATS_A_SYNS_SENT);
	keep_copy(t, st, skb);
	return skb;
}

static struct sk_buff *pump_rts(struct eqds_txt *t, struct eqds_txq_pump *p,
				struct eqds_txq_step *st)
{
	struct sk_buff *skb = alloc_skb(0, GFP_ATOMIC);

	if (!skb) {
		eqds_txq_skip(&t->q, p, st);
		return NULL;
	}
	eqds_txq_commit(&t->q, p, st);
	eqds_cb(skb)->tx = *st;
	eqds_count(t->en, EQDS_STATS_A_RTS_SENT);
	return skb;
}

/*
 * Send what credit allows, in the order the core says (core/txq.h): the
 * packets to send are appended to out, to go once t->lock is dropped.
 */
static void pump(struct eqds_txt *t, u64 now, struct sk_buff_head *out)
{
	struct eqds_txq_desc heads[EQDS_NCLASSES];
	struct eqds_txq_step st;
	struct eqds_txq_pump p;
	struct sk_buff *skb;

	lockdep_assert_held(&t->lock);
	eqds_txq_pump_begin(&p, now);
	for (;;) {
		describe_heads(t, heads);
		switch (eqds_txq_pump_next(&t->q, &p, heads, &st)) {
		case EQDS_TXQ_RTX:
			skb = pump_rtx(t, &p, &st);
			break;
		case EQDS_TXQ_NEW:
			skb = pump_new(t, &p, &st);
			break;
		case EQDS_TXQ_RTS:
			skb = pump_rts(t, &p, &st);
			break;
		default:
			arm_timer(t, eqds_txq_pump_end(&t->q, &p));
			return;
		}
		if (!skb)
			continue;
		if (st.kind != EQDS_TXQ_RTS)
			eqds_tunnel_count_packet(&t->counters, skb);
		__skb_queue_tail(out, skb);
	}
}

/* Can a GSO packet's pieces be counted before it is split? */
static bool countable(const struct sk_buff *skb)
{
	const struct skb_shared_info *si = skb_shinfo(skb);

	return !skb_has_frag_list(skb) && si->gso_segs && !(si->gso_type & SKB_GSO_DODGY);
}

/*
 * Segmentation that keeps the packet's pages and leaves checksums to the
 * device or to validate_xmit_skb(), except for a packet with a frag_list,
 * whose pieces skb_segment() can only build by copying once its segment
 * size has been changed (fit_path_mtu()).
 */
static struct sk_buff *segment(struct sk_buff *skb)
{
	return skb_gso_segment(skb, skb_has_frag_list(skb) ? 0 :
				    NETIF_F_SG | NETIF_F_HW_CSUM);
}

/*
 * A GSO packet that leaves whole has its pieces numbered, when something
 * splits it after us, by the outer IPv4 ID or, over IPv6, which has none, by
 * its TCP sequence numbers (EQDS_F_TCPSEQ, core/wire.h). True when it may
 * (sent for the first time, and IPv4 or TCP whose header we can read),
 * with hdr set to number it.
 */
static bool number_whole(const struct eqds_txt *t, const struct sk_buff *skb,
			 struct eqds_pkt *hdr)
{
	const struct ipv6hdr *ip6 = (const struct ipv6hdr *)skb->data;
	const struct tcphdr *th = (const struct tcphdr *)(ip6 + 1);

	if (hdr->flags & EQDS_F_RTX)
		return false;
	if (t->peer.family == AF_INET)
		return true;
	/* skb->data is at the inner IPv6 header: TCP right after it? */
	if (!(skb_shinfo(skb)->gso_type & SKB_GSO_TCPV6) ||
	    skb_headlen(skb) < sizeof(*ip6) + sizeof(*th) ||
	    ip6->nexthdr != IPPROTO_TCP)
		return false;
	eqds_pkt_number_by_tcp(hdr, ntohl(th->seq), skb_shinfo(skb)->gso_size);
	return true;
}

/*
 * A GSO packet whose pieces would not be numbered leaves in pieces numbered
 * here, each with a header of its own (seq, seg_count 1). So does a resent
 * one: some of its pieces arrived the first time, and the receiver takes a
 * packet whose range overlaps those for a duplicate, the missing piece with
 * it. Only packets whose pieces could be counted (countable()) come here;
 * one that cannot be split now is lost as on a wire, and its copy is resent
 * on a NACK or timeout. Called from send_all(): rcu_read_lock(), not
 * t->lock.
 */
static void send_pieces(struct eqds_txt *t, struct sk_buff *skb, struct eqds_pkt *hdr)
{
	u32 seq = hdr->data.seq, end = seq + hdr->data.seg_count;
	struct sk_buff *segs, *next;

	segs = segment(skb);
	if (IS_ERR_OR_NULL(segs)) {
		eqds_tx_drop(t->en, skb, EQDS_STATS_A_DROP_NOMEM);
		return;
	}
	consume_skb(skb);
	hdr->data.seg_count = 1;
	skb_list_walk_safe(segs, skb, next) {
		skb_mark_not_on_list(skb);
		if (seq == end) {	/* more pieces than numbers: not ours to send */
			eqds_tx_drop(t->en, skb, EQDS_STATS_A_DROP_SEGS);
			continue;
		}
		hdr->data.seq = seq++;
		hdr->payload_len = skb->len;
		eqds_xmit_data(t->en, t, skb, hdr);
	}
}

/* Caller holds rcu_read_lock() (the configuration), not t->lock. */
static void send_all(struct eqds_txt *t, struct sk_buff_head *out)
{
	const struct eqds_config *cfg = rcu_dereference(t->en->config);
	struct eqds_pkt hdr;
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(out))) {
		const struct eqds_txq_step *st = &eqds_cb(skb)->tx;
		bool rts = st->kind == EQDS_TXQ_RTS;

		/*
		 * The uplink's qdisc sees the class, not the application's
		 * priority (the packet is ours now); an RTS goes as a control
		 * packet does, ahead of data.
		 */
		skb->priority = rts ? TC_PRIO_CONTROL : cfg->classes[st->cls].tc_priority;
		eqds_txq_step_hdr(st, skb->protocol == htons(ETH_P_IP) ?
				  EQDS_NP_IPV4 : EQDS_NP_IPV6, skb->len, &hdr);
		if (!rts) {
			eqds_stats_add(t->en->stats, EQDS_STATS_A_TX_PACKETS, 1);
			eqds_stats_add(t->en->stats, EQDS_STATS_A_TX_BYTES, skb->len);
		}
		if (skb_is_gso(skb) && countable(skb) && !number_whole(t, skb, &hdr))
			send_pieces(t, skb, &hdr);
		else
			eqds_xmit_data(t->en, t, skb, &hdr);
	}
}

/*
 * The class of a captured packet: the low-latency class if its priority or
 * its mark says so (set by the application, nftables or iptables before
 * our hook), else the TCP-compatible class.
 */
static enum eqds_class classify(const struct eqds_config *cfg, const struct sk_buff *skb)
{
	if (cfg->ll_priority && skb->priority == cfg->ll_priority)
		return EQDS_CLASS_LL;
	if (cfg->ll_mark_mask && (skb->mark & cfg->ll_mark_mask) == cfg->ll_mark)
		return EQDS_CLASS_LL;
	return EQDS_CLASS_TCP;
}

static void enqueue(struct eqds_txt *t, struct sk_buff *skb,
		    const struct eqds_config *cfg, enum eqds_class cls)
{
	const struct eqds_class_config *c = &cfg->classes[cls];
	struct eqds_txq_limits lim = {
		.queue_limit = c->queue_limit,
		.ecn_min = c->ecn_min,
		.ecn_max = c->ecn_max,
	};
	/*
	 * The totals are read, then added to, without a lock: tunnels on
	 * other CPUs may overshoot a limit by a packet each, which is what a
	 * bound on memory needs, and keeps one shared lock off the packet
	 * path.
	 */
	struct eqds_txq_totals tot = {
		.ns_bytes = atomic64_read(&t->en->queued_bytes),
		.ns_limit = (u64)cfg->queued_limit_kb << 10,
		.host_bytes = atomic64_read(&eqds_host_queued_bytes),
		.host_limit = (u64)READ_ONCE(eqds_host_queued_limit_kb) << 10,
	};
	enum eqds_stats_attr why = EQDS_STATS_A_DROP_QUEUE_FULL;
	struct eqds_skb_cb *cb;
	u32 nsegs = gso_nsegs(skb);
	u32 bytes = wire_bytes(skb, t->peer.family, nsegs);

	skb->dev = NULL;
	switch (eqds_txq_admit(&t->q, cls, bytes, nsegs, &lim, &tot)) {
	case EQDS_TXQ_DROP_TOTAL:
		why = EQDS_STATS_A_DROP_QUEUED_LIMIT;
		goto drop;
	case EQDS_TXQ_DROP_INVALID:
		/* must_split() splits what the core cannot number: a bug. */
		WARN_ON_ONCE(1);
		goto drop;
	case EQDS_TXQ_DROP:
		goto drop;
	case EQDS_TXQ_RED:
		if (!eqds_txq_red_mark(&t->q, cls, &lim, get_random_u32()))
			break;
		fallthrough;
	case EQDS_TXQ_MARK:
		if (INET_ECN_set_ce(skb))
			eqds_count(t->en, EQDS_STATS_A_ECN_MARKED);
		break;
	default:
		break;
	}
	memset(skb->cb, 0, sizeof(skb->cb));
	cb = eqds_cb(skb);
	cb->tx.nsegs = nsegs;
	cb->tx.wire_bytes = bytes;
	cb->tx.cls = cls;
	eqds_txq_enqueue(&t->q, cls, bytes, nsegs);
	queued_total_add(t, bytes);
	__skb_queue_tail(&t->queue[cls], skb);
	if (cls == EQDS_CLASS_LL)
		eqds_count(t->en, EQDS_STATS_A_LL_QUEUED);
	return;
drop:
	t->counters.drops++;
	eqds_tx_drop(t->en, skb, why);
}

/*
 * A GSO packet is queued whole, as a qdisc holds it, unless its credit could
 * never be granted in one window: then it is split here. So is one to an
 * IPv6 peer whose pieces, unless numbered by TCP or as they leave
 * (send_pieces()), cannot be counted for sure now: a forwarded one with a
 * frag_list or an untrusted segment count.
 */
static bool must_split(struct eqds_txt *t, struct sk_buff *skb)
{
	if (!skb_is_gso(skb))
		return false;
	if (t->peer.family != AF_INET && !countable(skb))
		return true;
	/* Without t->lock: the window is set once, before the tunnel is found. */
	return eqds_txq_must_split(&t->q, skb->len, gso_nsegs(skb),
				   eqds_overhead(t->peer.family, eqds_tcp_gso(skb)));
}

/*
 * Make the GSO segments of a captured packet fit the path MTU once
 * encapsulated (core/mtu.h): a TCP packet's segments are made smaller here,
 * another GSO packet must be segmented (true returned). A packet that is one
 * piece too large is left to be fragmented outside (xmit.c). The MTU is the
 * inner packet's route's, whose destination is the outer one's.
 */
static bool fit_path_mtu(struct eqds_txt *t, struct sk_buff *skb, u32 mtu)
{
	struct eqds_fit_pkt p;
	u32 gso_size;

	eqds_fit_describe(skb, &p);
	switch (eqds_fit(&p, mtu, eqds_overhead(t->peer.family, eqds_tcp_gso(skb)), &gso_size)) {
	case EQDS_FIT_RESIZE:
		/* The segment size is in skb_shinfo(), shared with TCP's own copy. */
		if (skb_unclone(skb, GFP_ATOMIC))
			return true;
		skb_shinfo(skb)->gso_size = gso_size;
		skb_shinfo(skb)->gso_segs = eqds_fit_nsegs(&p, gso_size);
		eqds_count(t->en, EQDS_STATS_A_MTU_SPLIT);
		return false;
	case EQDS_FIT_SEGMENT:
		eqds_count(t->en, EQDS_STATS_A_MTU_SPLIT);
		return true;
	default:
		return false;
	}
}

void eqds_tx_capture(struct eqds_net *en, const struct eqds_addr *peer,
		     struct sk_buff *skb)
{
	const struct eqds_config *cfg = rcu_dereference(en->config);
	u32 mtu = skb_dst(skb) ? dst_mtu(skb_dst(skb)) : 0;
	struct sk_buff *segs = NULL, *next;
	enum eqds_class cls = classify(cfg, skb);
	enum eqds_stats_attr why = 0;
	struct sk_buff_head out;
	struct eqds_txt *t;

	/* Queued packets must not pin the route or the device (enqueue()). */
	skb_dst_drop(skb);
	/*
	 * Nor the socket's send budget: this queue is the bottleneck TCP is
	 * meant to see (tail drop, CE marks), as a switch queue would be.
	 * Left charged, TCP Small Queues would keep about a millisecond of
	 * data here, and the sender would have to ask for credit ahead of
	 * data it does not have, then burst when that data comes.
	 */
	skb_orphan(skb);

	t = eqds_txt_get(en, peer, &why);
	if (!t) {
		if (why) {
			eqds_tx_drop(en, skb, why);
		} else {
			/* No tunnel, for no drop_* reason (the namespace is going away). */
			eqds_count(en, EQDS_STATS_A_TX_DROPS);
			kfree_skb_reason(skb, SKB_DROP_REASON_NO_SOCKET);
		}
		return;
	}
	/*
	 * A GSO packet of another tunnel (VXLAN, Geneve, GRE) cannot be
	 * segmented again under our header (GSO does not nest): its own
	 * segmentation, which needs the device, runs here. So does every GSO
	 * packet once the receiver sees our outer IDs rewritten (seg_numbers):
	 * pieces split after us could not be numbered.
	 */
	if (skb_is_gso(skb) &&
	    (skb->encapsulation || fit_path_mtu(t, skb, mtu) ||
	     READ_ONCE(t->seg_numbers) || must_split(t, skb))) {
		segs = segment(skb);
		if (IS_ERR_OR_NULL(segs)) {
			eqds_tx_drop(en, skb, EQDS_STATS_A_DROP_NOMEM);
			return;
		}
		consume_skb(skb);
		skb = NULL;
	}

	__skb_queue_head_init(&out);
	spin_lock_bh(&t->lock);
	if (unlikely(t->dead)) {
		/* Removed since the lookup: like a packet for no tunnel at all. */
		spin_unlock_bh(&t->lock);
		kfree_skb_reason(skb, SKB_DROP_REASON_NO_SOCKET);
		kfree_skb_list_reason(segs, SKB_DROP_REASON_NO_SOCKET);
		eqds_count(en, EQDS_STATS_A_TX_DROPS);
		return;
	}
	t->last_used = jiffies;
	if (skb) {
		enqueue(t, skb, cfg, cls);
	} else {
		skb_list_walk_safe(segs, skb, next) {
			skb_mark_not_on_list(skb);
			enqueue(t, skb, cfg, cls);
		}
	}
	pump(t, now_ns(), &out);
	spin_unlock_bh(&t->lock);
	send_all(t, &out);
}

/*
 * The core restarted the tunnel: what was in flight goes back to the head
 * of its class queue, in the order the core gives. Caller holds t->lock.
 */
static void requeue(struct eqds_txt *t, struct eqds_txq_cursor *cur)
{
	struct eqds_txq_desc d;
	struct sk_buff *skb;
	u32 slot;

	lockdep_assert_held(&t->lock);
	while (eqds_txq_requeue_next(&t->q, cur, &slot, &d)) {
		skb = t->inflight[slot];
		t->inflight[slot] = NULL;
		/* The core keeps only what we hold a copy of. */
		if (WARN_ON_ONCE(!skb)) {
			eqds_txq_unqueue(&t->q, d.cls, d.wire_bytes);
			continue;
		}
		queued_total_add(t, d.wire_bytes);
		__skb_queue_head(&t->queue[d.cls], skb);
	}
	eqds_count(t->en, EQDS_STATS_A_RESTARTS);
	eqds_event_tunnel(t->en, EQDS_CMD_TUNNEL_RESTART, EQDS_TUNNEL_DIR_TX, t->id,
			  &t->peer, t->q.tx.epoch, -1);
}

/* Free the copies of what an ack covered wholly. Caller holds t->lock. */
static void free_acked(struct eqds_txt *t, struct eqds_txq_cursor *cur)
{
	u32 slot;

	lockdep_assert_held(&t->lock);
	while (eqds_txq_acked_next(&t->q, cur, &slot)) {
		consume_skb(t->inflight[slot]);
		t->inflight[slot] = NULL;
	}
}

/*
 * A control packet that must not touch the tunnel (core/ctrl_check.h): the
 * counter of the reason, or 0.
 */
static enum eqds_stats_attr ctrl_drop_reason(enum eqds_ctrl_verdict v)
{
	switch (v) {
	case EQDS_CTRL_OK:
		return 0;
	case EQDS_CTRL_STALE:
		return EQDS_STATS_A_DROP_STALE;
	default:
		return EQDS_STATS_A_DROP_CTRL;
	}
}

/* A FIN disowning an epoch we left, from the address our data comes from. */
static void send_fin(struct eqds_txt *t, const struct eqds_pkt *fin)
{
	struct eqds_addr any = { .family = t->peer.family };

	if (eqds_xmit_ctrl(t->en, NULL, &any, &t->peer, fin) == 0)
		eqds_count(t->en, EQDS_STATS_A_FINS_SENT);
}

/* What an accepted control packet did, applied. Caller holds t->lock. */
static void ctrl_apply(struct eqds_txt *t, const struct eqds_pkt *pkt, u64 now,
		       const struct eqds_tx_actions *act, struct eqds_txq_cursor *cur,
		       u64 refused)
{
	struct eqds_net *en = t->en;

	lockdep_assert_held(&t->lock);
	t->last_heard = jiffies;
	if ((pkt->next_proto & EQDS_CO_SEG_NUMBERS) && !t->seg_numbers) {
		WRITE_ONCE(t->seg_numbers, true);
		eqds_count(en, EQDS_STATS_A_OUTER_ID_FALLBACK);
	}
	if (t->q.tx.credit.refused_bytes != refused)
		eqds_count(en, EQDS_STATS_A_CREDIT_REFUSED);
	if (pkt->flags & EQDS_F_PULL) {
		eqds_count(en, EQDS_STATS_A_PULLS_RCVD);
		t->counters.pulls++;
	}
	if (act->restart) {
		eqds_count(en, EQDS_STATS_A_RSTS_RCVD);
		eqds_txq_restart(&t->q, now, epoch_clock(), cur);
		requeue(t, cur);
	} else {
		if (act->acked) {
			free_acked(t, cur);
			t->last_used = jiffies;
		}
		if (act->retransmit) {
			eqds_count(en, EQDS_STATS_A_NACKS_RCVD);
			t->counters.nacks++;
			trace_eqds_nack(en->net->ns.inum, EQDS_TUNNEL_DIR_TX, t->id, &t->peer,
					t->q.tx.epoch, act->retransmit_seq, act->nack_sack);
		}
	}
}

/*
 * A control packet from peer: 0 if its tunnel took it, else the drop_*
 * counter of the reason it did not (the caller counts and frees it).
 */
enum eqds_stats_attr eqds_tx_ctrl_rcv(struct eqds_net *en, const struct eqds_addr *peer,
				      const struct eqds_pkt *pkt)
{
	enum eqds_stats_attr why;
	struct eqds_txq_cursor cur;
	struct eqds_tx_actions act;
	struct eqds_pkt fin = {};
	struct sk_buff_head out;
	struct eqds_txt *t;
	u64 refused, now = now_ns();

	t = eqds_txt_lookup(en, peer);
	if (!t)
		return EQDS_STATS_A_DROP_STALE;
	__skb_queue_head_init(&out);
	spin_lock_bh(&t->lock);
	if (t->dead) {
		spin_unlock_bh(&t->lock);
		return EQDS_STATS_A_DROP_STALE;
	}
	refused = t->q.tx.credit.refused_bytes;
	why = ctrl_drop_reason(eqds_txq_ctrl(&t->q, pkt, now, &act, &cur, &fin));
	/* Only a believable packet shows that the peer is alive. */
	if (!why)
		ctrl_apply(t, pkt, now, &act, &cur, refused);
	if (act.pump_now)
		pump(t, now, &out);
	spin_unlock_bh(&t->lock);
	/* An ack for an epoch we left: a FIN disowns it (the pump asked again). */
	if (fin.type)
		send_fin(t, &fin);
	send_all(t, &out);
	return why;
}

static enum hrtimer_restart txt_timer(struct hrtimer *timer)
{
	struct eqds_txt *t = container_of(timer, struct eqds_txt, timer);
	struct eqds_tx_actions act;
	struct sk_buff_head out;
	u64 now = now_ns();

	__skb_queue_head_init(&out);
	rcu_read_lock();
	spin_lock_bh(&t->lock);
	if (!t->dead) {
		eqds_txq_timer(&t->q, now, &act);
		if (act.retransmit)
			eqds_count(t->en, EQDS_STATS_A_TIMEOUTS);
		pump(t, now, &out);
	}
	spin_unlock_bh(&t->lock);
	send_all(t, &out);
	rcu_read_unlock();
	return HRTIMER_NORESTART;
}

void eqds_txt_setup(struct eqds_txt *t, const struct eqds_config *cfg)
{
	int c;

	spin_lock_init(&t->lock);
	for (c = 0; c < EQDS_NCLASSES; c++)
		skb_queue_head_init(&t->queue[c]);
	hrtimer_init(&t->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	t->timer.function = txt_timer;
	t->last_used = jiffies;
	t->last_heard = jiffies;
	BUILD_BUG_ON(EQDS_NCLASSES != EQDS_TXQ_NCLASSES);
	eqds_txq_start(&t->q, cfg->window, cfg->mode == EQDS_MODE_BURST, EQDS_TXQ_RTO_MIN_NS,
		       epoch_clock(), now_ns(), (u8)get_random_u32());
	eqds_tx_set_overdraft(&t->q.tx, READ_ONCE(eqds_small_overdraft));
	eqds_paths_set_on(&t->q.paths, READ_ONCE(eqds_path_choice));
}

/*
 * The tunnel is dead and its timer stopped: free the packets it holds. Its
 * route cache goes with the tunnel, after RCU readers still sending.
 * Queued packets never left: dropped (SKB_DROP_REASON_QUEUE_PURGE where
 * the kernel has it). Those in flight did: what is freed is the copy kept
 * for retransmission, consumed as TCP's own are.
 */
void eqds_txt_purge(struct eqds_txt *t)
{
	u32 i;
	int c;

	for (c = 0; c < EQDS_NCLASSES; c++)
		__skb_queue_purge(&t->queue[c]);
	queued_total_add(t, -(s64)t->q.queued_bytes);
	t->q.queued_bytes = 0;
	for (i = 0; i < t->q.ring_size; i++)
		consume_skb(t->inflight[i]);
	kfree(t->inflight);
	t->inflight = NULL;
	kfree(t->q.ring);
	t->q.ring = NULL;
	t->q.ring_size = 0;
}

/*
 * Idle: nothing queued or in flight and unused for the idle timeout; or
 * the peer has not been heard from for that long (it is gone: what waits
 * for it would wait forever). Either way the state is soft.
 */
bool eqds_txt_idle(struct eqds_txt *t, unsigned long timeout)
{
	if (time_after(jiffies, t->last_heard + timeout))
		return true;
	return !eqds_txt_queue_len(t) && !eqds_tx_inflight(&t->q.tx) &&
	       time_after(jiffies, t->last_used + timeout);
}
