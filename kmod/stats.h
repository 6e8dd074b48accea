/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-namespace counters, indexed by enum eqds_stats_attr so the netlink dump
 * is a loop. Per-CPU, so the datapath counts without sharing cache lines;
 * u64_stats_sync keeps 64-bit reads whole on 32-bit hosts.
 *
 * Counted from every context: process context with BH enabled (capture runs
 * in the sender's context), softirq (receive, timers) and with interrupts
 * off. A softirq may thus interrupt a count of the same CPU's counters, so
 * an update must be one that an interruption cannot tear: u64_stats_add()
 * is a local64_add() on 64-bit (one instruction, interrupt safe), and on
 * 32-bit the _irqsave writer section keeps every other writer of this CPU
 * out of the seqcount (two nested writers would leave it odd for readers).
 */
#ifndef _EQDS_STATS_H
#define _EQDS_STATS_H

#include <linux/percpu.h>
#include <linux/u64_stats_sync.h>
#include <linux/eqds.h>

struct eqds_pcpu_stats {
	u64_stats_t v[__EQDS_STATS_A_MAX];
	struct u64_stats_sync syncp;
};

struct eqds_pcpu_stats __percpu *eqds_stats_alloc(void);
void eqds_stats_free(struct eqds_pcpu_stats __percpu *stats);
void eqds_stats_sum(struct eqds_pcpu_stats __percpu *stats, u64 *out);
u64 eqds_stats_read(struct eqds_pcpu_stats __percpu *stats, enum eqds_stats_attr idx);

static inline void eqds_stats_add(struct eqds_pcpu_stats __percpu *stats,
				  enum eqds_stats_attr idx, u64 n)
{
	struct eqds_pcpu_stats *s = get_cpu_ptr(stats);
	unsigned long flags;

	flags = u64_stats_update_begin_irqsave(&s->syncp);
	u64_stats_add(&s->v[idx], n);
	u64_stats_update_end_irqrestore(&s->syncp, flags);
	put_cpu_ptr(stats);
}

#endif /* _EQDS_STATS_H */
