/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tx.h - the sending side of one tunnel: numbering, credit, acknowledgment,
 * retransmission and restart decisions. The queue around it, which
 * packets wait, which are kept until acknowledged and which goes next, is
 * txq.h's; the glue keeps the packets where that model says.
 *
 * An epoch is one incarnation of the tunnel. Its first seq is eqds_isn(epoch)
 * and every data packet carries SYN until the receiver confirms the epoch
 * (any control packet for it with ACK). A receiver that does not know the
 * epoch answers RST, and the sender restarts with a newer epoch, queueing
 * what was in flight again: soft state, no handshake round trip.
 */
#ifndef _EQDS_CORE_TX_H
#define _EQDS_CORE_TX_H

#include "platform.h"
#include "credit.h"
#include "wire.h"

#define EQDS_TX_SLOTS	512	/* most seqs in flight (unacknowledged) */
/* A full window asks for an ack each rto >> this with no progress. */
#define EQDS_TX_STALL_PROBE_SHIFT	3

struct eqds_tx_stats {
	u64	restarts;	/* epochs begun after the first */
	u64	rsts;		/* RSTs received for the current epoch */
	u64	stale_ctrl;	/* control packets for another epoch */
	u64	bad_acks;	/* acks beyond what was sent */
	u64	nacks;
	u64	timeouts;	/* retransmission timeouts */
	u64	rts_sent;
	u64	borrowed;	/* small packets sent on borrowed credit */
};

struct eqds_tx {
	u32	epoch;
	u32	snd_una;	/* oldest unacknowledged seq */
	u32	snd_nxt;	/* next seq to number */
	bool	confirmed;	/* receiver knows the epoch: stop sending SYN */
	bool	burst_mode;
	u32	rto_ns;		/* current retransmission timeout */
	u32	rto_min_ns;
	u64	progress_ns;	/* last ack progress (or first send) */
	u64	recent_ns;	/* start of the current sending interval */
	u32	recent_cur;	/* bytes sent in the current interval */
	u32	recent_prev;	/* bytes sent in the interval before */
	u64	rts_ns;		/* last RTS or last credit arrival */
	u64	busy_until_ns;	/* the receiver's link is busy until then */
	u8	rts_backoff;	/* RTSs in a row with no credit since (shift) */
	struct eqds_credit	credit;
	struct eqds_tx_stats	stats;
};

/* What a control packet or a timer asks the glue to do. */
struct eqds_tx_actions {
	u32	acked_to;	/* new snd_una: free what eqds_tx_acked() allows */
	bool	acked;		/* acked_to is valid and moved */
	bool	restart;	/* the receiver lost the epoch: call eqds_tx_restart */
	bool	retransmit;	/* resend the packet holding retransmit_seq */
	u32	retransmit_seq;
	u64	nack_sack;	/* a NACK's SACK bitmap: see eqds_tx_nack_hole */
	bool	send_rts;	/* ask for credit (nothing sent, nothing pulled) */
	u32	credit_gained;	/* bytes */
	bool	pump_now;	/* core/txq.h: eqds_txq_ctrl() says pump now */
};

/*
 * Begin epoch (nonzero) with no credit in RTS mode or a window of it in
 * burst mode. window and quantum in bytes.
 */
void eqds_tx_init(struct eqds_tx *tx, u32 epoch, u32 window, u32 quantum,
		  bool burst_mode, u32 rto_min_ns, u64 now_ns);

/*
 * Epochs come from a clock (the glue's: wall time in microseconds), so a
 * sender that restarts, or loses its tunnel and makes a new one, picks an
 * epoch after the one the receiver still knows, and packets of an older
 * incarnation are recognisably older. The clock wraps in 2^32 units; the
 * serial comparison holds for half of that.
 */

/*
 * A newer epoch after a restart; same settings. In burst mode it starts
 * with a window of credit again, unless the receiver's last busy time says
 * its link is still saturated: then it asks first (RTS).
 */
void eqds_tx_restart(struct eqds_tx *tx, u64 now_ns, u32 clock);

/* The epoch to use: clock if it is after prev (serial order), else prev + 1; never 0. */
u32 eqds_tx_next_epoch(u32 prev, u32 clock);

/*
 * May a packet of bytes (outer IP bytes, all segments) covering nsegs seqs
 * be sent now? Takes its credit, eqds_tx_cost(), and numbers it (returns
 * true and its first seq) or changes nothing. Retransmissions pass
 * retransmit=true: they spend credit but keep their number.
 *
 * A small packet (one segment costing at most EQDS_TX_SMALL_BYTES: a pure
 * TCP ack, a SYN, an RPC's request) that the credit held does not cover
 * borrows the shortfall, within the overdraft (eqds_tx_set_overdraft(),
 * credit.h), unless the receiver last said its link is busy: then it
 * waits for pulls as anything else. Acks then do not wait a pull round
 * trip on a tunnel that carries little else, and the debt makes the next
 * pulls pay for them.
 */
#define EQDS_TX_SMALL_BYTES	256
bool eqds_tx_send(struct eqds_tx *tx, u32 bytes, u32 nsegs, bool retransmit,
		  u64 now_ns, u32 *seq);
/* Would eqds_tx_send() let it go now? Changes nothing. */
bool eqds_tx_may_send(const struct eqds_tx *tx, u32 bytes, u32 nsegs, bool retransmit,
		      u64 now_ns);

/* The most a small packet may borrow, bytes (at most the window); 0: none. */
void eqds_tx_set_overdraft(struct eqds_tx *tx, u32 bytes);
/*
 * The credit such a packet takes: its bytes and EQDS_FRAME_BYTES per
 * segment, but never more than the window, which is all a sender can ever
 * hold (a one-packet window still sends MTU-sized packets).
 */
static inline u32 eqds_tx_cost(const struct eqds_tx *tx, u32 bytes, u32 nsegs)
{
	u64 cost = (u64)bytes + (u64)nsegs * EQDS_FRAME_BYTES;

	return tx->credit.window && cost > tx->credit.window ?
	       tx->credit.window : (u32)cost;
}

/*
 * May the glue free the sent packet covering [seq, seq + nsegs)? Only once
 * all of it is acknowledged: a GSO packet leaves whole and is split after
 * the sender, so an ack that stops inside it leaves later pieces that may
 * still be lost, and a NACK or timeout for one of them must find the packet
 * to resend.
 */
bool eqds_tx_acked(const struct eqds_tx *tx, u32 seq, u32 nsegs);

/* Flags for a data packet now: SYN until confirmed. */
u8 eqds_tx_data_flags(const struct eqds_tx *tx);

/*
 * TCP Small Queues keep only about a millisecond of data below TCP, so a
 * pull target covering just the queue would cap a flow at that much per
 * pull round trip. The sender also asks for what it sent in the last one
 * or two intervals of this length: a bulk flow keeps up to a window of
 * credit in circulation while its demand lasts, and a sender of the odd
 * small packet asks for little.
 */
#define EQDS_TX_RECENT_NS	2000000ull

/*
 * The pull target for a data packet: quanta wanted beyond the credit held
 * for queued bytes (new + retransmit, outer IP bytes as passed to
 * eqds_tx_send) plus recent sending, capped at a window. The queue's
 * framing is not known packet by packet: it is counted as one frame per
 * quantum less a frame of queued bytes, and one more, no less than the
 * framing of MTU-sized segments (also what the timer compares with the
 * credit held before it asks again).
 */
u16 eqds_tx_pull_target(const struct eqds_tx *tx, u64 queued, u64 now_ns);

/* A decoded control packet from the tunnel's receiver. */
void eqds_tx_ctrl(struct eqds_tx *tx, const struct eqds_pkt *pkt, u64 now_ns,
		  struct eqds_tx_actions *act);

/*
 * After a NACK (retransmit_seq is its ack): is the packet starting at seq
 * one of the further holes its SACK bitmap shows, not received but below
 * a seq that was? Those are resent too: the receiver waited as long for
 * them as for the first.
 */
bool eqds_tx_nack_hole(const struct eqds_tx_actions *act, u32 seq);

/*
 * Timer: retransmit the oldest unacknowledged packet after rto (doubling,
 * up to 64 * rto_min), ask for credit again if queued data (or debt) has
 * waited for any. queued: bytes waiting to be sent.
 *
 * The receiver knows the demand already (every data packet and RTS
 * carries it), so an RTS only helps when that was lost: the wait before
 * one doubles with each RTS that brings no credit (up to 16 rtos), and is
 * at least as long as the receiver said its link stays busy. Otherwise a
 * receiver pulling for many senders in turn, each pull a few ms apart,
 * draws a storm of RTSs that only cost it CPU. The wait counts minimum
 * rtos (rto_min_ns), not the retransmission timeout, which backs off on
 * its own: a sender short of credit cannot even retransmit.
 *
 * A full window with data queued and the credit for it (window_stalled()
 * in tx.c) asks too, rto >> EQDS_TX_STALL_PROBE_SHIFT after the last
 * progress, probe or pull: the acks that would make room may have been
 * lost, and the pull that answers the RTS carries the receiver's ack.
 */
#define EQDS_RTS_MAX_BACKOFF	4
void eqds_tx_timer(struct eqds_tx *tx, u64 now_ns, u64 queued,
		   struct eqds_tx_actions *act);

/*
 * The timer's RTS decision alone: true (and counted) if the credit held is
 * short of queued bytes and debt, or the window is stalled, and the wait
 * above is over.
 */
bool eqds_tx_rts(struct eqds_tx *tx, u64 now_ns, u64 queued);

/* When eqds_tx_timer must next run (0: nothing to wait for). */
u64 eqds_tx_deadline(const struct eqds_tx *tx, u64 queued);

static inline u32 eqds_tx_inflight(const struct eqds_tx *tx)
{
	return tx->snd_nxt - tx->snd_una;
}

#endif /* _EQDS_CORE_TX_H */
