// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "eqds" (uapi/linux/eqds.h): read and write the
 * instance of the requesting socket's network namespace.
 *
 * Handlers run in process context with genl_mutex held by the core; they take
 * eqds_net->lock for writes, and read the configuration under RCU. The
 * tunnel commands are in tunnel_nl.c, the notifications in events.c.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include "eqds.h"
#include "netns.h"
#include "netlink.h"
#include "tunnel_nl.h"
#include "events.h"
#include "policy.h"

static struct netlink_range_validation window_range = {
	.min = EQDS_WINDOW_MIN, .max = EQDS_WINDOW_MAX,
};

static struct netlink_range_validation queue_limit_range = {
	.min = EQDS_QUEUE_LIMIT_MIN, .max = EQDS_QUEUE_LIMIT_MAX,
};

static struct netlink_range_validation idle_timeout_range = {
	.min = EQDS_IDLE_TIMEOUT_MIN, .max = EQDS_IDLE_TIMEOUT_MAX,
};

static struct netlink_range_validation ecn_range = {
	.min = 0, .max = EQDS_ECN_THRESHOLD_MAX,
};

static struct netlink_range_validation queued_limit_range = {
	.min = 0, .max = EQDS_QUEUED_LIMIT_KB_MAX,
};

static const struct nla_policy dest_policy[EQDS_DEST_A_MAX + 1] = {
	[EQDS_DEST_A_FAMILY]	= { .type = NLA_U16 },
	[EQDS_DEST_A_ADDR]	= NLA_POLICY_MIN_LEN(4),
	[EQDS_DEST_A_PREFIXLEN]	= NLA_POLICY_MAX(NLA_U8, 128),
};

static const struct nla_policy class_policy[EQDS_CLASS_A_MAX + 1] = {
	[EQDS_CLASS_A_ID]		= NLA_POLICY_MAX(NLA_U8, EQDS_CLASS_ID_MAX),
	[EQDS_CLASS_A_QUEUE_LIMIT]	= NLA_POLICY_FULL_RANGE(NLA_U32, &queue_limit_range),
	[EQDS_CLASS_A_ECN_MIN]		= NLA_POLICY_FULL_RANGE(NLA_U32, &ecn_range),
	[EQDS_CLASS_A_ECN_MAX]		= NLA_POLICY_FULL_RANGE(NLA_U32, &ecn_range),
	[EQDS_CLASS_A_TC_PRIORITY]	= { .type = NLA_U32 },
	[EQDS_CLASS_A_PRIORITY]		= { .type = NLA_U32 },
	[EQDS_CLASS_A_MARK]		= { .type = NLA_U32 },
	[EQDS_CLASS_A_MARK_MASK]	= { .type = NLA_U32 },
};

static const struct nla_policy eqds_policy[EQDS_A_MAX + 1] = {
	[EQDS_A_VERSION]	= { .type = NLA_REJECT,
				    .reject_message = "version is read-only" },
	[EQDS_A_PORT]		= NLA_POLICY_MIN(NLA_U16, 1),
	[EQDS_A_DESTS]		= NLA_POLICY_NESTED_ARRAY(dest_policy),
	[EQDS_A_PULL_RATE]	= { .type = NLA_U32 },
	[EQDS_A_MODE]		= NLA_POLICY_MAX(NLA_U8, EQDS_MODE_MAX),
	[EQDS_A_WINDOW]		= NLA_POLICY_FULL_RANGE(NLA_U32, &window_range),
	[EQDS_A_IDLE_TIMEOUT]	= NLA_POLICY_FULL_RANGE(NLA_U32, &idle_timeout_range),
	[EQDS_A_STATS]		= { .type = NLA_REJECT,
				    .reject_message = "stats are read-only" },
	[EQDS_A_HEADROOM]	= NLA_POLICY_MAX(NLA_U8, EQDS_HEADROOM_MAX),
	[EQDS_A_TUNNEL]		= NLA_POLICY_NESTED(eqds_tunnel_req_policy),
	[EQDS_A_CLASS]		= NLA_POLICY_NESTED(class_policy),
	[EQDS_A_QUEUED_LIMIT]	= NLA_POLICY_FULL_RANGE(NLA_U32, &queued_limit_range),
	[EQDS_A_POLICY]		= NLA_POLICY_NESTED_ARRAY(eqds_policy_rule_policy),
	[EQDS_A_BOUND]		= NLA_POLICY_NESTED(eqds_bound_policy),
	[EQDS_A_NETNS_FD]	= { .type = NLA_U32 },
};

/*
 * A prefix as the first three attributes of its nest: EQDS_DEST_A_* and
 * the other prefix-bearing nests (EQDS_POLICY_A_*) number them alike.
 */
int eqds_nl_put_prefix(struct sk_buff *skb, const struct eqds_prefix *p)
{
	bool v4 = p->family == AF_INET;

	BUILD_BUG_ON((int)EQDS_POLICY_A_FAMILY != (int)EQDS_DEST_A_FAMILY ||
		     (int)EQDS_POLICY_A_ADDR != (int)EQDS_DEST_A_ADDR ||
		     (int)EQDS_POLICY_A_PREFIXLEN != (int)EQDS_DEST_A_PREFIXLEN);
	if (nla_put_u16(skb, EQDS_DEST_A_FAMILY, p->family) ||
	    nla_put(skb, EQDS_DEST_A_ADDR, v4 ? 4 : 16,
		    v4 ? (const void *)&p->addr.v4 : (const void *)&p->addr.v6) ||
	    nla_put_u8(skb, EQDS_DEST_A_PREFIXLEN, p->len))
		return -EMSGSIZE;
	return 0;
}

int eqds_nl_put_array(struct sk_buff *skb, int type, u32 n,
		      int (*elem)(struct sk_buff *skb, u32 i, const void *arg),
		      const void *arg)
{
	struct nlattr *array, *nest;
	u32 i;

	array = nla_nest_start(skb, type);
	if (!array)
		return -EMSGSIZE;
	for (i = 0; i < n; i++) {
		nest = nla_nest_start(skb, i + 1);
		if (!nest || elem(skb, i, arg))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	nla_nest_end(skb, array);
	return 0;
}

static int put_dest(struct sk_buff *skb, u32 i, const void *arg)
{
	const struct eqds_config *cfg = arg;

	return eqds_nl_put_prefix(skb, &cfg->dests[i]);
}

/* One EQDS_A_CLASS nest; the selectors belong to the ll class only. */
static int put_class(struct sk_buff *skb, const struct eqds_config *cfg, u8 id)
{
	const struct eqds_class_config *c = &cfg->classes[id];
	struct nlattr *nest = nla_nest_start(skb, EQDS_A_CLASS);

	if (!nest ||
	    nla_put_u8(skb, EQDS_CLASS_A_ID, id) ||
	    nla_put_u32(skb, EQDS_CLASS_A_QUEUE_LIMIT, c->queue_limit) ||
	    nla_put_u32(skb, EQDS_CLASS_A_ECN_MIN, c->ecn_min) ||
	    nla_put_u32(skb, EQDS_CLASS_A_ECN_MAX, c->ecn_max) ||
	    nla_put_u32(skb, EQDS_CLASS_A_TC_PRIORITY, c->tc_priority))
		return -EMSGSIZE;
	if (id == EQDS_CLASS_LL &&
	    (nla_put_u32(skb, EQDS_CLASS_A_PRIORITY, cfg->ll_priority) ||
	     nla_put_u32(skb, EQDS_CLASS_A_MARK, cfg->ll_mark) ||
	     nla_put_u32(skb, EQDS_CLASS_A_MARK_MASK, cfg->ll_mark_mask)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int put_classes(struct sk_buff *skb, const struct eqds_config *cfg)
{
	u8 id;

	for (id = 0; id < EQDS_NCLASSES; id++)
		if (put_class(skb, cfg, id))
			return -EMSGSIZE;
	return 0;
}

static int put_stats(struct sk_buff *skb, struct eqds_net *en)
{
	u64 v[__EQDS_STATS_A_MAX];
	struct nlattr *nest;
	int i;

	eqds_stats_sum(en->stats, v);
	/* A gauge the datapath keeps in one atomic: it also enforces a limit. */
	v[EQDS_STATS_A_QUEUED_BYTES] = atomic64_read(&en->queued_bytes);
	spin_lock_bh(&en->sched_lock);
	v[EQDS_STATS_A_PULL_RATE] = en->sched.rate_bps;
	spin_unlock_bh(&en->sched_lock);
	nest = nla_nest_start(skb, EQDS_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = EQDS_STATS_A_PAD + 1; i < __EQDS_STATS_A_MAX; i++)
		if (nla_put_u64_64bit(skb, i, v[i], EQDS_STATS_A_PAD))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int fill_instance(struct sk_buff *skb, struct eqds_net *en, u32 portid,
			 u32 seq, int flags)
{
	const struct eqds_config *cfg;
	void *hdr;
	int err;

	hdr = genlmsg_put(skb, portid, seq, &eqds_genl_family, flags,
			  EQDS_CMD_GET_INSTANCE);
	if (!hdr)
		return -EMSGSIZE;

	rcu_read_lock();
	cfg = rcu_dereference(en->config);
	err = -EMSGSIZE;
	if (nla_put_string(skb, EQDS_A_VERSION, EQDS_VERSION) ||
	    nla_put_u16(skb, EQDS_A_PORT, cfg->port) ||
	    nla_put_u32(skb, EQDS_A_PULL_RATE, cfg->pull_rate_mbit) ||
	    nla_put_u8(skb, EQDS_A_MODE, cfg->mode) ||
	    nla_put_u32(skb, EQDS_A_WINDOW, cfg->window) ||
	    nla_put_u32(skb, EQDS_A_IDLE_TIMEOUT, cfg->idle_timeout_ms) ||
	    nla_put_u8(skb, EQDS_A_HEADROOM, cfg->headroom) ||
	    nla_put_u32(skb, EQDS_A_QUEUED_LIMIT, cfg->queued_limit_kb))
		goto unlock;
	if (put_classes(skb, cfg) || eqds_policy_nl_put(skb, cfg))
		goto unlock;
	err = eqds_nl_put_array(skb, EQDS_A_DESTS, cfg->ndests, put_dest, cfg);
unlock:
	rcu_read_unlock();
	if (!err)
		err = put_stats(skb, en);
	if (err) {
		genlmsg_cancel(skb, hdr);
		return err;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int eqds_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct eqds_net *en = eqds_net(genl_info_net(info));
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = fill_instance(msg, en, info->snd_portid, info->snd_seq, 0);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* There is one instance per namespace: the dump is that one message. */
static int eqds_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct eqds_net *en = eqds_net(sock_net(skb->sk));
	int err;

	if (cb->args[0])
		return 0;
	err = fill_instance(skb, en, NETLINK_CB(cb->skb).portid,
			    cb->nlh->nlmsg_seq, NLM_F_MULTI);
	if (err)
		return err;
	cb->args[0] = 1;
	return skb->len;
}

int eqds_nl_get_addr(const struct nlattr *nest, const struct nlattr *fam,
		     const struct nlattr *addr, u16 *family,
		     struct netlink_ext_ack *extack)
{
	if (!fam || !addr) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "a host needs its address family and address");
		return -EINVAL;
	}
	*family = nla_get_u16(fam);
	if ((*family != AF_INET && *family != AF_INET6) ||
	    nla_len(addr) != (*family == AF_INET ? 4 : 16)) {
		NL_SET_ERR_MSG_ATTR(extack, addr,
				    "address must be 4 bytes for AF_INET or 16 for AF_INET6");
		return -EINVAL;
	}
	return 0;
}

int eqds_nl_parse_prefix(struct nlattr **tb, int maxtype, const struct nlattr *nest,
			 const struct nla_policy *policy, struct eqds_prefix *p,
			 struct netlink_ext_ack *extack)
{
	u16 family;
	int err;

	err = nla_parse_nested(tb, maxtype, nest, policy, extack);
	if (err)
		return err;
	if (!tb[EQDS_DEST_A_FAMILY] || !tb[EQDS_DEST_A_ADDR] || !tb[EQDS_DEST_A_PREFIXLEN]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "prefix needs family, address and prefix length");
		return -EINVAL;
	}
	err = eqds_nl_get_addr(nest, tb[EQDS_DEST_A_FAMILY], tb[EQDS_DEST_A_ADDR],
			       &family, extack);
	if (err)
		return err;
	if (eqds_prefix_init(p, family, nla_data(tb[EQDS_DEST_A_ADDR]),
			     nla_get_u8(tb[EQDS_DEST_A_PREFIXLEN]))) {
		NL_SET_ERR_MSG_ATTR(extack, tb[EQDS_DEST_A_PREFIXLEN],
				    "prefix length too long for the address family");
		return -EINVAL;
	}
	return 0;
}

int eqds_nl_parse_array(const struct nlattr *array, u32 max,
			int (*elem)(const struct nlattr *nest, u32 i, void *arg,
				    struct netlink_ext_ack *extack),
			void *arg, struct netlink_ext_ack *extack)
{
	const struct nlattr *nest;
	int rem, err;
	u32 n = 0;

	nla_for_each_nested(nest, array, rem) {
		if (n == max) {
			NL_SET_ERR_MSG_ATTR(extack, nest, "more elements than the list holds");
			return -E2BIG;
		}
		err = elem(nest, n, arg, extack);
		if (err)
			return err;
		n++;
	}
	return n;
}

static int parse_dest(const struct nlattr *nest, u32 i, void *arg,
		      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[EQDS_DEST_A_MAX + 1];
	struct eqds_config *cfg = arg;

	return eqds_nl_parse_prefix(tb, EQDS_DEST_A_MAX, nest, dest_policy,
				    &cfg->dests[i], extack);
}

/*
 * One class's attributes, checked as they will be once the request is
 * applied: a request may lower a limit and its thresholds together, but
 * may not leave a threshold above the limit.
 */
static int parse_class(const struct nlattr *nest, struct eqds_config *cfg,
		       unsigned long *seen, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[EQDS_CLASS_A_MAX + 1];
	struct eqds_class_config *c;
	const struct nlattr *at;
	int err;
	u8 id;

	err = nla_parse_nested(tb, EQDS_CLASS_A_MAX, nest, class_policy, extack);
	if (err)
		return err;
	if (!tb[EQDS_CLASS_A_ID]) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "a class nest needs the class id");
		return -EINVAL;
	}
	id = nla_get_u8(tb[EQDS_CLASS_A_ID]);
	if (__test_and_set_bit(id, seen)) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "two nests for the same class");
		return -EINVAL;
	}
	at = tb[EQDS_CLASS_A_PRIORITY] ?: tb[EQDS_CLASS_A_MARK] ?: tb[EQDS_CLASS_A_MARK_MASK];
	if (at && id != EQDS_CLASS_LL) {
		NL_SET_ERR_MSG_ATTR(extack, at,
				    "only the ll class is selected by priority or mark");
		return -EINVAL;
	}
	c = &cfg->classes[id];
	eqds_nl_get_u32(tb, EQDS_CLASS_A_QUEUE_LIMIT, &c->queue_limit);
	eqds_nl_get_u32(tb, EQDS_CLASS_A_ECN_MIN, &c->ecn_min);
	eqds_nl_get_u32(tb, EQDS_CLASS_A_ECN_MAX, &c->ecn_max);
	eqds_nl_get_u32(tb, EQDS_CLASS_A_TC_PRIORITY, &c->tc_priority);
	eqds_nl_get_u32(tb, EQDS_CLASS_A_PRIORITY, &cfg->ll_priority);
	eqds_nl_get_u32(tb, EQDS_CLASS_A_MARK, &cfg->ll_mark);
	eqds_nl_get_u32(tb, EQDS_CLASS_A_MARK_MASK, &cfg->ll_mark_mask);

	at = tb[EQDS_CLASS_A_ECN_MAX] ?: tb[EQDS_CLASS_A_ECN_MIN] ?:
	     tb[EQDS_CLASS_A_QUEUE_LIMIT] ?: nest;
	if (c->ecn_min > c->queue_limit || c->ecn_max > c->queue_limit) {
		NL_SET_ERR_MSG_ATTR(extack, at,
				    "ECN threshold above the class's queue limit");
		return -EINVAL;
	}
	if (c->ecn_max && c->ecn_max < c->ecn_min) {
		NL_SET_ERR_MSG_ATTR(extack, at, "ECN max threshold below the min threshold");
		return -EINVAL;
	}
	if (cfg->ll_mark & ~cfg->ll_mark_mask) {
		NL_SET_ERR_MSG_ATTR(extack, tb[EQDS_CLASS_A_MARK] ?: tb[EQDS_CLASS_A_MARK_MASK],
				    "ll mark has bits outside its mask");
		return -EINVAL;
	}
	return 0;
}

/* EQDS_A_CLASS is multi-attr: info->attrs holds only the last one. */
static int parse_classes(const struct genl_info *info, struct eqds_config *cfg)
{
	unsigned long seen = 0;
	struct nlattr *nla;
	int rem, err;

	nlmsg_for_each_attr(nla, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nla) != EQDS_A_CLASS)
			continue;
		err = parse_class(nla, cfg, &seen, info->extack);
		if (err)
			return err;
	}
	return 0;
}

/* Validate everything into a copy, then publish it: all or nothing. */
static int eqds_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct eqds_net *en = eqds_net(genl_info_net(info));
	struct nlattr **a = info->attrs;
	struct eqds_config *cfg;
	int err;

	if (a[EQDS_A_TUNNEL]) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[EQDS_A_TUNNEL],
				    "tunnels are not configured: they come and go with traffic");
		return -EINVAL;
	}
	if (a[EQDS_A_BOUND] || a[EQDS_A_NETNS_FD]) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[EQDS_A_BOUND] ?: a[EQDS_A_NETNS_FD],
				    "a namespace's bound is set by the host (EQDS_CMD_SET_BOUND)");
		return -EINVAL;
	}
	mutex_lock(&en->lock);
	cfg = kmemdup(rcu_dereference_protected(en->config, lockdep_is_held(&en->lock)),
		      sizeof(*cfg), GFP_KERNEL);
	err = -ENOMEM;
	if (!cfg)
		goto out;

	if (a[EQDS_A_POLICY]) {
		err = eqds_policy_nl_parse(a[EQDS_A_POLICY], cfg, info->extack);
		if (err)
			goto out_free;
	}
	if (a[EQDS_A_DESTS]) {
		err = eqds_nl_parse_array(a[EQDS_A_DESTS], EQDS_MAX_DESTS, parse_dest, cfg,
					  info->extack);
		if (err < 0)
			goto out_free;
		cfg->ndests = err;
	}
	eqds_nl_get_u16(a, EQDS_A_PORT, &cfg->port);
	eqds_nl_get_u32(a, EQDS_A_PULL_RATE, &cfg->pull_rate_mbit);
	eqds_nl_get_u8(a, EQDS_A_MODE, &cfg->mode);
	eqds_nl_get_u32(a, EQDS_A_WINDOW, &cfg->window);
	eqds_nl_get_u32(a, EQDS_A_IDLE_TIMEOUT, &cfg->idle_timeout_ms);
	eqds_nl_get_u8(a, EQDS_A_HEADROOM, &cfg->headroom);
	eqds_nl_get_u32(a, EQDS_A_QUEUED_LIMIT, &cfg->queued_limit_kb);
	err = parse_classes(info, cfg);
	if (err)
		goto out_free;

	err = eqds_net_set_config(en, cfg, info->extack);
	goto out;
out_free:
	kfree(cfg);
out:
	mutex_unlock(&en->lock);
	return err;
}

static const struct genl_ops eqds_genl_ops[] = {
	{
		.cmd = EQDS_CMD_GET_INSTANCE,
		.doit = eqds_get_doit,
		.dumpit = eqds_get_dumpit,
	},
	{
		.cmd = EQDS_CMD_SET_INSTANCE,
		.doit = eqds_set_doit,
		/* CAP_NET_ADMIN in the user namespace owning the netns. */
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		/*
		 * A tunnel's epoch and sequence numbers are what a forger needs:
		 * CAP_NET_ADMIN in the user namespace owning the netns, as for
		 * SET_INSTANCE (the core checks dumps too).
		 */
		.cmd = EQDS_CMD_GET_TUNNEL,
		.doit = eqds_tunnel_get_doit,
		.dumpit = eqds_tunnel_get_dumpit,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = EQDS_CMD_SET_BOUND,
		.doit = eqds_bound_set_doit,
		/* The host's operator: CAP_NET_ADMIN in the initial user ns. */
		.flags = GENL_ADMIN_PERM,
	},
};

/*
 * Events carry the epochs of tunnels, as GET_TUNNEL does: joining needs
 * CAP_NET_ADMIN in the user namespace owning the netns (genl_bind() checks
 * it: the flag is in the 6.1 stable series and upstream since 6.7).
 */
static const struct genl_multicast_group eqds_genl_mcgrps[] = {
	[EQDS_MCGRP_TUNNELS_ID] = {
		.name = EQDS_MCGRP_TUNNELS,
		.flags = GENL_MCAST_CAP_NET_ADMIN,
	},
};

struct genl_family eqds_genl_family __ro_after_init = {
	.name = EQDS_GENL_NAME,
	.version = EQDS_GENL_VERSION,
	.maxattr = EQDS_A_MAX,
	.policy = eqds_policy,
	.netnsok = true,
	.parallel_ops = false,
	.module = THIS_MODULE,
	.ops = eqds_genl_ops,
	.n_ops = ARRAY_SIZE(eqds_genl_ops),
	.mcgrps = eqds_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(eqds_genl_mcgrps),
	/* resv_start_op 0: every op is strictly validated against the policy. */
};

int __init eqds_genl_register(void)
{
	int err = genl_register_family(&eqds_genl_family);

	if (!err)
		eqds_events_enable(true);
	return err;
}

void eqds_genl_unregister(void)
{
	eqds_events_enable(false);
	genl_unregister_family(&eqds_genl_family);
}
