/* SPDX-License-Identifier: GPL-2.0 */
/*
 * txq.h - the sending EQIF queue of one tunnel: what waits in each class,
 * what was sent and is kept until acknowledged, what is to be resent, and
 * which of them goes next. struct eqds_tx (tx.h) numbers and charges each
 * packet; this model decides the order and the bookkeeping around it.
 *
 * The packets themselves are the glue's (sk_buffs in the module, records in
 * the simulator and the loop test), held in parallel structures that the
 * core indexes: one FIFO per class, whose heads the glue describes to the
 * pump (struct eqds_txq_desc), and a ring of kept copies whose slot i goes
 * with the core's ring[i]. The glue moves packets only where the core says,
 * and only between its calls: lock, call the core, apply what it said,
 * unlock, send.
 *
 * The pump, one step at a time: eqds_txq_pump_next() says what goes next
 * and changes nothing but dropping retransmissions of packets freed
 * meanwhile; the glue then makes the packet (dequeues it, clones a kept
 * one, allocates an RTS) and calls eqds_txq_commit(), which takes the
 * credit, the seq and the path id, or, if it could not, eqds_txq_skip(),
 * which takes none of them. The order: retransmissions first (while their
 * credit lasts), then new packets, the highest class first (strict
 * priority: the low-latency class's short queue limit bounds its share),
 * each class in order; when the head of a class does not fit the credit,
 * no lower class goes either, as it would take the credit the higher one
 * waits for. Last, an RTS if one is due and nothing else went.
 *
 * Locking: none here; the glue serialises every call on one queue (the
 * module under the tunnel's lock).
 */
#ifndef _EQDS_CORE_TXQ_H
#define _EQDS_CORE_TXQ_H

#include "platform.h"
#include "paths.h"
#include "tx.h"
#include "epoch.h"
#include "ctrl_check.h"
#include "wire.h"

/* Classes, served from the highest: 0 TCP-compatible, 1 low latency. */
#define EQDS_TXQ_NCLASSES	2
#define EQDS_TXQ_RTX_MAX	32	/* seqs waiting to be retransmitted */
/*
 * Ring sizes: the first send gets the smallest, more packets in flight
 * grow it. A packet whose ack stopped inside it is kept at its first seq,
 * up to EQDS_MAX_SEGS - 1 before snd_una, so the ring spans up to that
 * much more than the EQDS_TX_SLOTS seqs that may be in flight.
 */
#define EQDS_TXQ_RING_MIN	8
#define EQDS_TXQ_RING_MAX	(2 * EQDS_TX_SLOTS)
#define EQDS_TXQ_NONE		0xffffffffu	/* no slot */
/*
 * A tunnel's start: the quantum it assumes until the first pull says
 * otherwise, and the floor of its retransmission timeout.
 */
#define EQDS_TXQ_QUANTUM_GUESS	1536
#define EQDS_TXQ_RTO_MIN_NS	10000000u

/*
 * A packet: waiting (the head of a class queue, described by the glue) or
 * kept after sending (a ring slot, nsegs 0 when empty). Eight bytes, so a
 * full ring is one 8 KB allocation. nsegs fits a byte: eqds_txq_enqueue()
 * takes no packet of more than EQDS_MAX_SEGS segments (the glue splits
 * them first, eqds_txq_must_split()).
 */
struct eqds_txq_desc {
	u32	wire_bytes:24;	/* outer IP bytes, all segments: its credit */
	u32	path:8;		/* kept: the path id it last went on */
	u16	seq_lo;		/* kept: the low bits of its first seq */
	u8	nsegs;		/* seqs it consumes */
	u8	cls;
};

/* Largest packet a descriptor holds, wire bytes: EQDS_MAX_SEGS of 64 KB and more. */
#define EQDS_TXQ_WIRE_MAX	((1u << 24) - 1)
static_assert(sizeof(struct eqds_txq_desc) == 8, "a full ring is one 8 KB allocation");

struct eqds_txq {
	struct eqds_tx	tx;
	u64	queued_bytes;	/* wire bytes waiting in the class queues */
	u32	qlen[EQDS_TXQ_NCLASSES];	/* packets waiting, per class */
	u32	rtx[EQDS_TXQ_RTX_MAX];	/* seqs to resend before new data */
	u8	nrtx;
	struct eqds_paths	paths;	/* spraying: the next path id */
	bool	rts_due;	/* ask for credit at the next pump */
	struct eqds_ratelimit	disown_rl;	/* FINs for epochs we left */
	/*
	 * Kept packets, each at its first seq modulo ring_size (a power of
	 * two, or 0 before the first send). The memory is the glue's: see
	 * eqds_txq_ring_move().
	 */
	struct eqds_txq_desc	*ring;
	u32	ring_size;
};

/* A tunnel's first epoch: the clock as it is (never 0). */
static inline u32 eqds_txq_first_epoch(u32 clock)
{
	/*
	 * Not eqds_tx_next_epoch(0, clock): that gives 1 whenever bit 31 of
	 * the clock is set, so every incarnation would reuse epoch 1 for half
	 * of each 71-minute period.
	 */
	return clock ? clock : 1;
}

/*
 * Bytes a packet puts on the wire once encapsulated (and split): len bytes
 * of inner packet whose headers up to its payload are hdr bytes, sent as
 * nsegs segments, each with overhead bytes of outer headers.
 */
static inline u32 eqds_txq_wire_bytes(u32 len, u32 hdr, u32 nsegs, u32 overhead)
{
	if (nsegs <= 1)
		return len + overhead;
	return len - hdr + nsegs * (hdr + overhead);
}

/*
 * Start a queue: empty, no ring, path ids from path, an RTS due in RTS
 * mode. The rest as eqds_tx_init().
 */
void eqds_txq_init(struct eqds_txq *q, u32 epoch, u32 window, u32 quantum,
		   bool burst_mode, u32 rto_min_ns, u64 now_ns, u8 path);

/*
 * Start a tunnel's queue (eqds_txq_init()): its first epoch from clock, a
 * window of window_pkts quanta of EQDS_TXQ_QUANTUM_GUESS bytes.
 */
void eqds_txq_start(struct eqds_txq *q, u32 window_pkts, bool burst_mode,
		    u32 rto_min_ns, u32 clock, u64 now_ns, u8 path);

/* A class's queue limits: packets, and the RED marking thresholds (0: default). */
struct eqds_txq_limits {
	u32	queue_limit;
	u32	ecn_min;
	u32	ecn_max;
};

/*
 * The bytes that wait in the queues of every tunnel of the namespace and
 * of every namespace of the host, each against its limit (0: none).
 */
struct eqds_txq_totals {
	u64	ns_bytes;
	u64	ns_limit;
	u64	host_bytes;
	u64	host_limit;
};

enum eqds_txq_admit {
	EQDS_TXQ_DROP,		/* the class queue is full */
	EQDS_TXQ_QUEUE,
	EQDS_TXQ_MARK,		/* queue it, marked CE if ECN-capable */
	EQDS_TXQ_RED,		/* queue it; eqds_txq_red_mark() says whether to mark */
	EQDS_TXQ_DROP_TOTAL,	/* the namespace's or the host's total is at its limit */
	/* No such class, or not 1..EQDS_MAX_SEGS seqs (eqds_txq_must_split()). */
	EQDS_TXQ_DROP_INVALID,
};

/* Does the packet join its queue (marked or not)? */
static inline bool eqds_txq_admitted(enum eqds_txq_admit a)
{
	return a == EQDS_TXQ_QUEUE || a == EQDS_TXQ_MARK || a == EQDS_TXQ_RED;
}

/*
 * Must a GSO packet of len bytes in nsegs segments, each to get overhead
 * bytes of outer headers, be split before it is queued? A packet consumes
 * at most EQDS_MAX_SEGS seqs, and one whose bytes, with the outer headers
 * of that many segments, pass the window could never be granted its
 * credit in one window.
 */
bool eqds_txq_must_split(const struct eqds_txq *q, u32 len, u32 nsegs, u32 overhead);

/*
 * May a packet of wire_bytes in nsegs seqs join class cls? First, the
 * totals (NULL: none) must stay within their limits: with thousands of
 * destinations, each tunnel's own queue limit does not bound the memory.
 * Then the class's queue. TCP's own control loop needs a queue that
 * drops or marks: tail drop when full, and CE marks for ECN-capable packets
 * as the queue grows, which ECN-capable TCP reacts to before a drop.
 * Marking is RED on the instantaneous queue length (no average: the queue
 * drains at the pull rate, and what matters to the low-latency class is
 * the queue now): no marks below ecn_min, then with a probability rising
 * linearly to 1 at ecn_max. The defaults (ecn_min half the limit, ecn_max
 * = ecn_min) are DCTCP-style step marking. The limit counts packets as TCP
 * hands them down, a GSO packet as one, as a qdisc's packet limit does:
 * counted in MTU-sized packets, a limit of 100 held two 64 KB TSO packets
 * and made TCP lose whole bursts. The random draw is asked for only when
 * it decides (EQDS_TXQ_RED), so most packets cost none.
 */
enum eqds_txq_admit eqds_txq_admit(const struct eqds_txq *q, u32 cls, u32 wire_bytes,
				   u32 nsegs, const struct eqds_txq_limits *l,
				   const struct eqds_txq_totals *tot);
/* For EQDS_TXQ_RED: mark, given rnd, a uniformly random u32? */
bool eqds_txq_red_mark(const struct eqds_txq *q, u32 cls,
		       const struct eqds_txq_limits *l, u32 rnd);
/*
 * The glue puts a packet at the tail of class cls: false, and nothing
 * counted, if eqds_txq_admit() would call it invalid (the glue must not
 * queue it). So every head the glue describes has at most EQDS_MAX_SEGS
 * seqs, which fits struct eqds_txq_desc.
 */
bool eqds_txq_enqueue(struct eqds_txq *q, u32 cls, u32 wire_bytes, u32 nsegs);
/* The glue lost one that the core counted as waiting (a bug it warns of). */
void eqds_txq_unqueue(struct eqds_txq *q, u32 cls, u32 wire_bytes);
/*
 * The glue found its queues and the core's counts apart (a bug it warns
 * of): the core takes the glue's counts, qlen[] per class and their bytes,
 * so the tunnel goes on instead of pumping a packet that is not there
 * forever.
 */
void eqds_txq_resync(struct eqds_txq *q, const u32 *qlen, u64 queued_bytes);

/* Packets waiting, all classes. */
static inline u32 eqds_txq_len(const struct eqds_txq *q)
{
	u32 n = 0, c;

	for (c = 0; c < EQDS_TXQ_NCLASSES; c++)
		n += q->qlen[c];
	return n;
}

enum eqds_txq_kind {
	EQDS_TXQ_END,		/* nothing more this pump */
	EQDS_TXQ_RTX,		/* resend a clone of the kept packet at slot */
	EQDS_TXQ_NEW,		/* send the head of class cls */
	EQDS_TXQ_RTS,		/* send a request to send (no payload) */
};

/* One pump: begun, stepped until EQDS_TXQ_END, ended. */
struct eqds_txq_pump {
	u64	now_ns;
	u8	stage;
	u8	cls;		/* class being served */
	bool	sent;		/* a data packet went */
	/* A new packet had its credit but every seq was in flight. */
	bool	window_full;
};

/* What goes next, and (once committed) its EQDS header fields. */
struct eqds_txq_step {
	u8	kind;		/* enum eqds_txq_kind */
	u8	cls;		/* NEW: the class queue whose head goes */
	u8	flags;		/* committed: EQDS_F_* */
	u8	path;		/* committed: path id */
	u16	nsegs;
	u16	pull_target;	/* committed */
	u32	seq;		/* first seq; NEW: once committed */
	u32	rtx_seq;	/* RTX: the seq asked for (inside the packet) */
	u32	slot;		/* RTX: ring slot of the kept packet */
	u32	wire_bytes;
	u32	epoch;		/* committed */
	bool	borrowed;	/* committed: sent on borrowed credit (tx.h) */
};

void eqds_txq_pump_begin(struct eqds_txq_pump *p, u64 now_ns);
/*
 * The next step. heads[c] describes the packet at the head of class c's
 * queue; read only for classes with packets waiting (qlen).
 */
enum eqds_txq_kind eqds_txq_pump_next(struct eqds_txq *q, struct eqds_txq_pump *p,
				      const struct eqds_txq_desc *heads,
				      struct eqds_txq_step *st);
/* The glue has the step's packet: charge it, number it, fill its header. */
void eqds_txq_commit(struct eqds_txq *q, struct eqds_txq_pump *p,
		     struct eqds_txq_step *st);
/*
 * The glue could not make the step's packet (no memory for a clone or an
 * RTS; a class queue emptier than the core's count, which is a bug): no
 * credit, seq or path id is taken. A retransmission is dropped from the
 * list (TCP recovers it); a new packet ends the pump.
 */
void eqds_txq_skip(struct eqds_txq *q, struct eqds_txq_pump *p,
		   const struct eqds_txq_step *st);
/*
 * The EQDS header of a committed step: a data packet carrying payload_len
 * bytes of inner protocol next_proto (EQDS_NP_IPV4 or EQDS_NP_IPV6), or an
 * RTS, which carries none whatever they say.
 */
void eqds_txq_step_hdr(const struct eqds_txq_step *st, u8 next_proto,
		       u32 payload_len, struct eqds_pkt *hdr);
/* End the pump: the time the timer must fire at (0: none). */
u64 eqds_txq_pump_end(struct eqds_txq *q, struct eqds_txq_pump *p);

/*
 * Keeping a sent packet. eqds_txq_ring_need(): 0 if the ring has room for
 * the packet just committed, else the ring size needed, which is more
 * than EQDS_TXQ_RING_MAX if it cannot be kept at all (the packet then goes
 * without a copy, and TCP recovers what EQDS cannot resend). Every kept
 * packet from the oldest one to this one needs a slot of its own.
 */
u32 eqds_txq_ring_need(const struct eqds_txq *q, const struct eqds_txq_step *st);
/*
 * Give the queue a ring of size slots (a power of two, zeroed, at least
 * what eqds_txq_ring_need() asked), moving what the old one kept; the
 * glue's parallel pointers move the same way from old_ptrs (the old ring's
 * size) to new_ptrs (size), both NULL if the glue keeps none. The old ring
 * is the glue's to free.
 */
void eqds_txq_ring_move(struct eqds_txq *q, struct eqds_txq_desc *ring, u32 size,
			void **old_ptrs, void **new_ptrs);
/* Keep the committed NEW packet: its ring slot (the glue puts its copy there). */
u32 eqds_txq_keep(struct eqds_txq *q, const struct eqds_txq_step *st);

/* Kept packets from seq on, one at a time (eqds_txq_acked_next and _requeue_next). */
struct eqds_txq_cursor {
	u32	seq;
	u32	end;
};

/*
 * A control packet from the tunnel's receiver. act->pump_now: the glue
 * pumps before it unlocks (always for EQDS_CTRL_OK). Not EQDS_CTRL_OK: it
 * must not touch the tunnel (core/ctrl_check.h), and for an ack of an
 * epoch we left, fin may hold a FIN to disown it (fin->type set; an RTS is
 * then due, and act->pump_now set); the rest of act is empty.
 * EQDS_CTRL_OK: act says what the core did, or what the glue does next:
 * restart (the receiver lost the epoch: the glue calls eqds_txq_restart()
 * with its clock, which it reads only then, before anything else on the
 * queue, and requeues from its cursor; nothing else is set but pump_now),
 * acked (what is wholly acknowledged
 * is for eqds_txq_acked_next()), retransmit (the seq and the further holes
 * of a NACK's SACK bitmap are on the retransmit list).
 */
enum eqds_ctrl_verdict eqds_txq_ctrl(struct eqds_txq *q, const struct eqds_pkt *pkt,
				     u64 now_ns, struct eqds_tx_actions *act,
				     struct eqds_txq_cursor *cur, struct eqds_pkt *fin);
/*
 * The next kept packet an ack freed: the ring slot to free its copy from.
 * One that the ack stops inside stays: its later pieces may be lost.
 */
bool eqds_txq_acked_next(struct eqds_txq *q, struct eqds_txq_cursor *cur, u32 *slot);
/*
 * After a restart, the next kept packet to go back to the head of its class
 * queue, newest first so the order is kept; it is counted as waiting
 * again, whole (a packet acknowledged in part goes again whole: TCP drops
 * what it has).
 */
bool eqds_txq_requeue_next(struct eqds_txq *q, struct eqds_txq_cursor *cur,
			   u32 *slot, struct eqds_txq_desc *d);

/*
 * The receiver lost our epoch: start a new one at clock, resend what it
 * missed (eqds_txq_requeue_next() from cur), and ask for credit.
 */
void eqds_txq_restart(struct eqds_txq *q, u64 now_ns, u32 clock,
		      struct eqds_txq_cursor *cur);

/*
 * The tunnel's timer: a retransmission timeout puts the oldest packet on
 * the retransmit list, and an RTS may be due (eqds_tx_timer()).
 */
void eqds_txq_timer(struct eqds_txq *q, u64 now_ns, struct eqds_tx_actions *act);

/* The kept packet holding seq (it may start before it): its slot, or EQDS_TXQ_NONE. */
u32 eqds_txq_find(const struct eqds_txq *q, u32 seq, u32 *first);

#endif /* _EQDS_CORE_TXQ_H */
