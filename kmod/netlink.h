/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EQDS_NETLINK_H
#define _EQDS_NETLINK_H

#include <net/genetlink.h>

/* Indexes into the family's multicast groups. */
enum {
	EQDS_MCGRP_TUNNELS_ID,		/* EQDS_MCGRP_TUNNELS */
};

extern struct genl_family eqds_genl_family;

struct eqds_prefix;

/*
 * Shared by the handlers of every nest (netlink.c, tunnel_nl.c,
 * policy_nl.c). Each sets an extack message on failure.
 */

/* A prefix as the first three attributes of a nest (EQDS_DEST_A_* numbering). */
int eqds_nl_put_prefix(struct sk_buff *skb, const struct eqds_prefix *p);
/*
 * A host: its family attribute fam and address attribute addr of a nest,
 * the address of the family's length (4 or 16 bytes). Both are required.
 */
int eqds_nl_get_addr(const struct nlattr *nest, const struct nlattr *fam,
		     const struct nlattr *addr, u16 *family,
		     struct netlink_ext_ack *extack);
/*
 * Parses a prefix-bearing nest (EQDS_DEST_A_*, EQDS_POLICY_A_*: numbered
 * alike) into tb (maxtype + 1 entries) against policy, and its prefix into p.
 */
int eqds_nl_parse_prefix(struct nlattr **tb, int maxtype, const struct nlattr *nest,
			 const struct nla_policy *policy, struct eqds_prefix *p,
			 struct netlink_ext_ack *extack);
/*
 * Calls elem for each nest of an indexed array (EQDS_A_DESTS, EQDS_A_POLICY)
 * with its position, at most max of them: returns how many, or the first
 * error. The element types are not looked at (replies number them 1..n).
 */
int eqds_nl_parse_array(const struct nlattr *array, u32 max,
			int (*elem)(const struct nlattr *nest, u32 i, void *arg,
				    struct netlink_ext_ack *extack),
			void *arg, struct netlink_ext_ack *extack);

int eqds_genl_register(void);
void eqds_genl_unregister(void);

#endif /* _EQDS_NETLINK_H */
