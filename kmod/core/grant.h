/* SPDX-License-Identifier: GPL-2.0 */
/*
 * grant.h - the receiver's pull pacer around the scheduler (pacer.h): its
 * rate, one run of its timer (which senders get how many pulls, and when
 * to run again), and the PULL packet that carries each grant. The kernel
 * (kmod/pull.c), the simulator and the tests run these; they only lock,
 * keep the timer and send.
 *
 * One run hands out at most EQDS_PACER_GRANTS pulls. Whatever is due
 * beyond that stays in the budget for the next run, which is due at once
 * (eqds_sched_next_ns() is 0 while a quantum is due), after the timer
 * floor the caller passes.
 */
#ifndef _EQDS_CORE_GRANT_H
#define _EQDS_CORE_GRANT_H

#include "platform.h"
#include "congestion.h"
#include "pacer.h"
#include "rx.h"
#include "wire.h"

/* Most PULL packets one run of the pacer sends. */
#define EQDS_PACER_GRANTS	16
/* The pacer's timer floor: it runs no more often than this. */
#define EQDS_PACER_MIN_NS	10000u
/*
 * The budget holds at most what accrues at the rate over a timer this late,
 * and never less than one sender's turn (EQDS_SCHED_TURN_QUANTA quanta). A
 * larger bound turns a late timer into a burst that a shallow switch buffer
 * in front of the receiver cannot take. Divides a second.
 */
#define EQDS_PACER_LATE_NS	1000000u

/*
 * The pull rate: pull_bps when it is set (nonzero), else link_bps less
 * headroom percent (at most 100), both capped by bound_bps (0: no bound).
 */
u64 eqds_pacer_rate(u64 pull_bps, u64 link_bps, u32 headroom, u64 bound_bps);

/* The scheduler's max_burst for a rate (EQDS_PACER_LATE_NS above). */
u32 eqds_pacer_max_burst(u64 rate_bps, u32 quantum);

/*
 * A new pull rate ceiling rate_bps: the congestion reaction's ceiling
 * moves (eqds_cc_set_max()), the scheduler paces at the reaction's rate
 * when react is set (rate_bps otherwise), and its catch-up bound follows.
 */
void eqds_pacer_set_rate(struct eqds_sched *s, struct eqds_cc *cc, u64 rate_bps,
			 bool react, u64 now_ns);

/*
 * The data bytes arrived so far and those of them with a CE-marked outer
 * header, as running totals, at now_ns: the congestion reaction
 * (congestion.h, eqds_cc_observe()) may change the pull rate. The glue
 * calls it at the start of each pacer run when eqds_cc_due().
 */
void eqds_pacer_observe(struct eqds_sched *s, struct eqds_cc *cc, u64 bytes,
			u64 ce_bytes, u64 now_ns);

/*
 * One PULL packet due: quanta more pulls for the sender whose receive state
 * is rx, numbered up to pull_no. The caller finds its tunnel from rx.
 * epoch is the sender's epoch when granted: if the tunnel moved to another
 * since, the PULL is not sent (eqds_grant_pull()).
 */
struct eqds_grant {
	struct eqds_rx	*rx;
	u32	epoch;
	u32	pull_no;
	u32	quanta;
};

/* What one run of the pacer decided. */
struct eqds_pacer_plan {
	u32	ngrants;
	struct eqds_grant	grant[EQDS_PACER_GRANTS];
	u64	late_bytes;	/* link time lost since the last run (sched.late_bytes) */
	u16	busy_us;	/* eqds_sched_busy_us() after the grants */
	bool	rearm;		/* senders have demand: run again at next_ns */
	u64	next_ns;	/* absolute, at least min_ns after now_ns */
};

/*
 * A sender wants pulls (eqds_rxq_demand() said so) at now_ns: true when the
 * caller must start its pacer timer now, *armed (the caller's: its timer
 * is pending or running) being clear; it is set. The budget starts afresh
 * at now_ns, so an idle pacer saved no credit up. The caller clears *armed
 * when a run does not re-arm (out->rearm).
 */
bool eqds_pacer_wake(struct eqds_sched *s, bool *armed, u64 now_ns);

/*
 * Run the pacer at now_ns: account the credit due, grant it over the
 * active sender list (every rx on it embeds the node: struct eqds_rx's
 * asl), numbering each sender's pulls and keeping its backlog, and say
 * when to run again, no sooner than min_ns from now. Takes the
 * scheduler's late_bytes. The caller holds what guards s and every rx's
 * pulls (the kernel's sched_lock), then sends out->grant[] after dropping
 * it.
 */
void eqds_pacer_run(struct eqds_sched *s, u64 now_ns, u64 min_ns,
		    struct eqds_pacer_plan *out);

/*
 * The PULL packet of grant g, sent on path *path (which advances): it also
 * acknowledges what rx has received, so it counts as an acknowledgment
 * (since_ack restarts). quantum is the pacer's, in bytes; busy_us the
 * busy time to advertise. Returns false, and fills nothing, when rx is no
 * longer in g's epoch. The caller holds what guards rx (the tunnel's lock).
 */
bool eqds_grant_pull(struct eqds_rx *rx, const struct eqds_grant *g, u32 quantum,
		     u16 busy_us, u8 *path, struct eqds_pkt *pkt);

#endif /* _EQDS_CORE_GRANT_H */
