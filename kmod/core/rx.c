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
	if (rx->nheld && !eqds_seq_before(rx->rcv_nxt, rx->gap_end)) {
		rx->gap_since_ns = now_ns;
		rx->gap_end = rx->hold_hi;
	}
}

static bool is_held(u8 v)
{
	return v >= 1 && v <= EQDS_MAX_SEGS;
}

enum eqds_rx_verdict eqds_rx_data(struct eqds_rx *rx, u32 seq, u32 nsegs,
				  u64 now_ns)
{
	s32 d = eqds_seq_diff(seq, rx->rcv_nxt);
	u32 i;

	if (nsegs == 0 || nsegs > EQDS_MAX_SEGS) {
		rx->stats.too_far++;
		return EQDS_RX_TOO_FAR;
	}
	rx->since_ack++;
	if (d < 0) {
		/* Behind: a retransmission, a duplicate, or a very late packet. */
		if (d < -EQDS_RX_AHEAD) {
			rx->stats.too_old++;
			return EQDS_RX_TOO_OLD;
		}
		/* Straddling rcv_nxt: a retransmission cut differently; drop. */
		if (d + (s32)nsegs > 0)
			goto dup;
		for (i = 0; i < nsegs; i++)
			if (rx->slot[eqds_rx_slot(seq + i)] == EQDS_RX_S_DONE)
				goto dup;
		for (i = 0; i < nsegs; i++)
			rx->slot[eqds_rx_slot(seq + i)] = EQDS_RX_S_DONE;
		rx->stats.late++;
		return EQDS_RX_LATE;
	}
	if ((u32)d + nsegs > EQDS_RX_AHEAD) {
		rx->stats.too_far++;
		return EQDS_RX_TOO_FAR;
	}
	for (i = 0; i < nsegs; i++)
		if (rx->slot[eqds_rx_slot(seq + i)] != EQDS_RX_S_EMPTY)
			goto dup;
	if (d == 0) {
		advance(rx, nsegs, EQDS_RX_S_DONE);
		rearm(rx, now_ns);
		return EQDS_RX_DELIVER;
	}
	rx->slot[eqds_rx_slot(seq)] = (u8)nsegs;
	for (i = 1; i < nsegs; i++)
		rx->slot[eqds_rx_slot(seq + i)] = EQDS_RX_S_CONT;
	if (!rx->nheld++) {
		/* The first hole: its wait starts now. */
		rx->gap_since_ns = now_ns;
		rx->gap_end = seq + nsegs;
		rx->hold_hi = seq + nsegs;
	} else if (eqds_seq_after(seq + nsegs, rx->hold_hi)) {
		rx->hold_hi = seq + nsegs;
	}
	rx->stats.held++;
	return EQDS_RX_HOLD;
dup:
	rx->stats.dups++;
	return EQDS_RX_DUP;
}

bool eqds_rx_release(struct eqds_rx *rx, u64 now_ns, u64 timeout_ns, u32 *seq)
{
	u8 v;
	u32 i;

	if (!rx->nheld)
		return false;
	v = rx->slot[eqds_rx_slot(rx->rcv_nxt)];
	if (!is_held(v)) {
		if (eqds_time_since(now_ns, rx->gap_since_ns) < timeout_ns)
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
	return rx->nheld ? rx->gap_since_ns + timeout_ns : 0;
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
