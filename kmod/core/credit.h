/* SPDX-License-Identifier: GPL-2.0 */
/*
 * credit.h - credit accounting: the sender's side (struct eqds_credit) and
 * the receiver's pull-number generator (struct eqds_pullgen), one of each
 * per tunnel.
 *
 * Credit is counted in bytes: to send a b-byte packet the sender must hold b
 * bytes. The receiver grants credit with PULL packets that carry a
 * cumulative pull number: the receiver's generator starts at 0 and numbers
 * its first pull 1, the sender starts with 0 as the highest pull seen. When
 * the highest pull number seen rises by n, the sender gains n quanta, so
 * lost or reordered pulls lose no credit: the next higher pull makes up for
 * them, and an old or duplicate pull is ignored.
 *
 * The window bounds everything: an honest receiver never has more than one
 * window of credit outstanding (held + data in flight + pulls in flight), so
 * the sender never holds more than a window. A pull that jumps more than a
 * window ahead (a forged pull, or state that fell out of step) is clamped to
 * one window's worth and counted; credit beyond the window is refused and
 * counted. The jump is still accepted as the new highest pull number, so the
 * sender falls back into step with the receiver's counter at once instead of
 * ignoring its real pulls. Every refused byte is counted, which gives the
 * conservation law the fuzzer checks:
 *	gained + refused_bytes == sum over accepted pulls of n * quantum.
 */
#ifndef _EQDS_CORE_CREDIT_H
#define _EQDS_CORE_CREDIT_H

#include "platform.h"

/*
 * What a packet costs: its outer IP bytes plus, for each segment it is sent
 * as, the Ethernet framing the link carries with it (preamble and start
 * delimiter 8, header 14, FCS 4, inter-frame gap 12; no VLAN tag). Credit
 * is link time, so a pull rate of X% of the link is X% on the wire, and an
 * MTU-sized packet (1500 + 38) costs one 1536-byte quantum to within two
 * bytes. Counted in IP bytes alone, it cost 2.4% less than a quantum: every
 * sender kept the difference, and senders pulled alike (an incast) all
 * reached a whole packet of it in the same round of the active sender list
 * and sent it together, 12% above the pull rate for that round (8 quanta a
 * turn buying 9 packets instead of 8), which overflowed a shallow buffer
 * before the receiver.
 */
#define EQDS_FRAME_BYTES	38

/*
 * Small packets may borrow (eqds_credit_borrow()): a sender short of credit
 * sends one and owes its cost, up to overdraft bytes in all. Debt is repaid
 * by the next pulls before they add credit, and is demand until then, so
 * the receiver pulls for it as for queued bytes: bytes sent never exceed
 * bytes pulled plus overdraft, and the receiver still decides the rate.
 * With debt there is no credit (debt > 0 implies credit == 0). Counting
 * as gained what eqds_credit_pull() returns (repayment included) and as
 * spent the whole cost of every packet sent, borrowed or not:
 *	credit + spent == initial + gained + debt.
 */

/* Sender side: credit held and pulls seen, for one tunnel. */
struct eqds_credit {
	u32	credit;		/* bytes the sender may send now */
	u32	window;		/* most credit ever held, bytes */
	u32	quantum;	/* bytes per pull, from the latest pull */
	u32	pull_hi;	/* highest pull number seen */
	u32	debt;		/* bytes borrowed and not yet repaid */
	u32	overdraft;	/* most debt allowed, bytes; 0: no borrowing */
	u64	stale_pulls;	/* pulls not above pull_hi: late or duplicate */
	u64	clamped_pulls;	/* pulls that jumped more than a window */
	u64	refused_bytes;	/* credit not granted: jump clamp, window cap */
	u64	borrowed_bytes;	/* all debt ever taken */
	u64	repaid_bytes;	/* all debt ever repaid by pulls */
};

/*
 * Start (or restart, for a new epoch) a tunnel's sender state. window and
 * quantum are in bytes; quantum is the guess used for the pull target until
 * the first pull tells the real one. initial is the credit the sender starts
 * with: 0 in RTS mode, a window in burst mode; it is capped at the window.
 */
void eqds_credit_init(struct eqds_credit *c, u32 window, u32 quantum,
		      u32 initial);

/*
 * A pull arrived with number pull_no granting quantum bytes per pull (the
 * wire quantum converted with eqds_quantum_bytes()). Returns the credit
 * gained, in bytes: 0 for a stale pull or a zero quantum.
 */
u32 eqds_credit_pull(struct eqds_credit *c, u32 pull_no, u32 quantum);

/*
 * Spend credit for a bytes-long packet. Returns false, spending nothing, if
 * less than bytes is held.
 */
bool eqds_credit_take(struct eqds_credit *c, u32 bytes);

/*
 * Could a bytes-long packet that the credit held does not cover borrow the
 * shortfall (at most the overdraft left)? eqds_credit_borrow() does it:
 * the credit held goes to the packet, the rest becomes debt.
 */
bool eqds_credit_may_borrow(const struct eqds_credit *c, u32 bytes);
bool eqds_credit_borrow(struct eqds_credit *c, u32 bytes);

/*
 * Demand is stated absolutely: the pull number the sender wants the
 * receiver to reach, its highest pull seen plus the quanta it still needs.
 * Only the low 16 bits travel (pull_target); the receiver extends them
 * against its own pull number with serial arithmetic. That is exact while
 * the two numbers are less than 2^15 apart: the sender never asks for more
 * than EQDS_DEMAND_MAX_QUANTA beyond pull_hi, the receiver never pulls more
 * than that beyond a target, and pull_hi lags the receiver's pull number by
 * at most the pulls in flight, themselves bounded by one target.
 */
#define EQDS_DEMAND_MAX_QUANTA	0x3fff

/*
 * Quanta still wanted beyond the credit held, for queued bytes waiting to be
 * sent and the debt to repay, rounded up to whole quanta, and for guess, the
 * bytes the sender expects to queue soon, rounded down: a quantum that only
 * a guess asks for would be refused as the window fills. Capped at the room
 * left in the window (queue and credit together at most one window, at
 * least one quantum) and at EQDS_DEMAND_MAX_QUANTA. 0 when the credit held
 * covers the queue or fills the window, or no quantum is known.
 */
u32 eqds_credit_need(const struct eqds_credit *c, u64 queued, u64 guess);

/*
 * The pull target to put in data packets and RTS probes: the low 16 bits of
 * pull_hi + eqds_credit_need(). Pulls the receiver has sent but the sender
 * has not yet seen are not asked for again: the receiver counts them.
 */
u16 eqds_credit_pull_target(const struct eqds_credit *c, u64 queued, u64 guess);

/*
 * Receiver side: the pulls granted to one sender, numbered from 1 in each
 * epoch (the sender's pull_hi starts at 0 with it). The latest statement of
 * demand sets the pull number to reach.
 */
struct eqds_pullgen {
	u32	pull_no;	/* last pull number sent; 0 before the first */
	u32	target;		/* pull number that satisfies the demand */
	u32	max_ahead;	/* window in quanta: the most a target asks */
};

/*
 * Start (or restart) the generator; max_ahead is the window in quanta,
 * capped at EQDS_DEMAND_MAX_QUANTA.
 */
void eqds_pullgen_init(struct eqds_pullgen *g, u32 max_ahead);

/*
 * A data packet or RTS probe stated pull_target (the low 16 bits of the pull
 * number its sender wants reached). Extended against pull_no, a number at or
 * behind it asks for nothing more; one further ahead sets the target (at
 * most max_ahead beyond pull_no).
 *
 * The latest packet wins, so a queue that shrank lowers the target. A
 * reordered older packet wins too, for as long as no newer one follows: its
 * number is behind the newer one's by what the sender spent in between, so
 * the receiver pulls that much less, or the same; it never asks for a pull
 * beyond what the sender once wanted.
 *
 * A probe (RTS) asks for at least one pull more than pull_no. The sender
 * probes for credit only when its queued data has waited a timeout with no
 * pull arriving (and for an ack when its window is full, eqds_tx_timer()):
 * the pulls the receiver counts as sent are then lost (or the
 * receiver would not be idle), and because pull numbers are cumulative the
 * next one restores all their credit. Without it a sender whose pulls were
 * all lost would state a demand the receiver thinks it met, for ever.
 */
void eqds_pullgen_demand(struct eqds_pullgen *g, u16 pull_target, bool probe);

/* Pulls still to send before the demand is met (0 when met). */
u32 eqds_pullgen_outstanding(const struct eqds_pullgen *g);

/*
 * Number the next pull and return its number. Whether a pull is due is the
 * pacer's decision (it normally asks eqds_pullgen_outstanding() first), so
 * this never refuses.
 */
u32 eqds_pullgen_next(struct eqds_pullgen *g);
/* Number quanta pulls at once; returns the last number (pull_no if none). */
u32 eqds_pullgen_grant(struct eqds_pullgen *g, u32 quanta);

#endif /* _EQDS_CORE_CREDIT_H */
