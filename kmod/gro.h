/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EQDS_GRO_H
#define _EQDS_GRO_H

#include <linux/skbuff.h>

struct sock;
struct list_head;

struct sk_buff *eqds_gro_receive(struct sock *sk, struct list_head *head,
				 struct sk_buff *skb);
int eqds_gro_complete(struct sock *sk, struct sk_buff *skb, int nhoff);

#endif /* _EQDS_GRO_H */
