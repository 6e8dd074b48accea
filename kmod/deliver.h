/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Handing decapsulated packets to the stack, through GRO.
 */
#ifndef _EQDS_DELIVER_H
#define _EQDS_DELIVER_H

struct eqds_net;
struct sk_buff;

int eqds_deliver_init(struct eqds_net *en);
/* Only once nothing can deliver any more (sockets closed, tunnels gone). */
void eqds_deliver_destroy(struct eqds_net *en);
/* Softirq context. Consumes skb. */
void eqds_deliver(struct eqds_net *en, struct sk_buff *skb);

#endif /* _EQDS_DELIVER_H */
