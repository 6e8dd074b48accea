// SPDX-License-Identifier: GPL-2.0
/*
 * rx.c - the receiving side of one tunnel: reorder window and release.
 */
#include "rx.h"
#include "seq.h"
#include "wire.h"

void eqds_rx_init(struct eqds_rx *rx, u32 epoch, u32 window_quanta, u32 weight)
{
	u32 i;

	memset(rx, 0, sizeof(*rx));
	rx->epoch = epoch;
	rx->rcv_nxt = eqds_isn(epoch);
	rx->nack_hi = rx->rcv_nxt;
	rx->renack_hi = rx->rcv_nxt;
	rx->head = rx->rcv_nxt;
	/*
	 * Nothing before the first seq was ever sent, so nothing behind was
	 * given up on: a packet there is a duplicate (or forged), not late.
	 */
	for (i = 1; i <= EQDS_RX_AHEAD; i++)
		rx->slot[eqds_rx_slot(rx->rcv_nxt - i)] = EQDS_RX_S_DONE;
	eqds_pullgen_init(&rx->pulls, window_quanta);
	eqds_asl_node_init(&rx->asl, weight);
}

/*
 * Move rcv_nxt past n seqs, recording them as delivered (or given up on),
 * and clear the slots that enter the ahead region: they last described seqs
 * a whole ring behind.
 */
static void advance(struct eqds_rx *rx, u32 n, u8 mark)
{
	u32 i;

	for (i = 0; i < n; i++) {
		rx->slot[eqds_rx_slot(rx->rcv_nxt)] = mark;
		rx->slot[eqds_rx_slot(rx->rcv_nxt + EQDS_RX_AHEAD)] = EQDS_RX_S_EMPTY;
		rx->rcv_nxt++;
	}
}

/*
 * After rcv_nxt moved: once it has passed every packet that was held when
 * the current wait began (gap_end), the next batch of holes, those before
 * any packet held now (up to hold_hi), is waited on from now.
 */
static void rearm(struct eqds_rx *rx, u64 now_ns)
{
	/* Keep nack_hi near rcv_nxt so serial comparisons with it stay valid. */
	if (eqds_seq_after(rx->rcv_nxt, rx->nack_hi))
		rx->nack_hi = rx->rcv_nxt;
	if (eqds_seq_after(rx->rcv_nxt, rx->renack_hi))
		rx->renack_hi = rx->rcv_nxt;
	if (rx->head != rx->rcv_nxt) {
		rx->head = rx->rcv_nxt;
		rx->head_ns = now_ns;
	}
	if (rx->nheld && !eqds_seq_before(rx->rcv_nxt, rx->gap_end)) {
		rx->gap_since_ns = now_ns;
		rx->gap_end = rx->hold_hi;
	}
}

static bool head_nacked(const struct eqds_rx *rx);

static bool is_held(u8 v)
{
	return v >= 1 && v <= EQDS_MAX_SEGS;
}

/*
 * A decaying maximum of the waits observed: one slow path raises the
 * estimate at once, and it relaxes over tens of holes.
 */
static void learn(u32 *est, u64 ns)
{
	u32 obs = (u32)eqds_min_u64(ns, 0xffffffffu);

	if (obs >= *est)
		*est = obs;
	else
		*est -= (*est - obs) >> 5;
}

enum eqds_rx_verdict eqds_rx_classify(const struct eqds_rx *rx, u32 seq, u32 nsegs)
{
	s32 d = eqds_seq_diff(seq, rx->rcv_nxt);
	u32 i;

	if (nsegs == 0 || nsegs > EQDS_MAX_SEGS)
		return EQDS_RX_TOO_FAR;
	if (d < 0) {
		/* Behind: a retransmission, a duplicate, or a very late packet. */
		if (d < -EQDS_RX_AHEAD)
			return EQDS_RX_TOO_OLD;
		/* Straddling rcv_nxt: a retransmission cut differently; drop. */
		if (d + (s32)nsegs > 0)
			return EQDS_RX_DUP;
		for (i = 0; i < nsegs; i++)
			if (rx->slot[eqds_rx_slot(seq + i)] == EQDS_RX_S_DONE)
				return EQDS_RX_DUP;
		return EQDS_RX_LATE;
	}
	if ((u32)d + nsegs > EQDS_RX_AHEAD)
		return EQDS_RX_TOO_FAR;
	for (i = 0; i < nsegs; i++)
		if (rx->slot[eqds_rx_slot(seq + i)] != EQDS_RX_S_EMPTY)
			return EQDS_RX_DUP;
	return d == 0 ? EQDS_RX_DELIVER : EQDS_RX_HOLD;
}

static void hold(struct eqds_rx *rx, u32 seq, u32 nsegs, u64 now_ns)
{
	u32 i;

	rx->slot[eqds_rx_slot(seq)] = (u8)nsegs;
	for (i = 1; i < nsegs; i++)
		rx->slot[eqds_rx_slot(seq + i)] = EQDS_RX_S_CONT;
	if (!rx->nheld++) {
		/* The first hole: its wait starts now. */
		rx->gap_since_ns = now_ns;
		rx->gap_end = seq + nsegs;
		rx->hold_hi = seq + nsegs;
		rx->nack_since_ns = now_ns;
		rx->nack_end = seq + nsegs;
		rx->renack_left = 0;
	} else if (eqds_seq_after(seq + nsegs, rx->hold_hi)) {
		rx->hold_hi = seq + nsegs;
	}
	rx->stats.held++;
}

enum eqds_rx_verdict eqds_rx_packet(struct eqds_rx *rx, u32 seq, u32 nsegs,
				    bool retransmit, u64 now_ns)
{
	enum eqds_rx_verdict v = eqds_rx_classify(rx, seq, nsegs);
	u32 i;

	/* A packet of no seqs or too many is no data packet: not counted. */
	if (nsegs && nsegs <= EQDS_MAX_SEGS)
		rx->since_ack++;
	switch (v) {
	case EQDS_RX_DELIVER:
		/* A hole filled by itself, or by the retransmission its NACK asked for. */
		if (rx->nheld && !retransmit)
			learn(&rx->skew_ns, eqds_time_since(now_ns, rx->gap_since_ns));
		else if (retransmit && head_nacked(rx))
			learn(&rx->repair_ns, eqds_time_since(now_ns, rx->head_ns));
		advance(rx, nsegs, EQDS_RX_S_DONE);
		rearm(rx, now_ns);
		break;
	case EQDS_RX_LATE:
		for (i = 0; i < nsegs; i++)
			rx->slot[eqds_rx_slot(seq + i)] = EQDS_RX_S_DONE;
		rx->stats.late++;
		break;
	case EQDS_RX_HOLD:
		hold(rx, seq, nsegs, now_ns);
		break;
	case EQDS_RX_DUP:
		rx->stats.dups++;
		break;
	case EQDS_RX_TOO_OLD:
		rx->stats.too_old++;
		break;
	case EQDS_RX_TOO_FAR:
		rx->stats.too_far++;
		break;
	}
	return v;
}

bool eqds_rx_release(struct eqds_rx *rx, u64 now_ns, u64 timeout_ns, u32 *seq)
{
	u8 v;
	u32 i;

	if (!rx->nheld)
		return false;
	v = rx->slot[eqds_rx_slot(rx->rcv_nxt)];
	if (!is_held(v)) {
		if (eqds_time_since(now_ns, rx->gap_since_ns) < eqds_rx_hold_after(rx, timeout_ns))
			return false;
		/* The hole timed out: give up on it, up to the next held packet. */
		for (i = 0; i < EQDS_RX_AHEAD; i++)
			if (is_held(rx->slot[eqds_rx_slot(rx->rcv_nxt + i)]))
				break;
		rx->stats.skipped += i;
		advance(rx, i, EQDS_RX_S_EMPTY);
		v = rx->slot[eqds_rx_slot(rx->rcv_nxt)];
		if (!is_held(v)) {
			rx->nheld = 0;	/* cannot happen: nheld counts held slots */
			return false;
		}
	}
	*seq = rx->rcv_nxt;
	advance(rx, v, EQDS_RX_S_DONE);
	rx->nheld--;
	rearm(rx, now_ns);
	return true;
}

u64 eqds_rx_deadline(const struct eqds_rx *rx, u64 timeout_ns)
{
	return rx->nheld ? rx->gap_since_ns + eqds_rx_hold_after(rx, timeout_ns) : 0;
}

u64 eqds_rx_hold_after(const struct eqds_rx *rx, u64 timeout_ns)
{
	u64 nack = eqds_min_u64(eqds_rx_nack_after(rx, timeout_ns), timeout_ns / 2);
	u64 after = nack + 2 * (u64)rx->repair_ns;

	if (after < timeout_ns)
		return timeout_ns;
	return eqds_min_u64(after, EQDS_RX_HOLD_MAX * timeout_ns);
}

u64 eqds_rx_sack(const struct eqds_rx *rx)
{
	u64 map = 0;
	u32 i;

	for (i = 0; i < 64; i++)
		if (rx->slot[eqds_rx_slot(rx->rcv_nxt + 1 + i)] != EQDS_RX_S_EMPTY)
			map |= 1ull << i;
	return map;
}

u64 eqds_rx_nack_after(const struct eqds_rx *rx, u64 timeout_ns)
{
	u64 after = (u64)rx->skew_ns + (rx->skew_ns >> 1) + EQDS_RX_NACK_SLACK_NS;

	if (after > timeout_ns / 2)
		after = timeout_ns / 2;
	if (after < EQDS_RX_NACK_MIN_NS)
		after = EQDS_RX_NACK_MIN_NS;
	return after;
}

u64 eqds_rx_renack_after(const struct eqds_rx *rx, u64 timeout_ns)
{
	u64 after = eqds_min_u64(2 * eqds_rx_nack_after(rx, timeout_ns), timeout_ns / 4);

	/* Never 0: a second report at once would be followed by another. */
	return after ? after : 1;
}

/*
 * Holes are NACKed in batches of their own, like the release batches but
 * not tied to them: every hole before nack_end, once nack_since_ns is
 * nack_after old. When one is done, the holes before the furthest packet
 * held at that moment form the next. So a hole is reported at most two
 * NACK delays after it appeared, however many holes are before it.
 */
static bool nack_pending(const struct eqds_rx *rx)
{
	return rx->nheld && eqds_seq_before(rx->nack_hi, rx->nack_end);
}

/* The batch is done: the next is what is held beyond it, from now. */
static void next_nack_batch(struct eqds_rx *rx, u64 now_ns)
{
	if (eqds_seq_before(rx->nack_end, rx->hold_hi)) {
		rx->nack_since_ns = now_ns;
		rx->nack_end = rx->hold_hi;
	}
}

/* The hole at rcv_nxt was NACKed (its first NACK is the batch's). */
static bool head_nacked(const struct eqds_rx *rx)
{
	return rx->nheld && rx->slot[eqds_rx_slot(rx->rcv_nxt)] == EQDS_RX_S_EMPTY &&
	       eqds_seq_before(rx->rcv_nxt, rx->nack_hi);
}

u64 eqds_rx_nack_deadline(const struct eqds_rx *rx, u64 timeout_ns)
{
	u64 batch = 0, again = 0;

	if (nack_pending(rx))
		batch = rx->nack_since_ns + eqds_rx_nack_after(rx, timeout_ns);
	/* The rest of a second report is due since it began. */
	if (rx->renack_left && rx->nheld)
		again = rx->head_ns;
	else if (head_nacked(rx))
		again = rx->head_ns + eqds_rx_renack_after(rx, timeout_ns);
	if (!batch || !again)
		return batch | again;
	return eqds_min_u64(batch, again);
}

/*
 * The SACK bitmap relative to base (a hole at or after rcv_nxt): bit i set
 * when base + 1 + i is held. Slots beyond the ahead region describe seqs
 * behind rcv_nxt and are left out.
 */
static u64 sack_from(const struct eqds_rx *rx, u32 base)
{
	u32 i, room = EQDS_RX_AHEAD - 1 - (base - rx->rcv_nxt);
	u64 map = 0;

	for (i = 0; i < 64 && i < room; i++)
		if (rx->slot[eqds_rx_slot(base + 1 + i)] != EQDS_RX_S_EMPTY)
			map |= 1ull << i;
	return map;
}

/*
 * The first hole in [*from, end), with the bitmap after it; *from moves past
 * the holes below the bitmap's highest bit, which the sender sees with it.
 */
static bool next_hole(const struct eqds_rx *rx, u32 *from, u32 end, u32 *seq,
		      u64 *sack)
{
	u32 s, top;
	u64 map;

	for (s = *from; eqds_seq_before(s, end); s++)
		if (rx->slot[eqds_rx_slot(s)] == EQDS_RX_S_EMPTY)
			break;
	if (!eqds_seq_before(s, end)) {
		*from = s;
		return false;
	}
	map = sack_from(rx, s);
	for (top = 0; top < 64 && (map >> top); top++)
		;
	*from = s + 1 + top;
	*seq = s;
	*sack = map;
	return true;
}

static bool reported(struct eqds_rx *rx, u64 now_ns, u32 seq)
{
	if (seq == rx->rcv_nxt)
		rx->head_ns = now_ns;
	rx->stats.nacks++;
	return true;
}

bool eqds_rx_nack(struct eqds_rx *rx, u64 now_ns, u64 timeout_ns, u32 *seq,
		  u64 *sack)
{
	if (!rx->nheld)
		return false;
	if (head_nacked(rx) && eqds_time_since(now_ns, rx->head_ns) >=
			       eqds_rx_renack_after(rx, timeout_ns)) {
		rx->renack_hi = rx->rcv_nxt;
		rx->renack_left = EQDS_RX_RENACKS;
	}
	if (rx->renack_left) {
		/* rearm() keeps renack_hi from lagging rcv_nxt. */
		if (next_hole(rx, &rx->renack_hi, rx->nack_hi, seq, sack)) {
			rx->renack_left--;
			return reported(rx, now_ns, *seq);
		}
		rx->renack_left = 0;
	}
	if (!nack_pending(rx)) {
		next_nack_batch(rx, now_ns);
		return false;
	}
	if (eqds_time_since(now_ns, rx->nack_since_ns) < eqds_rx_nack_after(rx, timeout_ns))
		return false;
	/* rearm() keeps nack_hi from lagging rcv_nxt. */
	if (!next_hole(rx, &rx->nack_hi, rx->nack_end, seq, sack)) {
		next_nack_batch(rx, now_ns);
		return false;
	}
	return reported(rx, now_ns, *seq);
}
