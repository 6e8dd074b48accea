// SPDX-License-Identifier: GPL-2.0
/*
 * txq.c - the sending EQIF queue of one tunnel (txq.h).
 */
#include "txq.h"
#include "seq.h"

enum {
	STAGE_RTX,
	STAGE_CLASSES,
	STAGE_RTS,
	STAGE_END,
};

void eqds_txq_init(struct eqds_txq *q, u32 epoch, u32 window, u32 quantum,
		   bool burst_mode, u32 rto_min_ns, u64 now_ns, u8 path)
{
	memset(q, 0, sizeof(*q));
	eqds_tx_init(&q->tx, epoch, window, quantum, burst_mode, rto_min_ns, now_ns);
	eqds_paths_init(&q->paths, path, true);
	q->rts_due = !burst_mode;
}

void eqds_txq_start(struct eqds_txq *q, u32 window_pkts, bool burst_mode,
		    u32 rto_min_ns, u32 clock, u64 now_ns, u8 path)
{
	eqds_txq_init(q, eqds_txq_first_epoch(clock), window_pkts * EQDS_TXQ_QUANTUM_GUESS,
		      EQDS_TXQ_QUANTUM_GUESS, burst_mode, rto_min_ns, now_ns, path);
}

static u32 ecn_min(const struct eqds_txq_limits *l)
{
	return l->ecn_min ? l->ecn_min : (l->queue_limit + 1) / 2;
}

bool eqds_txq_must_split(const struct eqds_txq *q, u32 len, u32 nsegs, u32 overhead)
{
	return nsegs > EQDS_MAX_SEGS ||
	       (u64)len + (u64)EQDS_MAX_SEGS * overhead > q->tx.credit.window;
}

static bool valid(u32 cls, u32 wire_bytes, u32 nsegs)
{
	return cls < EQDS_TXQ_NCLASSES && wire_bytes <= EQDS_TXQ_WIRE_MAX &&
	       nsegs && nsegs <= EQDS_MAX_SEGS;
}

/* Would wire_bytes more take total past limit (0: none)? Without a wrap. */
static bool over(u64 total, u64 limit, u32 wire_bytes)
{
	return limit && (wire_bytes > limit || total > limit - wire_bytes);
}

enum eqds_txq_admit eqds_txq_admit(const struct eqds_txq *q, u32 cls, u32 wire_bytes,
				   u32 nsegs, const struct eqds_txq_limits *l,
				   const struct eqds_txq_totals *tot)
{
	u32 qlen, min = ecn_min(l);

	if (!valid(cls, wire_bytes, nsegs))
		return EQDS_TXQ_DROP_INVALID;
	if (tot && (over(tot->ns_bytes, tot->ns_limit, wire_bytes) ||
		    over(tot->host_bytes, tot->host_limit, wire_bytes)))
		return EQDS_TXQ_DROP_TOTAL;
	qlen = q->qlen[cls];
	if (qlen >= l->queue_limit)
		return EQDS_TXQ_DROP;
	if (qlen < min)
		return EQDS_TXQ_QUEUE;
	return qlen < l->ecn_max ? EQDS_TXQ_RED : EQDS_TXQ_MARK;
}

bool eqds_txq_red_mark(const struct eqds_txq *q, u32 cls,
		       const struct eqds_txq_limits *l, u32 rnd)
{
	u32 qlen, min = ecn_min(l);
	u32 max = l->ecn_max > min ? l->ecn_max : min;

	if (cls >= EQDS_TXQ_NCLASSES)
		return false;
	qlen = q->qlen[cls];
	/* P(mark) = (qlen - min + 1) / (max - min + 1), 1 from max on. */
	return (u32)(((u64)rnd * (max - min + 1)) >> 32) <= qlen - min;
}

bool eqds_txq_enqueue(struct eqds_txq *q, u32 cls, u32 wire_bytes, u32 nsegs)
{
	if (!valid(cls, wire_bytes, nsegs))
		return false;
	q->qlen[cls]++;
	q->queued_bytes += wire_bytes;
	return true;
}

void eqds_txq_unqueue(struct eqds_txq *q, u32 cls, u32 wire_bytes)
{
	if (cls >= EQDS_TXQ_NCLASSES)
		return;
	q->qlen[cls]--;
	q->queued_bytes -= wire_bytes;
}

void eqds_txq_resync(struct eqds_txq *q, const u32 *qlen, u64 queued_bytes)
{
	memcpy(q->qlen, qlen, sizeof(q->qlen));
	q->queued_bytes = queued_bytes;
}

/* Does the kept packet in slot start at seq? */
static bool kept_at(const struct eqds_txq *q, u32 slot, u32 seq)
{
	const struct eqds_txq_desc *d = &q->ring[slot];

	return d->nsegs && d->seq_lo == (u16)seq;
}

static u32 slot_of(const struct eqds_txq *q, u32 seq)
{
	return seq & (q->ring_size - 1);
}

u32 eqds_txq_find(const struct eqds_txq *q, u32 seq, u32 *first)
{
	u32 back;

	for (back = 0; back < EQDS_MAX_SEGS && back < q->ring_size; back++) {
		u32 slot = slot_of(q, seq - back);

		if (kept_at(q, slot, seq - back)) {
			if (back >= q->ring[slot].nsegs)
				return EQDS_TXQ_NONE;
			*first = seq - back;
			return slot;
		}
	}
	return EQDS_TXQ_NONE;
}

/* The first seq of the oldest packet kept: the one holding snd_una. */
static u32 oldest(const struct eqds_txq *q)
{
	u32 first;

	if (eqds_txq_find(q, q->tx.snd_una, &first) == EQDS_TXQ_NONE)
		return q->tx.snd_una;
	return first;
}

static void add_rtx(struct eqds_txq *q, u32 seq)
{
	u8 i;

	for (i = 0; i < q->nrtx; i++)
		if (q->rtx[i] == seq)
			return;
	if (q->nrtx < EQDS_TXQ_RTX_MAX)
		q->rtx[q->nrtx++] = seq;
}

/*
 * The step for seq is done (sent or given up): off the list, once. A step
 * the glue finishes twice, or one a restart emptied the list under, finds
 * another seq at the head, or none, and takes nothing.
 */
static void pop_rtx(struct eqds_txq *q, u32 seq)
{
	if (!q->nrtx || q->rtx[0] != seq)
		return;
	memmove(q->rtx, q->rtx + 1, --q->nrtx * sizeof(q->rtx[0]));
}

/*
 * The wire bytes waiting to be sent: the class queues' and the kept packets
 * on the retransmit list, each packet once (a NACK can list several of its
 * seqs). What the tunnel asks credit for.
 */
static u64 waiting_bytes(const struct eqds_txq *q)
{
	u64 bytes = q->queued_bytes;
	u32 first[EQDS_TXQ_RTX_MAX];
	u8 i, j, n = 0;

	for (i = 0; i < q->nrtx; i++) {
		u32 f, slot = eqds_txq_find(q, q->rtx[i], &f);

		if (slot == EQDS_TXQ_NONE)
			continue;
		for (j = 0; j < n && first[j] != f; j++)
			;
		if (j < n)
			continue;
		first[n++] = f;
		bytes += q->ring[slot].wire_bytes;
	}
	return bytes;
}

/* The kept packet holding seq was lost: so may the next on its path be. */
static void penalise_lost(struct eqds_txq *q, u32 seq)
{
	u32 first, slot = eqds_txq_find(q, seq, &first);

	if (slot != EQDS_TXQ_NONE)
		eqds_paths_penalise(&q->paths, q->ring[slot].path, true);
}

/* The other holes a NACK's SACK bitmap shows: kept packets starting there. */
static void add_nack_holes(struct eqds_txq *q, const struct eqds_tx_actions *act)
{
	u32 seq = act->retransmit_seq + 1, end = seq + 64;

	if (!act->nack_sack)
		return;
	for (; q->ring_size && seq != end && eqds_seq_before(seq, q->tx.snd_nxt); seq++)
		if (kept_at(q, slot_of(q, seq), seq) && eqds_tx_nack_hole(act, seq)) {
			add_rtx(q, seq);
			penalise_lost(q, seq);
		}
}

void eqds_txq_pump_begin(struct eqds_txq_pump *p, u64 now_ns)
{
	memset(p, 0, sizeof(*p));
	p->now_ns = now_ns;
	p->stage = STAGE_RTX;
}

/* Retransmissions while their credit lasts; false once there are none to send now. */
static bool next_rtx(struct eqds_txq *q, struct eqds_txq_pump *p, struct eqds_txq_step *st)
{
	while (q->nrtx) {
		u32 first, slot = eqds_txq_find(q, q->rtx[0], &first);
		const struct eqds_txq_desc *d;

		if (slot == EQDS_TXQ_NONE) {
			pop_rtx(q, q->rtx[0]);	/* acknowledged meanwhile */
			continue;
		}
		d = &q->ring[slot];
		if (!eqds_tx_may_send(&q->tx, d->wire_bytes, d->nsegs, true, p->now_ns))
			return false;
		st->kind = EQDS_TXQ_RTX;
		st->cls = d->cls;
		st->nsegs = d->nsegs;
		st->seq = first;
		st->rtx_seq = q->rtx[0];
		st->slot = slot;
		st->wire_bytes = d->wire_bytes;
		return true;
	}
	return false;
}

/* The head of the highest class with packets; false when credit or packets ran out. */
static bool next_new(struct eqds_txq *q, struct eqds_txq_pump *p,
		     const struct eqds_txq_desc *heads, struct eqds_txq_step *st)
{
	for (;; p->cls--) {
		const struct eqds_txq_desc *h = &heads[p->cls];

		if (q->qlen[p->cls]) {
			if (!eqds_tx_may_send(&q->tx, h->wire_bytes, h->nsegs, false,
					      p->now_ns)) {
				if (eqds_tx_cost(&q->tx, h->wire_bytes, h->nsegs) <=
				    q->tx.credit.credit)
					p->window_full = true;
				return false;
			}
			st->kind = EQDS_TXQ_NEW;
			st->cls = p->cls;
			st->nsegs = h->nsegs;
			st->seq = q->tx.snd_nxt;
			st->wire_bytes = h->wire_bytes;
			return true;
		}
		if (!p->cls)
			return false;
	}
}

enum eqds_txq_kind eqds_txq_pump_next(struct eqds_txq *q, struct eqds_txq_pump *p,
				      const struct eqds_txq_desc *heads,
				      struct eqds_txq_step *st)
{
	memset(st, 0, sizeof(*st));
	if (p->stage == STAGE_RTX) {
		if (next_rtx(q, p, st))
			return EQDS_TXQ_RTX;
		p->stage = STAGE_CLASSES;
		p->cls = EQDS_TXQ_NCLASSES - 1;
	}
	if (p->stage == STAGE_CLASSES) {
		if (next_new(q, p, heads, st))
			return EQDS_TXQ_NEW;
		p->stage = STAGE_RTS;
	}
	if (p->stage == STAGE_RTS) {
		p->stage = STAGE_END;
		if (q->rts_due && !p->sent && (waiting_bytes(q) || q->tx.credit.debt)) {
			st->kind = EQDS_TXQ_RTS;
			st->seq = q->tx.snd_nxt;
			return EQDS_TXQ_RTS;
		}
	}
	st->kind = EQDS_TXQ_END;
	return EQDS_TXQ_END;
}

void eqds_txq_commit(struct eqds_txq *q, struct eqds_txq_pump *p,
		     struct eqds_txq_step *st)
{
	u64 borrowed = q->tx.stats.borrowed;
	u32 seq;

	st->flags = eqds_tx_data_flags(&q->tx);
	switch (st->kind) {
	case EQDS_TXQ_RTX:
		eqds_tx_send(&q->tx, st->wire_bytes, st->nsegs, true, p->now_ns, &seq);
		st->flags |= EQDS_F_RTX;
		pop_rtx(q, st->rtx_seq);
		p->sent = true;
		break;
	case EQDS_TXQ_NEW:
		/* pump_next() checked eqds_tx_may_send(): this numbers it. */
		eqds_tx_send(&q->tx, st->wire_bytes, st->nsegs, false, p->now_ns, &st->seq);
		q->qlen[st->cls]--;
		q->queued_bytes -= st->wire_bytes;
		p->sent = true;
		break;
	case EQDS_TXQ_RTS:
		st->flags |= EQDS_F_RTS;
		break;
	default:
		return;
	}
	st->borrowed = q->tx.stats.borrowed != borrowed;
	st->path = eqds_paths_next(&q->paths);
	if (st->kind == EQDS_TXQ_RTX)
		q->ring[st->slot].path = st->path;
	st->epoch = q->tx.epoch;
	st->pull_target = eqds_tx_pull_target(&q->tx, waiting_bytes(q), p->now_ns);
}

void eqds_txq_skip(struct eqds_txq *q, struct eqds_txq_pump *p,
		   const struct eqds_txq_step *st)
{
	if (st->kind == EQDS_TXQ_RTX)
		pop_rtx(q, st->rtx_seq);
	else if (st->kind == EQDS_TXQ_NEW)
		p->stage = STAGE_END;
}

void eqds_txq_step_hdr(const struct eqds_txq_step *st, u8 next_proto,
		       u32 payload_len, struct eqds_pkt *hdr)
{
	bool rts = st->kind == EQDS_TXQ_RTS;

	memset(hdr, 0, sizeof(*hdr));
	hdr->type = EQDS_TYPE_DATA;
	hdr->flags = st->flags;
	hdr->path_id = st->path;
	hdr->next_proto = rts ? EQDS_NP_NONE : next_proto;
	hdr->epoch = st->epoch;
	hdr->hlen = EQDS_DATA_HLEN;
	hdr->payload_len = rts ? 0 : payload_len;
	hdr->data.seq = st->seq;
	hdr->data.pull_target = st->pull_target;
	hdr->data.seg_count = st->nsegs;
}

u64 eqds_txq_pump_end(struct eqds_txq *q, struct eqds_txq_pump *p)
{
	p->stage = STAGE_END;
	q->rts_due = false;
	return eqds_tx_deadline(&q->tx, waiting_bytes(q));
}

/* The smallest power of two at least n (n <= 2^31). */
static u32 pow2_at_least(u32 n)
{
	return n <= 1 ? 1 : (u32)1 << eqds_fls64(n - 1);
}

u32 eqds_txq_ring_need(const struct eqds_txq *q, const struct eqds_txq_step *st)
{
	u32 need = st->seq + st->nsegs - oldest(q), size;

	if (!st->nsegs || st->nsegs > EQDS_MAX_SEGS || need > EQDS_TXQ_RING_MAX)
		return EQDS_TXQ_RING_MAX + 1;
	if (need <= q->ring_size)
		return 0;
	size = pow2_at_least(need);
	return size > EQDS_TXQ_RING_MIN ? size : EQDS_TXQ_RING_MIN;
}

void eqds_txq_ring_move(struct eqds_txq *q, struct eqds_txq_desc *ring, u32 size,
			void **old_ptrs, void **new_ptrs)
{
	u32 base = oldest(q), i;

	/*
	 * Every kept packet starts within ring_size seqs from the oldest, so
	 * its slot and the low bits stored in it give its whole first seq.
	 */
	for (i = 0; i < q->ring_size; i++) {
		const struct eqds_txq_desc *d = &q->ring[i];
		u32 seq, to;

		if (!d->nsegs)
			continue;
		seq = base + (u32)(u16)(d->seq_lo - (u16)base);
		to = seq & (size - 1);
		ring[to] = *d;
		if (old_ptrs && new_ptrs)
			new_ptrs[to] = old_ptrs[i];
	}
	q->ring = ring;
	q->ring_size = size;
}

u32 eqds_txq_keep(struct eqds_txq *q, const struct eqds_txq_step *st)
{
	u32 slot = slot_of(q, st->seq);
	struct eqds_txq_desc *d = &q->ring[slot];

	d->wire_bytes = st->wire_bytes;
	d->seq_lo = (u16)st->seq;
	d->nsegs = (u8)st->nsegs;
	d->cls = st->cls;
	d->path = st->path;
	return slot;
}

bool eqds_txq_acked_next(struct eqds_txq *q, struct eqds_txq_cursor *cur, u32 *slot)
{
	for (; q->ring_size && eqds_seq_before(cur->seq, cur->end); cur->seq++) {
		u32 s = slot_of(q, cur->seq);

		if (kept_at(q, s, cur->seq) &&
		    eqds_tx_acked(&q->tx, cur->seq, q->ring[s].nsegs)) {
			q->ring[s].nsegs = 0;
			*slot = s;
			cur->seq++;
			return true;
		}
	}
	return false;
}

bool eqds_txq_requeue_next(struct eqds_txq *q, struct eqds_txq_cursor *cur,
			   u32 *slot, struct eqds_txq_desc *d)
{
	while (q->ring_size && cur->seq != cur->end) {
		u32 s = slot_of(q, --cur->seq);

		if (!kept_at(q, s, cur->seq))
			continue;
		*d = q->ring[s];
		q->ring[s].nsegs = 0;
		eqds_txq_enqueue(q, d->cls, d->wire_bytes, d->nsegs);
		*slot = s;
		return true;
	}
	return false;
}

void eqds_txq_restart(struct eqds_txq *q, u64 now_ns, u32 clock,
		      struct eqds_txq_cursor *cur)
{
	cur->seq = q->tx.snd_nxt;
	cur->end = oldest(q);
	q->nrtx = 0;
	eqds_tx_restart(&q->tx, now_ns, clock);
	q->rts_due = true;
}

enum eqds_ctrl_verdict eqds_txq_ctrl(struct eqds_txq *q, const struct eqds_pkt *pkt,
				     u64 now_ns, struct eqds_tx_actions *act,
				     struct eqds_txq_cursor *cur, struct eqds_pkt *fin)
{
	enum eqds_ctrl_verdict v = eqds_tx_ctrl_verdict(&q->tx, pkt);
	u32 una = q->tx.snd_una;

	memset(act, 0, sizeof(*act));
	cur->seq = 0;
	cur->end = 0;
	if (v != EQDS_CTRL_OK) {
		if (v == EQDS_CTRL_STALE)
			q->tx.stats.stale_ctrl++;
		/*
		 * An ack for an epoch we left: disown it, so the receiver
		 * takes our new one (core/epoch.h), and ask for credit again.
		 */
		if (v == EQDS_CTRL_STALE && eqds_epoch_answer(&q->disown_rl, &q->tx, pkt,
							      now_ns, fin)) {
			q->rts_due = true;
			act->pump_now = true;
		}
		return v;
	}
	eqds_tx_ctrl(&q->tx, pkt, now_ns, act);
	act->pump_now = true;
	/* The new epoch needs the clock, which the glue reads only now. */
	if (act->restart)
		return v;
	if (act->acked) {
		/* From the packet that held una: it may have started before it. */
		if (eqds_txq_find(q, una, &cur->seq) == EQDS_TXQ_NONE)
			cur->seq = una;
		cur->end = act->acked_to;
	}
	if (act->retransmit) {
		add_rtx(q, act->retransmit_seq);
		penalise_lost(q, act->retransmit_seq);
		add_nack_holes(q, act);
	}
	if (pkt->next_proto & EQDS_CO_CE)
		eqds_paths_penalise(&q->paths, pkt->path_id, false);
	return v;
}

void eqds_txq_timer(struct eqds_txq *q, u64 now_ns, struct eqds_tx_actions *act)
{
	eqds_tx_timer(&q->tx, now_ns, waiting_bytes(q), act);
	if (act->retransmit) {
		add_rtx(q, act->retransmit_seq);
		penalise_lost(q, act->retransmit_seq);
		/* The packet to resend waits for credit too. */
		if (!act->send_rts)
			act->send_rts = eqds_tx_rts(&q->tx, now_ns, waiting_bytes(q));
	}
	if (act->send_rts)
		q->rts_due = true;
}
