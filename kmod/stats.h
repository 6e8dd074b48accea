/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-namespace counters, indexed by enum eqds_stats_attr so the netlink dump
 * is a loop. Per-CPU, so the datapath (any context) counts without sharing
 * cache lines; u64_stats_sync keeps 64-bit reads whole on 32-bit hosts.
 */
#ifndef _EQDS_STATS_H
#define _EQDS_STATS_H

#include <linux/percpu.h>
#include <linux/u64_stats_sync.h>
#include <linux/eqds.h>

struct eqds_pcpu_stats {
	u64 v[__EQDS_STATS_A_MAX];
	struct u64_stats_sync syncp;
};

struct eqds_pcpu_stats __percpu *eqds_stats_alloc(void);
void eqds_stats_free(struct eqds_pcpu_stats __percpu *stats);
void eqds_stats_sum(struct eqds_pcpu_stats __percpu *stats, u64 *out);

static inline void eqds_stats_add(struct eqds_pcpu_stats __percpu *stats,
				  enum eqds_stats_attr idx, u64 n)
{
	struct eqds_pcpu_stats *s = get_cpu_ptr(stats);

	u64_stats_update_begin(&s->syncp);
	s->v[idx] += n;
	u64_stats_update_end(&s->syncp);
	put_cpu_ptr(stats);
}

#endif /* _EQDS_STATS_H */
