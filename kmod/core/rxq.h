/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rxq.h - the receiving tunnel's decisions around its reorder state
 * (struct eqds_rx, rx.h): which epoch a data packet may be taken for, what
 * goes up the stack and when, what to acknowledge, which holes to NACK, when
 * the tunnel's timer must fire and the demand the pull scheduler sees.
 *
 * The caller (kmod/rx_tunnel.c, the simulator, the loop test) holds the
 * tunnel's lock across the calls, keeps the packets and applies a plan
 * (struct eqds_rxq_plan) in two parts. Still under the lock it keeps
 * plan.path as the tunnel's next path id and arms its timer for
 * plan.timer_ns (eqds_rxq_commit()): after the unlock, the path id could overwrite one taken
 * meanwhile (a PULL's), and the timer could be armed on a tunnel whose
 * removal has already cancelled it. Once it has dropped the lock, it sends
 * the acknowledgment and the NACKs the plan holds. A packet held ahead of
 * a hole is the caller's to keep in a
 * ring of EQDS_RX_AHEAD entries at eqds_rx_held_slot() of its first seq;
 * eqds_rxq_release() names the seq whose packet goes up next.
 *
 * Per event, in this order:
 *   data:   eqds_rxq_admit() (eqds_rxq_begin() after a reset for
 *           EQDS_RXQ_BEGIN), eqds_rxq_demand(), and for a packet with data
 *           (eqds_rxq_may_hold() if the ring is yet to be allocated)
 *           eqds_rxq_data(), eqds_rxq_release() until false, eqds_rxq_done();
 *   timer:  eqds_rxq_release() until false, eqds_rxq_done().
 */
#ifndef _EQDS_CORE_RXQ_H
#define _EQDS_CORE_RXQ_H

#include "platform.h"
#include "rx.h"
#include "epoch.h"
#include "pacer.h"
#include "wire.h"

/*
 * How long a hole may hold back the packets after it: longer than the delay
 * skew between paths (plus timer jitter), or spraying shows TCP reordering,
 * and long enough for a hole NACKed halfway (eqds_rx_nack_after) to be
 * resent, or TCP sees the loss: where resending takes longer, holes wait
 * longer (eqds_rx_hold_after).
 */
#define EQDS_RXQ_REORDER_TIMEOUT_NS	16000000ull
/* Acknowledge at least every this many data packets, */
#define EQDS_RXQ_ACK_EVERY		16
/* and no later than this after one, so the tail of a burst is freed. */
#define EQDS_RXQ_ACK_DELAY_NS		1000000ull
/* NACKs one arrival or timer expiry may send; the rest wait for the next. */
#define EQDS_RXQ_NACK_BURST		8

/* The policy above; the simulator and the tests may choose their own. */
struct eqds_rxq_cfg {
	u64 reorder_timeout_ns;
	u64 ack_delay_ns;
	u32 ack_every;
	u32 nack_burst;		/* at most EQDS_RXQ_NACK_BURST */
};

extern const struct eqds_rxq_cfg eqds_rxq_defaults;

/* One control packet to send: an acknowledgment or a NACK. */
struct eqds_rxq_ctrl {
	u8 flags;		/* EQDS_F_* */
	u8 opts;		/* EQDS_CO_* */
	u8 path;		/* its path id */
	u32 ack;		/* ack: rcv_nxt; NACK: the hole's first seq */
	u64 sack;
};

/*
 * What to send once the lock is dropped: an acknowledgment (send; it may
 * carry the first NACK) and NACKs of further holes, which acknowledge
 * nothing; all for epoch. Path ids are handed out from path on: the caller
 * starts the plan with its tunnel's next path id (eqds_rxq_plan_init()) and
 * keeps plan.path as the next one before it unlocks.
 */
struct eqds_rxq_plan {
	u32 epoch;
	u8 path;
	bool send;
	u8 nnacks;
	struct eqds_rxq_ctrl ack;
	struct eqds_rxq_ctrl nack[EQDS_RXQ_NACK_BURST];
	u64 timer_ns;		/* fire the tunnel's timer by then (0: no need) */
	u64 skipped;		/* seqs given up on by the releases */
	u32 last_skipped;	/* of those, by the last release */
	/* A release gave up on a hole: the NACK for its first seq. */
	bool gave_up;
	u32 first_missing;
};

static inline void eqds_rxq_plan_init(struct eqds_rxq_plan *p, u8 path)
{
	memset(p, 0, sizeof(*p));
	p->path = path;
}

/*
 * The control packet that sends m for epoch; the caller adds what it
 * knows besides (busy time, options).
 */
void eqds_rxq_ctrl_pkt(const struct eqds_rxq_ctrl *m, u32 epoch, struct eqds_pkt *pkt);

/*
 * The RST for data of an epoch the receiver holds no state for
 * (EQDS_RXQ_RST, or no tunnel at all): the sender restarts.
 */
void eqds_rxq_rst_pkt(u32 epoch, struct eqds_pkt *pkt);

/* The NACKs in a plan (the acknowledgment may be one). */
u32 eqds_rxq_plan_nacks(const struct eqds_rxq_plan *p);

/*
 * The part of plan p its tunnel keeps under the lock: *path becomes the
 * tunnel's next path id, and the tunnel's counters grow by the NACKs the
 * plan sends (*nacks) and the seqs its releases gave up on (*skipped);
 * either may be NULL, not counted. Returns when the tunnel's timer must
 * fire (0: no need), to arm before the unlock.
 */
u64 eqds_rxq_commit(const struct eqds_rxq_plan *p, u8 *path, u64 *nacks, u64 *skipped);

/* The slot of a held packet's first seq in the caller's packet ring. */
static inline u32 eqds_rx_held_slot(u32 seq)
{
	return seq & (EQDS_RX_AHEAD - 1);
}

/*
 * Whether eqds_rxq_data() could ask the caller to keep a packet covering
 * nsegs seqs from seq: one ahead of a hole, within the reorder window, on
 * seqs nothing holds. The caller needs its ring only then, so it may
 * allocate the ring late: a duplicate, a late packet or one beyond the
 * window is answered (re-acknowledged, delivered, dropped) without one.
 */
static inline bool eqds_rxq_may_hold(const struct eqds_rx *rx, u32 seq, u32 nsegs)
{
	return eqds_rx_classify(rx, seq, nsegs) == EQDS_RX_HOLD;
}

enum eqds_rxq_admit {
	EQDS_RXQ_TAKE,		/* the followed epoch: go on */
	/*
	 * A SYN beginning a new epoch: drop what is held, stop pulling for
	 * the old epoch, eqds_rx_init() for this one, then eqds_rxq_begin()
	 * and go on.
	 */
	EQDS_RXQ_BEGIN,
	EQDS_RXQ_RST,		/* unknown epoch: drop, answer with an RST */
	EQDS_RXQ_STALE,		/* the followed epoch, disowned: drop */
	/* Another epoch: drop; plan.send is a challenge (an ack of ours). */
	EQDS_RXQ_REFUSED,
};

/*
 * A data packet (or RTS) for epoch arrived at now_ns: whether it is taken,
 * by core/epoch.h's rules.
 */
enum eqds_rxq_admit eqds_rxq_admit(struct eqds_rx *rx, struct eqds_epoch_guard *g,
				   u32 epoch, bool syn, u64 now_ns,
				   struct eqds_rxq_plan *p);

/* After EQDS_RXQ_BEGIN's reset: the new epoch is acknowledged at once. */
void eqds_rxq_begin(struct eqds_rx *rx, struct eqds_epoch_guard *g,
		    struct eqds_rxq_plan *p);

/*
 * The sender's pull target (absolute, see eqds_pullgen_demand(); probe for
 * an RTS): what the tunnel wants pulled, told to the scheduler (its
 * backlog, and the tunnel activated if it wants any). Returns the quanta
 * wanted: nonzero means the pacer should run. The scheduler's lock is the
 * caller's to hold.
 */
u32 eqds_rxq_demand(struct eqds_sched *s, struct eqds_rx *rx, u16 pull_target,
		    bool probe);

/*
 * The data of an admitted packet (eqds_rx_packet()); a duplicate is
 * acknowledged again, since the sender may have missed the ack. The caller
 * delivers on EQDS_RX_DELIVER and EQDS_RX_LATE, keeps the packet on
 * EQDS_RX_HOLD and drops it otherwise (counted: duplicate, out of window).
 */
enum eqds_rx_verdict eqds_rxq_data(struct eqds_rx *rx, u32 seq, u32 nsegs,
				   bool retransmit, u64 now_ns,
				   struct eqds_rxq_plan *p);

/*
 * The next held packet that goes up now: true and its first seq, the
 * packet at eqds_rx_held_slot(*seq) of the caller's ring; call until false.
 * A hole given up on is NACKed too (the sender resends it, it is delivered
 * late).
 */
bool eqds_rxq_release(struct eqds_rx *rx, const struct eqds_rxq_cfg *cfg,
		      u64 now_ns, struct eqds_rxq_plan *p, u32 *seq);

/*
 * After the releases: NACKs of holes that have waited longer than holes
 * take to fill while the packets after them are still held, the timer for
 * the next such hole or release, and the acknowledgment policy: every
 * cfg->ack_every data packets, or cfg->ack_delay_ns after one (timer:
 * this call is for a timer expiry, which acknowledges what is pending).
 */
void eqds_rxq_done(struct eqds_rx *rx, const struct eqds_rxq_cfg *cfg,
		   u64 now_ns, bool timer, struct eqds_rxq_plan *p);

#endif /* _EQDS_CORE_RXQ_H */
