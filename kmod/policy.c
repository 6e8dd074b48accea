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
 * Bound: only the initial namespace's administrator may set one, on any
 * other namespace (EQDS_CMD_SET_BOUND). Inside the bounded namespace its
 * own administrator (e.g. a container's root) still sets rules and pull
 * rate, but they are clamped to the bound when applied, so the bound holds
 * whatever is set before or after it.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/xarray.h>
#include <linux/proc_ns.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include "eqds.h"
#include "netns.h"
#include "netlink.h"
#include "tunnel.h"
#include "events.h"
#include "policy.h"

static struct netlink_range_validation weight_range = {
	.min = 1, .max = EQDS_WEIGHT_MAX,
};

static struct netlink_range_validation max_weight_range = {
	.min = 0, .max = EQDS_WEIGHT_MAX,
};

const struct nla_policy eqds_policy_rule_policy[EQDS_POLICY_A_MAX + 1] = {
	[EQDS_POLICY_A_FAMILY]		= { .type = NLA_U16 },
	[EQDS_POLICY_A_ADDR]		= NLA_POLICY_MIN_LEN(4),
	[EQDS_POLICY_A_PREFIXLEN]	= NLA_POLICY_MAX(NLA_U8, 128),
	[EQDS_POLICY_A_WEIGHT]		= NLA_POLICY_FULL_RANGE(NLA_U32, &weight_range),
	[EQDS_POLICY_A_PRIO]		= NLA_POLICY_MAX(NLA_U8, EQDS_PRIO_MAX),
	[EQDS_POLICY_A_RATE]		= { .type = NLA_U32 },
};

const struct nla_policy eqds_bound_policy[EQDS_BOUND_A_MAX + 1] = {
	[EQDS_BOUND_A_PULL_RATE]	= { .type = NLA_U32 },
	[EQDS_BOUND_A_MAX_WEIGHT]	= NLA_POLICY_FULL_RANGE(NLA_U32, &max_weight_range),
	[EQDS_BOUND_A_MIN_PRIO]		= NLA_POLICY_MAX(NLA_U8, EQDS_PRIO_MAX),
};

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
	/* A weight is rounds of the default turn (EQDS_SCHED_MAX_QUANTA). */
	eqds_sched_set_share(&en->sched, &t->rx.asl, weight * EQDS_SCHED_MAX_QUANTA,
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

static int parse_rule(const struct nlattr *nest, struct eqds_policy_rule *r,
		      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[EQDS_POLICY_A_MAX + 1];
	int err;

	err = nla_parse_nested(tb, EQDS_POLICY_A_MAX, nest, eqds_policy_rule_policy, extack);
	if (err)
		return err;
	err = eqds_nl_get_prefix(tb, nest, &r->prefix, extack);
	if (err)
		return err;
	r->weight = tb[EQDS_POLICY_A_WEIGHT] ? nla_get_u32(tb[EQDS_POLICY_A_WEIGHT]) : 1;
	r->prio = tb[EQDS_POLICY_A_PRIO] ? nla_get_u8(tb[EQDS_POLICY_A_PRIO]) :
		  EQDS_PRIO_DEFAULT;
	r->rate_mbit = tb[EQDS_POLICY_A_RATE] ? nla_get_u32(tb[EQDS_POLICY_A_RATE]) : 0;
	return 0;
}

static bool same_prefix(const struct eqds_prefix *a, const struct eqds_prefix *b)
{
	return a->family == b->family && a->len == b->len &&
	       !memcmp(&a->addr, &b->addr, sizeof(a->addr));
}

int eqds_policy_nl_parse(const struct nlattr *list, struct eqds_config *cfg,
			 struct netlink_ext_ack *extack)
{
	const struct nlattr *nest;
	int rem, err;
	u32 i;

	/* Unused slots stay zero: eqds_policy_changed() compares them. */
	memset(cfg->policies, 0, sizeof(cfg->policies));
	cfg->npolicies = 0;
	nla_for_each_nested(nest, list, rem) {
		struct eqds_policy_rule *r = &cfg->policies[cfg->npolicies];

		if (cfg->npolicies == EQDS_MAX_POLICIES) {
			NL_SET_ERR_MSG_ATTR(extack, nest, "too many policy rules");
			return -E2BIG;
		}
		err = parse_rule(nest, r, extack);
		if (err)
			return err;
		for (i = 0; i < cfg->npolicies; i++)
			if (same_prefix(&cfg->policies[i].prefix, &r->prefix)) {
				NL_SET_ERR_MSG_ATTR(extack, nest,
						    "two policy rules for the same prefix");
				return -EINVAL;
			}
		cfg->npolicies++;
	}
	return 0;
}

static int put_bound(struct sk_buff *skb, const struct eqds_bound *b)
{
	struct nlattr *nest = nla_nest_start(skb, EQDS_A_BOUND);

	if (!nest)
		return -EMSGSIZE;
	if ((b->pull_rate_mbit && nla_put_u32(skb, EQDS_BOUND_A_PULL_RATE, b->pull_rate_mbit)) ||
	    (b->max_weight && nla_put_u32(skb, EQDS_BOUND_A_MAX_WEIGHT, b->max_weight)) ||
	    (b->min_prio && nla_put_u8(skb, EQDS_BOUND_A_MIN_PRIO, b->min_prio)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

int eqds_policy_nl_put(struct sk_buff *skb, const struct eqds_config *cfg)
{
	struct nlattr *list, *nest;
	u32 i;

	list = nla_nest_start(skb, EQDS_A_POLICY);
	if (!list)
		return -EMSGSIZE;
	for (i = 0; i < cfg->npolicies; i++) {
		const struct eqds_policy_rule *r = &cfg->policies[i];

		nest = nla_nest_start(skb, i + 1);
		if (!nest || eqds_nl_put_prefix(skb, &r->prefix) ||
		    nla_put_u32(skb, EQDS_POLICY_A_WEIGHT, r->weight) ||
		    nla_put_u8(skb, EQDS_POLICY_A_PRIO, r->prio) ||
		    nla_put_u32(skb, EQDS_POLICY_A_RATE, r->rate_mbit))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	nla_nest_end(skb, list);
	return put_bound(skb, &cfg->bound);
}

static int parse_bound(const struct nlattr *nest, struct eqds_bound *b,
		       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[EQDS_BOUND_A_MAX + 1];
	int err;

	err = nla_parse_nested(tb, EQDS_BOUND_A_MAX, nest, eqds_bound_policy, extack);
	if (err)
		return err;
	memset(b, 0, sizeof(*b));
	if (tb[EQDS_BOUND_A_PULL_RATE])
		b->pull_rate_mbit = nla_get_u32(tb[EQDS_BOUND_A_PULL_RATE]);
	if (tb[EQDS_BOUND_A_MAX_WEIGHT])
		b->max_weight = nla_get_u32(tb[EQDS_BOUND_A_MAX_WEIGHT]);
	if (tb[EQDS_BOUND_A_MIN_PRIO])
		b->min_prio = nla_get_u8(tb[EQDS_BOUND_A_MIN_PRIO]);
	return 0;
}

int eqds_bound_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct eqds_config *cfg;
	struct eqds_bound bound;
	struct eqds_net *en;
	struct net *net;
	int err;

	/* The operator is the host's: a namespace may not bound itself out. */
	if (!net_eq(genl_info_net(info), &init_net)) {
		NL_SET_ERR_MSG(info->extack,
			       "bounds are set from the initial network namespace only");
		return -EPERM;
	}
	if (!a[EQDS_A_NETNS_FD] || !a[EQDS_A_BOUND]) {
		NL_SET_ERR_MSG(info->extack, "a bound needs a namespace (fd) and the bound");
		return -EINVAL;
	}
	err = parse_bound(a[EQDS_A_BOUND], &bound, info->extack);
	if (err)
		return err;
	net = get_net_ns_by_fd(nla_get_u32(a[EQDS_A_NETNS_FD]));
	if (IS_ERR(net)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[EQDS_A_NETNS_FD],
				    "not a network namespace file descriptor");
		return PTR_ERR(net);
	}
	if (net_eq(net, &init_net)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[EQDS_A_NETNS_FD],
				    "the initial namespace is not bounded");
		err = -EINVAL;
		goto out;
	}
	en = eqds_net(net);
	mutex_lock(&en->lock);
	cfg = kmemdup(rcu_dereference_protected(en->config, lockdep_is_held(&en->lock)),
		      sizeof(*cfg), GFP_KERNEL);
	err = -ENOMEM;
	if (cfg) {
		cfg->bound = bound;
		err = eqds_net_set_config(en, cfg, info->extack);
	}
	mutex_unlock(&en->lock);
out:
	put_net(net);
	return err;
}
