// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU counters: allocation and summing for netlink.
 */
#include <linux/cpumask.h>
#include <linux/string.h>
#include "stats.h"

struct eqds_pcpu_stats __percpu *eqds_stats_alloc(void)
{
	struct eqds_pcpu_stats __percpu *stats;
	int cpu;

	stats = alloc_percpu(struct eqds_pcpu_stats);
	if (!stats)
		return NULL;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(stats, cpu)->syncp);
	return stats;
}

void eqds_stats_free(struct eqds_pcpu_stats __percpu *stats)
{
	free_percpu(stats);
}

/* One counter's total, for the datapath's own use (the pacer's). */
u64 eqds_stats_read(struct eqds_pcpu_stats __percpu *stats, enum eqds_stats_attr idx)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct eqds_pcpu_stats *s = per_cpu_ptr(stats, cpu);
		unsigned int start;
		u64 v;

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			v = u64_stats_read(&s->v[idx]);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		sum += v;
	}
	return sum;
}

/* @out has __EQDS_STATS_A_MAX entries. */
void eqds_stats_sum(struct eqds_pcpu_stats __percpu *stats, u64 *out)
{
	int cpu, i;

	memset(out, 0, sizeof(u64) * __EQDS_STATS_A_MAX);
	for_each_possible_cpu(cpu) {
		const struct eqds_pcpu_stats *s = per_cpu_ptr(stats, cpu);
		u64 v[__EQDS_STATS_A_MAX];
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			for (i = 0; i < __EQDS_STATS_A_MAX; i++)
				v[i] = u64_stats_read(&s->v[i]);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		for (i = 0; i < __EQDS_STATS_A_MAX; i++)
			out[i] += v[i];
	}
}
