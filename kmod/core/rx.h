/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rx.h - the receiving side of one tunnel: in-order release of sprayed
 * packets (the reorder window), duplicate suppression, and what to
 * acknowledge. This state says when each packet may go up the stack; the
 * packets themselves are the glue's to keep. The glue keeps the held ones
 * in a ring beside slot[], EQDS_RX_AHEAD entries at eqds_rx_held_slot() of
 * their first seq (rxq.h, which drives this state for the glue); slot[]
 * below is only this state, indexed by eqds_rx_slot(seq).
 *
 * Sequence space around rcv_nxt, EQDS_RX_SLOTS seqs in all:
 *   [rcv_nxt - EQDS_RX_AHEAD, rcv_nxt)  behind: delivered or given up on
 *   [rcv_nxt, rcv_nxt + EQDS_RX_AHEAD)  ahead: held, waiting for a hole
 * A packet behind that was given up on (its hole timed out) is delivered
 * late when it finally comes; one delivered already is a duplicate.
 * A packet may cover several seqs (an unsplit GSO packet): it is held at
 * the slot of its first seq.
 */
#ifndef _EQDS_CORE_RX_H
#define _EQDS_CORE_RX_H

#include "platform.h"
#include <linux/eqds_wire.h>
#include "credit.h"
#include "pacer.h"
#include "paths.h"

#define EQDS_RX_AHEAD	512
#define EQDS_RX_SLOTS	(2 * EQDS_RX_AHEAD)

enum eqds_rx_verdict {
	EQDS_RX_DELIVER,	/* in order: deliver now, then drain with release */
	EQDS_RX_LATE,		/* behind, never delivered: deliver now */
	EQDS_RX_HOLD,		/* ahead of a hole: store at its slot */
	EQDS_RX_DUP,		/* delivered or held already: drop */
	EQDS_RX_TOO_OLD,	/* behind the tracked window: drop */
	EQDS_RX_TOO_FAR,	/* beyond the reorder window: drop */
};

struct eqds_rx_stats {
	u64	late;		/* delivered after their hole timed out */
	u64	dups;
	u64	too_old;
	u64	too_far;
	u64	skipped;	/* seqs given up on when a hole timed out */
	u64	held;		/* packets that had to wait for a hole */
	u64	nacks;		/* holes reported missing (again while they stay) */
};

struct eqds_rx {
	u32	epoch;		/* the sender's incarnation */
	u32	rcv_nxt;	/* next seq to deliver in order */
	u32	nheld;		/* packets held ahead */
	u64	gap_since_ns;	/* holes before gap_end are waited on since */
	u32	gap_end;	/* end of a packet held since gap_since_ns */
	u32	hold_hi;	/* one past the furthest seq held */
	u32	since_ack;	/* data packets since the last acknowledgment */
	u32	nack_hi;	/* holes before this were NACKed already */
	u32	nack_end;	/* NACK batch: holes before this, */
	u64	nack_since_ns;	/* waited on since this */
	u32	head;		/* rcv_nxt when head_ns was set */
	u64	head_ns;	/* the hole at head was NACKed, or became the head */
	u32	renack_hi;	/* second report: holes before this were again, */
	u8	renack_left;	/* and this many more NACKs may be sent */
	u32	skew_ns;	/* how long holes take to fill by themselves */
	u32	repair_ns;	/* and NACKed ones to be resent */
	bool	ce_echo;	/* a CE-marked arrival's path id to echo */
	u8	ce_path;
	/*
	 * Path ids for control packets to skip: the glue's copy of the bad
	 * ids of its host's sending tunnel to the peer (eqds_rx_avoid()).
	 */
	u32	avoid[EQDS_PATHS / 32];
	u8	slot[EQDS_RX_SLOTS];	/* EQDS_RX_S_*, or a held packet's seq count */
	struct eqds_pullgen	pulls;
	struct eqds_asl_node	asl;
	struct eqds_rx_stats	stats;
};

/* slot[] values besides 1..EQDS_MAX_SEGS (a held packet's first seq). */
#define EQDS_RX_S_EMPTY	0	/* ahead: nothing; behind: given up on */
#define EQDS_RX_S_CONT	0xfe	/* ahead: covered by the packet held before it */
#define EQDS_RX_S_DONE	0xff	/* behind: delivered */

static inline u32 eqds_rx_slot(u32 seq)
{
	return seq & (EQDS_RX_SLOTS - 1);
}

/*
 * The sequence number a sender starts an epoch with. Derived from the epoch
 * so no field carries it and the receiver knows where an incarnation starts
 * even when its first packets arrive out of order.
 */
static inline u32 eqds_isn(u32 epoch)
{
	return epoch * 2654435761u;
}

/* Start (or restart, for a new epoch) the state; window in quanta. */
void eqds_rx_init(struct eqds_rx *rx, u32 epoch, u32 window_quanta, u32 weight);

/*
 * A data packet covering nsegs seqs from seq arrived at now_ns;
 * retransmit: the sender marked it a retransmission (EQDS_F_RTX), so the
 * time its hole waited says nothing about the paths' skew.
 */
enum eqds_rx_verdict eqds_rx_packet(struct eqds_rx *rx, u32 seq, u32 nsegs,
				    bool retransmit, u64 now_ns);

/*
 * What eqds_rx_packet() would say of a packet covering nsegs seqs from
 * seq, without taking it.
 */
enum eqds_rx_verdict eqds_rx_classify(const struct eqds_rx *rx, u32 seq, u32 nsegs);

/*
 * A data packet that came on path arrived CE-marked: the next control
 * packet to the sender echoes path (EQDS_CO_CE), so its sender sprays
 * around it (paths.h). Marks between two control packets echo the last.
 */
static inline void eqds_rx_ce(struct eqds_rx *rx, u8 path)
{
	rx->ce_path = path;
	rx->ce_echo = true;
}

/*
 * The ids that our data to the peer avoids, bad[] of its sending tunnel's
 * paths (EQDS_PATHS bits), or NULL when there is none: control packets to
 * it skip them from now on.
 */
static inline void eqds_rx_avoid(struct eqds_rx *rx, const u32 *bad)
{
	u32 i;

	for (i = 0; i < EQDS_PATHS / 32; i++)
		rx->avoid[i] = bad ? bad[i] : 0;
}

/* A control packet being built carries the pending echo: its options and path id. */
static inline void eqds_rx_echo_ce(struct eqds_rx *rx, u8 *opts, u8 *path)
{
	if (!rx->ce_echo)
		return;
	*opts |= EQDS_CO_CE;
	*path = rx->ce_path;
	rx->ce_echo = false;
}

/* An original (not retransmitted) data packet. */
static inline enum eqds_rx_verdict eqds_rx_data(struct eqds_rx *rx, u32 seq,
						u32 nsegs, u64 now_ns)
{
	return eqds_rx_packet(rx, seq, nsegs, false, now_ns);
}

/*
 * The next held packet that may go up the stack now: the one at rcv_nxt,
 * or, once the hole before the oldest held packet has been waited on for
 * eqds_rx_hold_after(timeout_ns), that packet after giving up on the hole.
 * Returns true and its first seq (the glue takes the packet from
 * eqds_rx_slot(seq)); false when nothing is due. Call until false after
 * every arrival and timer expiry.
 *
 * A hole is given up on once some packet beyond it has been held that
 * long. Without a timestamp per packet, holes are waited on in batches:
 * when the wait starts (the first packet held, or the previous batch
 * passed), every hole before a packet held at that moment belongs to the
 * batch, and the whole batch is given up on together a wait later. So no
 * hole waits more than two such waits, and losing more than one packet
 * per wait does not make the window fall further and further behind.
 */
bool eqds_rx_release(struct eqds_rx *rx, u64 now_ns, u64 timeout_ns, u32 *seq);

/* When the release timer must fire (0: no hole is being waited on). */
u64 eqds_rx_deadline(const struct eqds_rx *rx, u64 timeout_ns);

/*
 * How long holes are waited on before they are given up on: timeout_ns,
 * or longer where retransmissions take longer than the half of it the
 * NACK delay leaves them. The time from the NACK of the hole at rcv_nxt
 * to the
 * retransmission that fills it is learnt as the skew is (a decaying
 * maximum), and a hole is waited on for its NACK delay plus two such
 * repairs (one lost NACK or retransmission is then repaired in time too),
 * at most EQDS_RX_HOLD_MAX timeouts: over a path whose queue takes longer
 * to drain than the timeout, TCP would otherwise see every loss as
 * reordering first and retransmit what EQDS is about to deliver.
 */
#define EQDS_RX_HOLD_MAX	4
u64 eqds_rx_hold_after(const struct eqds_rx *rx, u64 timeout_ns);

/*
 * Loss recovery inside the reorder timeout. Sprayed packets fill holes
 * within the paths' delay skew; a hole older than that is likely a loss.
 * Reporting it (NACK, with the SACK bitmap so the sender resends every hole
 * it shows) while the packets after it are still held lets the
 * retransmission arrive before the hole is given up on, so TCP sees
 * neither the loss nor reordering. The skew is learnt from holes that
 * filled without a NACK (a decaying maximum); a hole is NACKed once it has
 * waited one and a half skews plus a slack, never sooner than the minimum
 * and never later than half the release timeout (the retransmission needs
 * the other half).
 */
#define EQDS_RX_NACK_MIN_NS	250000u
#define EQDS_RX_NACK_SLACK_NS	250000u

/* How long the hole at rcv_nxt is waited on before it is NACKed. */
u64 eqds_rx_nack_after(const struct eqds_rx *rx, u64 timeout_ns);

/*
 * How long the hole at rcv_nxt, once NACKed, is waited on before the holes
 * are NACKed again: a lost NACK, or a lost retransmission (a failed link
 * takes both), would otherwise hold everything back until the sender's
 * timeout or the release timeout, and fill the sender's window meanwhile.
 * Two NACK delays (learnt from the skew, not the round trip: a slow
 * retransmission may be asked for twice), at most a quarter of the release
 * timeout so a hole has at least three more tries before it is given up on.
 * The holes left are reported again, not only the head (the NACKs of the
 * holes further on may have been lost as well), the head first, in at most
 * EQDS_RX_RENACKS NACKs: a hole of many seqs and no packet held within a
 * bitmap after it would take a NACK per seq.
 */
#define EQDS_RX_RENACKS	8
u64 eqds_rx_renack_after(const struct eqds_rx *rx, u64 timeout_ns);

/*
 * The next NACK due now, if any: call until false. Once the current batch
 * of holes (those before the furthest packet held when it began) has
 * waited eqds_rx_nack_after(), each of its holes is reported once: *seq is
 * its first missing seq (rcv_nxt for the first: that NACK also
 * acknowledges) and *sack the bitmap after it, relative to *seq; the holes
 * below the bitmap's highest bit count as reported with it. While the hole
 * at rcv_nxt stays, they are reported again each eqds_rx_renack_after().
 */
bool eqds_rx_nack(struct eqds_rx *rx, u64 now_ns, u64 timeout_ns, u32 *seq,
		  u64 *sack);

/* When eqds_rx_nack will next say yes (0: no hole waits for a NACK). */
u64 eqds_rx_nack_deadline(const struct eqds_rx *rx, u64 timeout_ns);

/*
 * Acknowledgment state: cumulative ack (rcv_nxt) and a bitmap of the 64
 * seqs after it that are held (bit i = rcv_nxt + 1 + i, as eqds_sack_has()).
 */
u64 eqds_rx_sack(const struct eqds_rx *rx);

#endif /* _EQDS_CORE_RX_H */
