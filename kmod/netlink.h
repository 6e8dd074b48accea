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
 * Indexed arrays (EQDS_A_DESTS, EQDS_A_POLICY): a nest of type holding one
 * nest per element, numbered 1..n in replies; elem fills or parses element
 * i. Parsing ignores the element types, takes at most max of them, and
 * returns how many, or the first error.
 */
int eqds_nl_put_array(struct sk_buff *skb, int type, u32 n,
		      int (*elem)(struct sk_buff *skb, u32 i, const void *arg),
		      const void *arg);
int eqds_nl_parse_array(const struct nlattr *array, u32 max,
			int (*elem)(const struct nlattr *nest, u32 i, void *arg,
				    struct netlink_ext_ack *extack),
			void *arg, struct netlink_ext_ack *extack);

/* An optional attribute: *v changes only if tb[type] is present. */
static inline void eqds_nl_get_u8(struct nlattr **tb, int type, u8 *v)
{
	if (tb[type])
		*v = nla_get_u8(tb[type]);
}

static inline void eqds_nl_get_u16(struct nlattr **tb, int type, u16 *v)
{
	if (tb[type])
		*v = nla_get_u16(tb[type]);
}

static inline void eqds_nl_get_u32(struct nlattr **tb, int type, u32 *v)
{
	if (tb[type])
		*v = nla_get_u32(tb[type]);
}

int eqds_genl_register(void);
void eqds_genl_unregister(void);

#endif /* _EQDS_NETLINK_H */
