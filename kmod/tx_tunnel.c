// SPDX-License-Identifier: GPL-2.0
/*
 * The sending EQIF: one queue per destination host. Captured packets wait
 * here until the destination grants credit, leave numbered and sprayed, and
 * stay (as clones) until acknowledged, for retransmission.
 *
 * Contexts: capture (process or softirq), control packet receive (softirq),
 * the tunnel's timer (softirq). All take t->lock with BHs off, decide, and
 * send what was decided after dropping it.
 *
 * EQIF classes: each tunnel holds one queue per class (config.h). Capture
 * picks the class from the packet's skb->priority or skb->mark (which
 * SO_PRIORITY, IP_TOS, nftables or iptables set before our hook; tc runs
 * after it), admits it against the class's own limit and ECN thresholds,
 * and the pump serves the low-latency class first. Encapsulated packets
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
#include <linux/log2.h>
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

/* Quantum the sender assumes until the first pull says otherwise. */
#define EQDS_QUANTUM_GUESS	1536
#define EQDS_RTO_MIN_NS		(10 * NSEC_PER_MSEC)

/*
 * Slots of the ring of sent packets (t->inflight): the first send allocates
 * the smallest, more packets in flight grow it. A packet whose ack stopped
 * inside it is kept at its first seq, up to EQDS_MAX_SEGS - 1 before
 * snd_una, so the ring spans up to that much more than the EQDS_TX_SLOTS
 * seqs that may be in flight.
 */
#define EQDS_RING_MIN		8
#define EQDS_RING_MAX		(2 * EQDS_TX_SLOTS)

unsigned int eqds_max_tx_tunnels = EQDS_MAX_TUNNELS;
unsigned int eqds_host_queued_limit_kb = EQDS_HOST_QUEUED_LIMIT_KB;
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

/*
 * A new tunnel has no previous epoch: it takes the clock as it is. (Asking
 * eqds_tx_next_epoch() for the successor of 0 gives 1 whenever bit 31 of
 * the clock is set, so every incarnation would reuse epoch 1 for half of
 * each 71-minute period.)
 */
static u32 first_epoch(void)
{
	return epoch_clock() ?: 1;
}

/* Bytes this packet will put on the wire once encapsulated (and split). */
static u32 wire_bytes(struct sk_buff *skb, u16 family, u32 nsegs)
{
	u32 hdr;

	if (nsegs <= 1)
		return skb->len + eqds_overhead(family);
	hdr = skb_transport_offset(skb);
	hdr += (skb_shinfo(skb)->gso_type & (SKB_GSO_TCPV4 | SKB_GSO_TCPV6)) ?
		tcp_hdrlen(skb) : sizeof(struct udphdr);
	return skb->len - hdr + nsegs * (hdr + eqds_overhead(family));
}

static u32 gso_nsegs(struct sk_buff *skb)
{
	if (!skb_is_gso(skb))
		return 1;
	return skb_shinfo(skb)->gso_segs ?:
	       DIV_ROUND_UP(skb->len - skb_transport_offset(skb), skb_shinfo(skb)->gso_size);
}

static void arm_timer(struct eqds_txt *t)
{
	u64 when = eqds_tx_deadline(&t->tx, t->queued_bytes);

	if (!when || t->dead)
		return;
	if (hrtimer_is_queued(&t->timer) &&
	    ktime_to_ns(hrtimer_get_expires(&t->timer)) <= when)
		return;
	hrtimer_start(&t->timer, ns_to_ktime(when), HRTIMER_MODE_ABS_SOFT);
}

static void set_header(struct eqds_txt *t, struct sk_buff *skb, u8 flags, u64 now)
{
	struct eqds_skb_cb *cb = eqds_cb(skb);

	cb->epoch = t->tx.epoch;
	cb->flags = flags;
	cb->path = t->path++;
	cb->pull_target = eqds_tx_pull_target(&t->tx, t->queued_bytes, now);
}

/* The ring's slot for a packet starting at seq. Caller holds t->lock; the ring exists. */
static struct sk_buff **inflight_slot(struct eqds_txt *t, u32 seq)
{
	return &t->inflight[seq & (t->inflight_size - 1)];
}

/*
 * The sent packet that holds seq: ranges are stored at their first seq,
 * which may be before snd_una (a packet acknowledged in part). Caller holds
 * t->lock.
 */
static struct sk_buff *inflight_find(struct eqds_txt *t, u32 seq)
{
	u32 back;

	for (back = 0; back < EQDS_MAX_SEGS && back < t->inflight_size; back++) {
		struct sk_buff *skb = *inflight_slot(t, seq - back);

		if (skb && eqds_cb(skb)->seq == seq - back)
			return back < eqds_cb(skb)->nsegs ? skb : NULL;
	}
	return NULL;
}

/* The first seq of the oldest packet kept: the one holding snd_una. */
static u32 inflight_oldest(struct eqds_txt *t)
{
	struct sk_buff *skb = inflight_find(t, t->tx.snd_una);

	return skb ? eqds_cb(skb)->seq : t->tx.snd_una;
}

/*
 * Room in the ring for the packet just numbered [seq, seq + nsegs): every
 * kept packet from the oldest to this one needs a slot of its own. The ring
 * grows by powers of two, moving each packet to its slot in the new one.
 * False if the memory is not there: the packet then goes without a copy,
 * and TCP recovers what EQDS cannot resend. Caller holds t->lock.
 */
static bool inflight_reserve(struct eqds_txt *t, u32 seq, u32 nsegs)
{
	u32 need = seq + nsegs - inflight_oldest(t), size, i;
	struct sk_buff **ring, **slot;

	if (need <= t->inflight_size)
		return true;
	size = max_t(u32, roundup_pow_of_two(need), EQDS_RING_MIN);
	if (size > EQDS_RING_MAX)
		return false;
	ring = kcalloc(size, sizeof(*ring), GFP_ATOMIC);
	if (!ring)
		return false;
	for (i = 0; i < t->inflight_size; i++) {
		struct sk_buff *skb = t->inflight[i];

		if (!skb)
			continue;
		slot = &ring[eqds_cb(skb)->seq & (size - 1)];
		consume_skb(*slot);	/* a copy: see eqds_txt_purge() */
		*slot = skb;
	}
	kfree(t->inflight);
	t->inflight = ring;
	t->inflight_size = size;
	return true;
}

static struct sk_buff *rts_packet(struct eqds_txt *t, u64 now)
{
	struct sk_buff *skb = alloc_skb(0, GFP_ATOMIC);

	if (!skb)
		return NULL;
	eqds_cb(skb)->seq = t->tx.snd_nxt;
	eqds_cb(skb)->nsegs = 0;
	set_header(t, skb, EQDS_F_RTS | eqds_tx_data_flags(&t->tx), now);
	return skb;
}

/* Every change of a tunnel's queued bytes, also in the namespace's and the host's totals. */
static void queued_add(struct eqds_txt *t, s64 bytes)
{
	t->queued_bytes += bytes;
	atomic64_add(bytes, &t->en->queued_bytes);
	atomic64_add(bytes, &eqds_host_queued_bytes);
}

/*
 * Send what credit allows: retransmissions first, then new packets, the
 * low-latency class before the TCP class (strict priority: the ll class's
 * short queue limit is what bounds its share; documented), each class in
 * order; ask for credit if nothing could go. When the head of a class does
 * not fit the credit, nothing behind it goes either: a lower class must not
 * take the credit the higher one is waiting for. Caller holds t->lock; the
 * packets to send are appended to out.
 */
static bool pump_class(struct eqds_txt *t, struct sk_buff_head *q, u64 now,
		       struct sk_buff_head *out);

static void pump(struct eqds_txt *t, u64 now, struct sk_buff_head *out)
{
	struct eqds_net *en = t->en;
	struct sk_buff *skb, *copy;
	int cls;
	u32 seq;

	lockdep_assert_held(&t->lock);
	while (t->nrtx) {
		skb = inflight_find(t, t->rtx[0]);
		if (skb) {
			if (!eqds_tx_send(&t->tx, eqds_cb(skb)->wire_bytes,
					  eqds_cb(skb)->nsegs, true, now, &seq))
				break;
			copy = skb_clone(skb, GFP_ATOMIC);
			if (copy) {
				set_header(t, copy, eqds_tx_data_flags(&t->tx) |
					   EQDS_F_RTX, now);
				__skb_queue_tail(out, copy);
				eqds_count(en, EQDS_STATS_A_RETRANSMITS);
				eqds_tunnel_count_packet(&t->counters, copy);
				t->counters.retransmits++;
				trace_eqds_retransmit(en->net->ns.inum, t->id, &t->peer,
						      t->tx.epoch, t->rtx[0], copy->len);
			}
		}
		memmove(t->rtx, t->rtx + 1, --t->nrtx * sizeof(t->rtx[0]));
	}

	for (cls = EQDS_NCLASSES - 1; cls >= 0; cls--) {
		if (!pump_class(t, &t->queue[cls], now, out))
			break;
	}

	if (t->rts_due && t->queued_bytes && !skb_queue_len(out)) {
		skb = rts_packet(t, now);
		if (skb) {
			__skb_queue_tail(out, skb);
			eqds_count(en, EQDS_STATS_A_RTS_SENT);
		}
	}
	t->rts_due = false;
	arm_timer(t);
}

/* New packets of one class; false if credit ran out before the queue did. */
static bool pump_class(struct eqds_txt *t, struct sk_buff_head *q, u64 now,
		       struct sk_buff_head *out)
{
	struct eqds_net *en = t->en;
	struct sk_buff *skb, *copy;
	u32 seq;

	lockdep_assert_held(&t->lock);
	while ((skb = skb_peek(q))) {
		struct eqds_skb_cb *cb = eqds_cb(skb);

		if (!eqds_tx_send(&t->tx, cb->wire_bytes, cb->nsegs, false, now, &seq))
			return false;
		__skb_unlink(skb, q);
		queued_add(t, -(s64)cb->wire_bytes);
		cb->seq = seq;
		set_header(t, skb, eqds_tx_data_flags(&t->tx), now);
		if (cb->flags & EQDS_F_SYN)
			eqds_count(en, EQDS_STATS_A_SYNS_SENT);
		/* Keep a copy until acknowledged; without one, TCP recovers. */
		copy = inflight_reserve(t, seq, cb->nsegs) ? skb_clone(skb, GFP_ATOMIC) : NULL;
		if (copy) {
			struct sk_buff **slot = inflight_slot(t, seq);

			consume_skb(*slot);	/* a copy: see eqds_txt_purge() */
			*slot = copy;
		}
		eqds_tunnel_count_packet(&t->counters, skb);
		__skb_queue_tail(out, skb);
	}
	return true;
}

/* Caller holds rcu_read_lock() (the configuration), not t->lock. */
static void send_all(struct eqds_txt *t, struct sk_buff_head *out)
{
	const struct eqds_config *cfg = rcu_dereference(t->en->config);
	struct eqds_pkt hdr;
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(out))) {
		struct eqds_skb_cb *cb = eqds_cb(skb);
		u32 len = skb->len;

		/*
		 * The uplink's qdisc sees the class, not the application's
		 * priority (the packet is ours now); an RTS goes as a control
		 * packet does, ahead of data.
		 */
		skb->priority = cb->nsegs ? cfg->classes[cb->cls].tc_priority :
			TC_PRIO_CONTROL;
		memset(&hdr, 0, sizeof(hdr));
		hdr.type = EQDS_TYPE_DATA;
		hdr.flags = cb->flags;
		hdr.path_id = cb->path;
		hdr.epoch = cb->epoch;
		hdr.hlen = EQDS_DATA_HLEN;
		hdr.data.seq = cb->seq;
		hdr.data.pull_target = cb->pull_target;
		hdr.data.seg_count = cb->nsegs;
		hdr.payload_len = len;
		if (!cb->nsegs) {
			hdr.next_proto = EQDS_NP_NONE;
		} else {
			hdr.next_proto = skb->protocol == htons(ETH_P_IP) ?
					 EQDS_NP_IPV4 : EQDS_NP_IPV6;
			eqds_stats_add(t->en->stats, EQDS_STATS_A_TX_PACKETS, 1);
			eqds_stats_add(t->en->stats, EQDS_STATS_A_TX_BYTES, len);
		}
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

/*
 * TCP's own control loop needs a queue that drops or marks: tail drop when
 * full, and CE marks for ECN-capable packets as the queue grows, which
 * ECN-capable TCP reacts to before a drop. Marking is RED on the
 * instantaneous queue length (no average: the queue drains at the pull
 * rate, and what matters to the low-latency class is the queue now): no
 * marks below ecn_min, then with a probability rising linearly to 1 at
 * ecn_max. The defaults (ecn_min half the limit, ecn_max = ecn_min) are
 * DCTCP-style step marking. The limit counts packets as TCP hands them
 * down, a GSO packet as one, as a qdisc's packet limit does: counted in
 * MTU-sized packets, a limit of 100 held two 64 KB TSO packets and made
 * TCP lose whole bursts.
 */
static bool admit(struct eqds_txt *t, struct sk_buff *skb,
		  const struct eqds_class_config *c, struct sk_buff_head *q)
{
	u32 qlen = skb_queue_len(q), min, max;

	if (qlen >= c->queue_limit)
		return false;
	min = c->ecn_min ?: DIV_ROUND_UP(c->queue_limit, 2);
	max = max(c->ecn_max, min);
	if (qlen < min)
		return true;
	/* P(mark) = (qlen - min + 1) / (max - min + 1), 1 from max on. */
	if (qlen < max &&
	    (u32)(((u64)get_random_u32() * (max - min + 1)) >> 32) > qlen - min)
		return true;
	if (INET_ECN_set_ce(skb))
		eqds_count(t->en, EQDS_STATS_A_ECN_MARKED);
	return true;
}

static void enqueue(struct eqds_txt *t, struct sk_buff *skb,
		    const struct eqds_config *cfg, enum eqds_class cls)
{
	struct sk_buff_head *q = &t->queue[cls];
	enum eqds_stats_attr why;
	u64 limit = (u64)cfg->queued_limit_kb << 10;
	u64 host_limit = (u64)READ_ONCE(eqds_host_queued_limit_kb) << 10;
	struct eqds_skb_cb *cb;
	u32 nsegs = gso_nsegs(skb);
	u32 bytes = wire_bytes(skb, t->peer.family, nsegs);

	skb->dev = NULL;
	/*
	 * The namespace's limit is read, then added to, without a lock:
	 * tunnels on other CPUs may overshoot it by a packet each, which is
	 * what a bound on memory needs, and keeps one shared lock off the
	 * packet path.
	 */
	if ((limit && atomic64_read(&t->en->queued_bytes) + bytes > limit) ||
	    (host_limit && atomic64_read(&eqds_host_queued_bytes) + bytes > host_limit)) {
		why = EQDS_STATS_A_DROP_QUEUED_LIMIT;
		goto drop;
	}
	why = EQDS_STATS_A_DROP_QUEUE_FULL;
	if (!admit(t, skb, &cfg->classes[cls], q))
		goto drop;
	memset(skb->cb, 0, sizeof(skb->cb));
	cb = eqds_cb(skb);
	cb->nsegs = nsegs;
	cb->wire_bytes = bytes;
	cb->cls = cls;
	queued_add(t, cb->wire_bytes);
	__skb_queue_tail(q, skb);
	if (cls == EQDS_CLASS_LL)
		eqds_count(t->en, EQDS_STATS_A_LL_QUEUED);
	return;
drop:
	t->counters.drops++;
	eqds_tx_drop(t->en, skb, why);
}

/*
 * A GSO packet is carried whole and split after us when the outer header is
 * IPv4: pieces are numbered by IP ID. IPv6 has no ID, so it is split here
 * (each segment gets its own number; GRO reassembles at the receiver). So
 * is one whose credit could never be granted in one window.
 */
static bool must_split(struct eqds_txt *t, struct sk_buff *skb)
{
	if (!skb_is_gso(skb))
		return false;
	return t->peer.family != AF_INET || gso_nsegs(skb) > EQDS_MAX_SEGS ||
	       skb->len + EQDS_MAX_SEGS * eqds_overhead(AF_INET) > t->tx.credit.window;
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
	switch (eqds_fit(&p, mtu, eqds_overhead(t->peer.family), &gso_size)) {
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
		segs = skb_gso_segment(skb, 0);
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
 * The receiver lost our epoch: start a new one and resend what it missed
 * (a packet acknowledged in part goes again whole: TCP drops what it has).
 */
static void restart(struct eqds_txt *t, u64 now)
{
	u32 seq = t->tx.snd_nxt, oldest = inflight_oldest(t);

	/* Back to the queue's head, newest first, so the order is kept. */
	while (t->inflight_size && seq != oldest) {
		struct sk_buff *skb;

		seq--;
		skb = *inflight_slot(t, seq);
		if (!skb || eqds_cb(skb)->seq != seq)
			continue;
		*inflight_slot(t, seq) = NULL;
		queued_add(t, eqds_cb(skb)->wire_bytes);
		__skb_queue_head(&t->queue[eqds_cb(skb)->cls], skb);
	}
	t->nrtx = 0;
	eqds_tx_restart(&t->tx, now, epoch_clock());
	t->rts_due = true;
	eqds_count(t->en, EQDS_STATS_A_RESTARTS);
	eqds_event_tunnel(t->en, EQDS_CMD_TUNNEL_RESTART, EQDS_TUNNEL_DIR_TX, t->id,
			  &t->peer, t->tx.epoch, -1);
}

/*
 * The ack moved from una to acked_to (now t->tx.snd_una): free the packets
 * wholly acknowledged, from the one that held una (it may have started
 * before it). One that the ack stops inside stays: its later pieces may be
 * lost.
 */
static void free_acked(struct eqds_txt *t, u32 una, u32 acked_to)
{
	struct sk_buff *skb = inflight_find(t, una);
	u32 seq = skb ? eqds_cb(skb)->seq : una;

	for (; t->inflight_size && eqds_seq_before(seq, acked_to); seq++) {
		struct sk_buff **slot = inflight_slot(t, seq);

		if (*slot && eqds_cb(*slot)->seq == seq &&
		    eqds_tx_acked(&t->tx, seq, eqds_cb(*slot)->nsegs)) {
			consume_skb(*slot);
			*slot = NULL;
		}
	}
}

static void add_rtx(struct eqds_txt *t, u32 seq)
{
	u8 i;

	for (i = 0; i < t->nrtx; i++)
		if (t->rtx[i] == seq)
			return;
	if (t->nrtx < EQDS_RTX_MAX)
		t->rtx[t->nrtx++] = seq;
}

/* The other holes a NACK's SACK bitmap shows: packets starting there. */
static void add_nack_holes(struct eqds_txt *t, const struct eqds_tx_actions *act)
{
	u32 seq = act->retransmit_seq + 1, end = seq + 64;
	struct sk_buff *skb;

	if (!act->nack_sack)
		return;
	for (; t->inflight_size && seq != end && eqds_seq_before(seq, t->tx.snd_nxt); seq++) {
		skb = *inflight_slot(t, seq);
		if (skb && eqds_cb(skb)->seq == seq && eqds_tx_nack_hole(act, seq))
			add_rtx(t, seq);
	}
}

/*
 * A control packet that must not touch the tunnel (core/ctrl_check.h): the
 * counter of the reason, or 0.
 */
static enum eqds_stats_attr ctrl_drop_reason(const struct eqds_tx *tx,
					     const struct eqds_pkt *pkt)
{
	switch (eqds_tx_ctrl_verdict(tx, pkt)) {
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

	if (eqds_xmit_ctrl(t->en, &any, &t->peer, fin) == 0)
		eqds_count(t->en, EQDS_STATS_A_FINS_SENT);
}

/*
 * A control packet from peer: 0 if its tunnel took it, else the drop_*
 * counter of the reason it did not (the caller counts and frees it).
 */
enum eqds_stats_attr eqds_tx_ctrl_rcv(struct eqds_net *en, const struct eqds_addr *peer,
				      const struct eqds_pkt *pkt)
{
	enum eqds_stats_attr why;
	struct eqds_tx_actions act;
	struct eqds_pkt fin = {};
	struct sk_buff_head out;
	struct eqds_txt *t;
	u64 refused, now = now_ns();
	u32 una;

	t = eqds_txt_lookup(en, peer);
	if (!t)
		return EQDS_STATS_A_DROP_STALE;
	__skb_queue_head_init(&out);
	spin_lock_bh(&t->lock);
	why = t->dead ? EQDS_STATS_A_DROP_STALE : ctrl_drop_reason(&t->tx, pkt);
	if (why) {
		/*
		 * An ack for an epoch we left: disown it, so the receiver takes
		 * our new one (core/epoch.h), and ask for credit again now.
		 */
		if (why == EQDS_STATS_A_DROP_STALE && !t->dead &&
		    eqds_epoch_answer(&t->disown_rl, &t->tx, pkt, now, &fin)) {
			t->rts_due = true;
			pump(t, now, &out);
		}
		/* Only a believable packet shows that the peer is alive. */
		spin_unlock_bh(&t->lock);
		if (fin.type) {
			send_fin(t, &fin);
			send_all(t, &out);
		}
		return why;
	}
	t->last_heard = jiffies;
	if ((pkt->next_proto & EQDS_CO_SEG_NUMBERS) && !t->seg_numbers) {
		WRITE_ONCE(t->seg_numbers, true);
		eqds_count(en, EQDS_STATS_A_OUTER_ID_FALLBACK);
	}
	una = t->tx.snd_una;
	refused = t->tx.credit.refused_bytes;
	eqds_tx_ctrl(&t->tx, pkt, now, &act);
	if (t->tx.credit.refused_bytes != refused)
		eqds_count(en, EQDS_STATS_A_CREDIT_REFUSED);
	if (pkt->flags & EQDS_F_PULL) {
		eqds_count(en, EQDS_STATS_A_PULLS_RCVD);
		t->counters.pulls++;
	}
	if (act.restart) {
		eqds_count(en, EQDS_STATS_A_RSTS_RCVD);
		restart(t, now);
	} else {
		if (act.acked) {
			free_acked(t, una, act.acked_to);
			t->last_used = jiffies;
		}
		if (act.retransmit) {
			eqds_count(en, EQDS_STATS_A_NACKS_RCVD);
			t->counters.nacks++;
			trace_eqds_nack(en->net->ns.inum, EQDS_TUNNEL_DIR_TX, t->id, &t->peer,
					t->tx.epoch, act.retransmit_seq, act.nack_sack);
			add_rtx(t, act.retransmit_seq);
			add_nack_holes(t, &act);
		}
	}
	pump(t, now, &out);
	spin_unlock_bh(&t->lock);
	send_all(t, &out);
	return 0;
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
		eqds_tx_timer(&t->tx, now, t->queued_bytes, &act);
		if (act.retransmit) {
			eqds_count(t->en, EQDS_STATS_A_TIMEOUTS);
			add_rtx(t, act.retransmit_seq);
		}
		if (act.send_rts)
			t->rts_due = true;
		pump(t, now, &out);
	}
	spin_unlock_bh(&t->lock);
	send_all(t, &out);
	rcu_read_unlock();
	return HRTIMER_NORESTART;
}

void eqds_txt_setup(struct eqds_txt *t, const struct eqds_config *cfg)
{
	u32 window = cfg->window * EQDS_QUANTUM_GUESS;
	int c;

	spin_lock_init(&t->lock);
	for (c = 0; c < EQDS_NCLASSES; c++)
		skb_queue_head_init(&t->queue[c]);
	hrtimer_init(&t->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	t->timer.function = txt_timer;
	t->last_used = jiffies;
	t->last_heard = jiffies;
	t->path = get_random_u32();
	eqds_tx_init(&t->tx, first_epoch(), window,
		     EQDS_QUANTUM_GUESS, cfg->mode == EQDS_MODE_BURST,
		     EQDS_RTO_MIN_NS, now_ns());
	t->rts_due = cfg->mode == EQDS_MODE_RTS;
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
	queued_add(t, -(s64)t->queued_bytes);
	for (i = 0; i < t->inflight_size; i++)
		consume_skb(t->inflight[i]);
	kfree(t->inflight);
	t->inflight = NULL;
	t->inflight_size = 0;
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
	return !eqds_txt_queue_len(t) && !eqds_tx_inflight(&t->tx) &&
	       time_after(jiffies, t->last_used + timeout);
}
