// SPDX-License-Identifier: GPL-2.0
/*
 * Receiver sharing policy: rules by sender prefix mapped onto the core's
 * active sender list, and the operator's bound on a namespace.
 *
 * Rules and bound live in the namespace's configuration snapshot (config.h),
 * read under RCU. Shares are written into a tunnel's ASL node under
 * en->sched_lock: when the tunnel is set up, at each new epoch (which resets
 * the node), and for every tunnel after a configuration change
 * (eqds_policy_apply_all(), process context).
 *
 * Bound: inside a bounded namespace its own administrator (e.g. a
 * container's root) still sets rules and pull rate, but they are clamped to
 * the bound when applied, so the bound holds whatever is set before or
 * after it. The netlink side (rules, bound, EQDS_CMD_SET_BOUND) is
 * policy_nl.c.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/xarray.h>
#include "eqds.h"
#include "netns.h"
#include "tunnel.h"
#include "policy.h"

/* The rule of the longest prefix holding peer, or NULL. */
static const struct eqds_policy_rule *lookup(const struct eqds_config *cfg,
					     const struct eqds_addr *peer)
{
	const struct eqds_policy_rule *best = NULL;
	u32 i;

	for (i = 0; i < cfg->npolicies; i++) {
		const struct eqds_policy_rule *r = &cfg->policies[i];

		if ((!best || r->prefix.len > best->prefix.len) &&
		    eqds_prefix_match(&r->prefix, peer->family, &peer->a))
			best = r;
	}
	return best;
}

void eqds_policy_apply(struct eqds_net *en, struct eqds_rxt *t,
		       const struct eqds_config *cfg)
{
	const struct eqds_policy_rule *r = lookup(cfg, &t->peer);
	const struct eqds_bound *b = &cfg->bound;
	u32 weight = r ? r->weight : 1;
	u8 prio = r ? r->prio : EQDS_PRIO_DEFAULT;
	u64 cap = r ? (u64)r->rate_mbit * 1000000 : 0;

	if (b->max_weight)
		weight = min(weight, b->max_weight);
	prio = max(prio, b->min_prio);
	/* A weight is rounds of the default turn (EQDS_SCHED_TURN_QUANTA). */
	eqds_sched_set_share(&en->sched, &t->rx.asl, weight * EQDS_SCHED_TURN_QUANTA,
			     prio, cap, ktime_get_ns());
}

void eqds_policy_apply_all(struct eqds_net *en)
{
	const struct eqds_config *cfg;
	struct eqds_rxt *t;
	unsigned long id;

	rcu_read_lock();
	cfg = rcu_dereference(en->config);
	xa_for_each(&en->rxt_ids, id, t) {
		spin_lock_bh(&en->sched_lock);
		eqds_policy_apply(en, t, cfg);
		spin_unlock_bh(&en->sched_lock);
		/* 64k tunnels: let others run; xa_for_each restarts by index. */
		if (!(id % 1024)) {
			rcu_read_unlock();
			cond_resched();
			rcu_read_lock();
			cfg = rcu_dereference(en->config);
		}
	}
	rcu_read_unlock();
}

bool eqds_policy_changed(const struct eqds_config *a, const struct eqds_config *b)
{
	return a->npolicies != b->npolicies ||
	       memcmp(a->policies, b->policies, a->npolicies * sizeof(a->policies[0])) ||
	       memcmp(&a->bound, &b->bound, sizeof(a->bound));
}
