/* SPDX-License-Identifier: GPL-2.0 */
/*
 * EQDS_CMD_GET_TUNNEL and the EQDS_A_TUNNEL nest (tunnel_nl.c).
 */
#ifndef _EQDS_TUNNEL_NL_H
#define _EQDS_TUNNEL_NL_H

#include <net/genetlink.h>

struct eqds_addr;

/* The EQDS_A_TUNNEL nest of requests: peer and direction only. */
extern const struct nla_policy eqds_tunnel_req_policy[EQDS_TUNNEL_A_MAX + 1];

int eqds_tunnel_get_doit(struct sk_buff *skb, struct genl_info *info);
int eqds_tunnel_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

/* ID, direction, family and peer: what names a tunnel in events. */
int eqds_nl_put_tunnel_name(struct sk_buff *skb, u8 dir, u32 id,
			    const struct eqds_addr *peer);

#endif /* _EQDS_TUNNEL_NL_H */
