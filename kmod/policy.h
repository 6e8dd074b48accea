/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Receiver sharing policy (Documentation/policy.rst): which share of the
 * namespace's pulls each sender gets (weight, strict-priority level, rate
 * cap, by the longest matching prefix), and the initial namespace's bound
 * on what another namespace may give its senders. The scheduling itself is
 * the core's (core/pacer.h); this file maps configuration onto it.
 */
#ifndef _EQDS_POLICY_H
#define _EQDS_POLICY_H

#include <net/genetlink.h>
#include <linux/eqds.h>

struct eqds_net;
struct eqds_rxt;
struct eqds_config;

/*
 * Give t its share under cfg. Caller holds en->sched_lock, or t is not on
 * the list yet (being set up).
 */
void eqds_policy_apply(struct eqds_net *en, struct eqds_rxt *t,
		       const struct eqds_config *cfg);
/* After a configuration change: every receiving tunnel. Process context. */
void eqds_policy_apply_all(struct eqds_net *en);
/* Whether the sharing policy or the bound differ (notify, re-apply). */
bool eqds_policy_changed(const struct eqds_config *a, const struct eqds_config *b);

/* Netlink (policy_nl.c; netlink.c calls these for EQDS_A_POLICY and EQDS_A_BOUND). */
extern const struct nla_policy eqds_policy_rule_policy[EQDS_POLICY_A_MAX + 1];
extern const struct nla_policy eqds_bound_policy[EQDS_BOUND_A_MAX + 1];
int eqds_policy_nl_parse(const struct nlattr *list, struct eqds_config *cfg,
			 struct netlink_ext_ack *extack);
int eqds_policy_nl_put(struct sk_buff *skb, const struct eqds_config *cfg);
int eqds_bound_set_doit(struct sk_buff *skb, struct genl_info *info);

#endif /* _EQDS_POLICY_H */
