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
int eqds_nl_put_prefix(struct sk_buff *skb, const struct eqds_prefix *p);
int eqds_nl_get_prefix(struct nlattr **tb, const struct nlattr *nest,
		       struct eqds_prefix *p, struct netlink_ext_ack *extack);

int eqds_genl_register(void);
void eqds_genl_unregister(void);

#endif /* _EQDS_NETLINK_H */
