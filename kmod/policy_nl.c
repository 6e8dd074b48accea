// SPDX-License-Identifier: GPL-2.0
/*
 * The sharing policy over netlink: the rules of EQDS_A_POLICY, the bound
 * of EQDS_A_BOUND, and EQDS_CMD_SET_BOUND. What they mean for the pulls is
 * policy.c's.
 *
 * Only the initial namespace's administrator may set a bound, on any other
 * namespace (EQDS_CMD_SET_BOUND): a namespace may not lift its own.
 *
 * Handlers run in process context with genl_mutex held by the core; they
 * take the bounded namespace's eqds_net->lock to change its configuration.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include "eqds.h"
#include "netns.h"
#include "netlink.h"
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

static bool same_prefix(const struct eqds_prefix *a, const struct eqds_prefix *b)
{
	return a->family == b->family && a->len == b->len &&
	       !memcmp(&a->addr, &b->addr, sizeof(a->addr));
}

/* Rule i of cfg's list; the rules before it are parsed already. */
static int parse_rule(const struct nlattr *nest, u32 i, void *arg,
		      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[EQDS_POLICY_A_MAX + 1];
	struct eqds_config *cfg = arg;
	struct eqds_policy_rule *r = &cfg->policies[i];
	u32 j;
	int err;

	err = eqds_nl_parse_prefix(tb, EQDS_POLICY_A_MAX, nest, eqds_policy_rule_policy,
				   &r->prefix, extack);
	if (err)
		return err;
	for (j = 0; j < i; j++)
		if (same_prefix(&cfg->policies[j].prefix, &r->prefix)) {
			NL_SET_ERR_MSG_ATTR(extack, nest, "two policy rules for the same prefix");
			return -EINVAL;
		}
	r->weight = 1;
	r->prio = EQDS_PRIO_DEFAULT;
	r->rate_mbit = 0;
	eqds_nl_get_u32(tb, EQDS_POLICY_A_WEIGHT, &r->weight);
	eqds_nl_get_u8(tb, EQDS_POLICY_A_PRIO, &r->prio);
	eqds_nl_get_u32(tb, EQDS_POLICY_A_RATE, &r->rate_mbit);
	return 0;
}

int eqds_policy_nl_parse(const struct nlattr *list, struct eqds_config *cfg,
			 struct netlink_ext_ack *extack)
{
	int n;

	/* Unused slots stay zero: eqds_policy_changed() compares them. */
	memset(cfg->policies, 0, sizeof(cfg->policies));
	cfg->npolicies = 0;
	n = eqds_nl_parse_array(list, EQDS_MAX_POLICIES, parse_rule, cfg, extack);
	if (n < 0)
		return n;
	cfg->npolicies = n;
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

static int put_rule(struct sk_buff *skb, u32 i, const void *arg)
{
	const struct eqds_config *cfg = arg;
	const struct eqds_policy_rule *r = &cfg->policies[i];

	if (eqds_nl_put_prefix(skb, &r->prefix) ||
	    nla_put_u32(skb, EQDS_POLICY_A_WEIGHT, r->weight) ||
	    nla_put_u8(skb, EQDS_POLICY_A_PRIO, r->prio) ||
	    nla_put_u32(skb, EQDS_POLICY_A_RATE, r->rate_mbit))
		return -EMSGSIZE;
	return 0;
}

int eqds_policy_nl_put(struct sk_buff *skb, const struct eqds_config *cfg)
{
	if (eqds_nl_put_array(skb, EQDS_A_POLICY, cfg->npolicies, put_rule, cfg))
		return -EMSGSIZE;
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
	eqds_nl_get_u32(tb, EQDS_BOUND_A_PULL_RATE, &b->pull_rate_mbit);
	eqds_nl_get_u32(tb, EQDS_BOUND_A_MAX_WEIGHT, &b->max_weight);
	eqds_nl_get_u8(tb, EQDS_BOUND_A_MIN_PRIO, &b->min_prio);
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
