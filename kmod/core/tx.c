// SPDX-License-Identifier: GPL-2.0
/*
 * tx.c - the sending side of one tunnel.
 */
#include "tx.h"
#include "rx.h"
#include "seq.h"

#define EQDS_RTO_MAX_SHIFT	6

void eqds_tx_init(struct eqds_tx *tx, u32 epoch, u32 window, u32 quantum,
		  bool burst_mode, u32 rto_min_ns, u64 now_ns)
{
	memset(tx, 0, sizeof(*tx));
	tx->epoch = epoch;
	tx->snd_una = eqds_isn(epoch);
	tx->snd_nxt = tx->snd_una;
	tx->burst_mode = burst_mode;
	tx->rto_min_ns = rto_min_ns;
	tx->rto_ns = rto_min_ns;
	tx->progress_ns = now_ns;
	tx->rts_ns = now_ns;
	eqds_credit_init(&tx->credit, window, quantum, burst_mode ? window : 0);
}

u32 eqds_tx_next_epoch(u32 prev, u32 clock)
{
	u32 e = eqds_seq_after(clock, prev) ? clock : prev + 1;

	return e ? e : 1;
}

void eqds_tx_restart(struct eqds_tx *tx, u64 now_ns, u32 clock)
{
	struct eqds_tx_stats stats = tx->stats;
	u32 overdraft = tx->credit.overdraft;
	u32 epoch = eqds_tx_next_epoch(tx->epoch, clock);
	bool busy = now_ns < tx->busy_until_ns;
	u64 busy_until = tx->busy_until_ns;

	eqds_tx_init(tx, epoch, tx->credit.window, tx->credit.quantum,
		     tx->burst_mode, tx->rto_min_ns, now_ns);
	if (busy)
		eqds_credit_init(&tx->credit, tx->credit.window,
				 tx->credit.quantum, 0);
	tx->busy_until_ns = busy_until;
	/* The old epoch's debt is forgiven with its credit: a new allowance. */
	tx->credit.overdraft = overdraft;
	tx->stats = stats;
	tx->stats.restarts++;
}

void eqds_tx_set_overdraft(struct eqds_tx *tx, u32 bytes)
{
	tx->credit.overdraft = eqds_min_u32(bytes, tx->credit.window);
}

static bool eqds_tx_may_borrow(const struct eqds_tx *tx, u32 cost, u32 nsegs, u64 now_ns)
{
	return nsegs == 1 && cost <= EQDS_TX_SMALL_BYTES && now_ns >= tx->busy_until_ns &&
	       eqds_credit_may_borrow(&tx->credit, cost);
}

bool eqds_tx_may_send(const struct eqds_tx *tx, u32 bytes, u32 nsegs, bool retransmit,
		      u64 now_ns)
{
	u32 cost = eqds_tx_cost(tx, bytes, nsegs);

	if (!retransmit && eqds_tx_inflight(tx) + nsegs > EQDS_TX_SLOTS)
		return false;
	return cost <= tx->credit.credit || eqds_tx_may_borrow(tx, cost, nsegs, now_ns);
}

bool eqds_tx_send(struct eqds_tx *tx, u32 bytes, u32 nsegs, bool retransmit,
		  u64 now_ns, u32 *seq)
{
	u32 cost = eqds_tx_cost(tx, bytes, nsegs);

	if (!eqds_tx_may_send(tx, bytes, nsegs, retransmit, now_ns))
		return false;
	if (!eqds_credit_take(&tx->credit, cost)) {
		eqds_credit_borrow(&tx->credit, cost);
		tx->stats.borrowed++;
	}
	if (retransmit)
		return true;
	if (tx->snd_una == tx->snd_nxt)
		tx->progress_ns = now_ns;
	*seq = tx->snd_nxt;
	tx->snd_nxt += nsegs;
	if (eqds_time_since(now_ns, tx->recent_ns) >= EQDS_TX_RECENT_NS) {
		bool adjacent = now_ns - tx->recent_ns < 2 * EQDS_TX_RECENT_NS;

		tx->recent_prev = adjacent ? tx->recent_cur : 0;
		tx->recent_cur = 0;
		tx->recent_ns = now_ns;
	}
	tx->recent_cur += cost;
	return true;
}

bool eqds_tx_acked(const struct eqds_tx *tx, u32 seq, u32 nsegs)
{
	return !eqds_seq_after(seq + nsegs, tx->snd_una);
}

u8 eqds_tx_data_flags(const struct eqds_tx *tx)
{
	return tx->confirmed ? 0 : EQDS_F_SYN;
}

/*
 * What queued bytes will cost in credit. The queue's framing is not known
 * packet by packet: it is counted as one frame per quantum less a frame of
 * bytes, and one more, which is no less than the real framing of segments
 * that fill a quantum's link time (1498 + 38 bytes in a 1536-byte quantum,
 * so MTU-sized ones). Counting a frame per whole quantum fell a frame short
 * for a GSO packet of more than 42 of them: with absolute demand nothing
 * else asks for that frame, and the timer saw no reason to ask either.
 */
static u64 queued_cost(const struct eqds_tx *tx, u64 queued)
{
	u32 q = tx->credit.quantum;

	if (!queued || !q)
		return queued;
	if (q > 2 * EQDS_FRAME_BYTES)
		q -= EQDS_FRAME_BYTES;
	return queued + (eqds_div_u64(queued, q) + 1) * EQDS_FRAME_BYTES;
}

u16 eqds_tx_pull_target(const struct eqds_tx *tx, u64 queued, u64 now_ns)
{
	u64 age = eqds_time_since(now_ns, tx->recent_ns);
	u64 recent = 0;

	if (age < EQDS_TX_RECENT_NS)
		recent = (u64)tx->recent_cur + tx->recent_prev;
	else if (age < 2 * EQDS_TX_RECENT_NS)
		recent = tx->recent_cur;
	return eqds_credit_pull_target(&tx->credit, queued_cost(tx, queued), recent);
}

void eqds_tx_ctrl(struct eqds_tx *tx, const struct eqds_pkt *pkt, u64 now_ns,
		  struct eqds_tx_actions *act)
{
	const struct eqds_pkt_ctrl *c = &pkt->ctrl;

	memset(act, 0, sizeof(*act));
	if (pkt->epoch != tx->epoch) {
		tx->stats.stale_ctrl++;
		return;
	}
	if (pkt->flags & EQDS_F_RST) {
		tx->stats.rsts++;
		act->restart = true;
		return;
	}
	if (pkt->flags & EQDS_F_ACK) {
		/*
		 * An ack may not pass what was sent; one behind snd_una is an
		 * older ack overtaken by a newer one (acks are sprayed too),
		 * not an error, and moves nothing.
		 */
		if (eqds_seq_after(c->ack, tx->snd_nxt)) {
			tx->stats.bad_acks++;
		} else if (!eqds_seq_before(c->ack, tx->snd_una)) {
			tx->confirmed = true;
			if (c->ack != tx->snd_una) {
				tx->snd_una = c->ack;
				tx->progress_ns = now_ns;
				tx->rto_ns = tx->rto_min_ns;
				act->acked = true;
				act->acked_to = c->ack;
			}
		}
	}
	if ((pkt->flags & EQDS_F_NACK) &&
	    eqds_seq_in_window(c->ack, tx->snd_una, eqds_tx_inflight(tx))) {
		tx->stats.nacks++;
		act->retransmit = true;
		act->retransmit_seq = c->ack;
		if (pkt->flags & EQDS_F_SACK)
			act->nack_sack = c->sack;
	}
	/* Every answer of the receiver's says how busy its link is now. */
	tx->busy_until_ns = now_ns + (u64)c->busy_us * 1000;
	if (pkt->flags & EQDS_F_PULL) {
		act->credit_gained = eqds_credit_pull(&tx->credit, c->pull_no,
						      eqds_quantum_bytes(c->quantum));
		tx->rts_ns = now_ns;
		tx->rts_backoff = 0;
	}
}

bool eqds_tx_nack_hole(const struct eqds_tx_actions *act, u32 seq)
{
	u32 off = seq - act->retransmit_seq - 1;

	if (!act->retransmit || off >= 64)
		return false;
	return !((act->nack_sack >> off) & 1) && (act->nack_sack >> off);
}

/*
 * The doubled rto, at most 64 * rto_min and 2^32 - 1 ns; in 64 bits, as
 * rto_min << 6 overflows 32 bits from rto_min = 67 ms.
 */
static u32 eqds_tx_backoff(const struct eqds_tx *tx)
{
	u64 max = (u64)tx->rto_min_ns << EQDS_RTO_MAX_SHIFT;
	u64 rto = (u64)tx->rto_ns << 1;

	if (tx->rto_ns >= max)
		return tx->rto_ns;
	return (u32)eqds_min_u64(eqds_min_u64(rto, max), 0xffffffffu);
}

/* When queued data that waits for credit may ask for it again. */
static u64 rts_due(const struct eqds_tx *tx)
{
	u64 due = tx->rts_ns + ((u64)tx->rto_min_ns << tx->rts_backoff);

	return due > tx->busy_until_ns ? due : tx->busy_until_ns;
}

void eqds_tx_timer(struct eqds_tx *tx, u64 now_ns, u64 queued,
		   struct eqds_tx_actions *act)
{
	memset(act, 0, sizeof(*act));
	if (eqds_tx_inflight(tx) &&
	    eqds_time_since(now_ns, tx->progress_ns) >= tx->rto_ns) {
		tx->stats.timeouts++;
		act->retransmit = true;
		act->retransmit_seq = tx->snd_una;
		tx->progress_ns = now_ns;
		tx->rto_ns = eqds_tx_backoff(tx);
	}
	act->send_rts = eqds_tx_rts(tx, now_ns, queued);
}

/* Credit wanted: the queue's cost and the debt, beyond the credit held. */
static bool short_of_credit(const struct eqds_tx *tx, u64 queued)
{
	return queued_cost(tx, queued) + tx->credit.debt > tx->credit.credit;
}

/*
 * Queued data with the credit to go but maybe not the window: every seq,
 * or all but fewer than a largest packet's, in flight. If the acks that
 * would make room were lost, nothing the sender sends makes the receiver
 * ack again. (Short of credit, the credit RTS and its backoff apply.)
 */
static bool window_stalled(const struct eqds_tx *tx, u64 queued)
{
	return queued && !short_of_credit(tx, queued) &&
	       eqds_tx_inflight(tx) + EQDS_MAX_SEGS > EQDS_TX_SLOTS;
}

/*
 * When a stalled window asks for an ack: an RTS, which the receiver
 * answers with a pull carrying its ack, an eighth of the rto after the
 * last progress, probe or pull, long before the retransmission timeout.
 * The rto's backoff slows the probes to a peer that stopped answering.
 */
static u64 stall_due(const struct eqds_tx *tx)
{
	u64 since = tx->progress_ns > tx->rts_ns ? tx->progress_ns : tx->rts_ns;
	u32 wait = tx->rto_ns >> EQDS_TX_STALL_PROBE_SHIFT;

	return since + (wait ? wait : 1);
}

bool eqds_tx_rts(struct eqds_tx *tx, u64 now_ns, u64 queued)
{
	bool credit = short_of_credit(tx, queued) && now_ns >= rts_due(tx);

	if (!credit && !(window_stalled(tx, queued) && now_ns >= stall_due(tx)))
		return false;
	tx->stats.rts_sent++;
	tx->rts_ns = now_ns;
	if (credit && tx->rts_backoff < EQDS_RTS_MAX_BACKOFF)
		tx->rts_backoff++;
	return true;
}

u64 eqds_tx_deadline(const struct eqds_tx *tx, u64 queued)
{
	u64 d = 0;

	if (eqds_tx_inflight(tx))
		d = tx->progress_ns + tx->rto_ns;
	if (short_of_credit(tx, queued) && (!d || rts_due(tx) < d))
		d = rts_due(tx);
	if (window_stalled(tx, queued) && (!d || stall_due(tx) < d))
		d = stall_due(tx);
	return d;
}
