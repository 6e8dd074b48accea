/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-namespace configuration: an immutable snapshot replaced as a whole.
 *
 * Readers (the datapath, softirq) see a consistent configuration through
 * rcu_dereference(); writers (netlink, process context) build a new copy
 * under eqds_net->lock and publish it with rcu_assign_pointer(), so the
 * datapath never takes a lock to read it.
 */
#ifndef _EQDS_CONFIG_H
#define _EQDS_CONFIG_H

#include <linux/types.h>
#include <linux/in6.h>
#include <linux/rcupdate.h>
#include <linux/eqds.h>

struct eqds_prefix {
	u16 family;		/* AF_INET or AF_INET6 */
	u8 len;			/* prefix length in bits */
	union {
		__be32 v4;
		struct in6_addr v6;
	} addr;			/* host bits are always zero */
};

/*
 * Sending EQIF classes: one queue each in every sending tunnel. The
 * low-latency class is served first (strict priority, tx_tunnel.c). The
 * netlink API names them by these numbers (enum eqds_class_id).
 */
enum eqds_class {
	EQDS_CLASS_TCP = EQDS_CLASS_ID_TCP,	/* TCP-compatible: the default */
	EQDS_CLASS_LL = EQDS_CLASS_ID_LL,	/* low latency: short queue, served first */
	EQDS_NCLASSES = __EQDS_CLASS_ID_MAX
};

struct eqds_class_config {
	u32 queue_limit;	/* packets (a GSO packet counts one) */
	u32 ecn_min;		/* packets; 0: half of queue_limit */
	u32 ecn_max;		/* packets; 0: ecn_min (step marking) */
	u32 tc_priority;	/* skb->priority of the encapsulated packets */
};

/* One sharing rule (policy.c): the senders in prefix get this share. */
struct eqds_policy_rule {
	struct eqds_prefix prefix;
	u32 weight;		/* 1..EQDS_WEIGHT_MAX */
	u8 prio;		/* 0..EQDS_PRIO_MAX, 0 the highest */
	u32 rate_mbit;		/* cap per sender; 0: none */
};

/* The initial namespace's bound on this one (EQDS_CMD_SET_BOUND). */
struct eqds_bound {
	u32 pull_rate_mbit;	/* 0: none */
	u32 max_weight;		/* 0: none */
	u8 min_prio;		/* 0: none (every level allowed) */
};

struct eqds_config {
	struct rcu_head rcu;
	u16 port;
	u8 mode;		/* enum eqds_start_mode */
	u32 pull_rate_mbit;	/* 0: the ingress device's speed */
	u8 headroom;		/* percent of the device speed not pulled */
	u32 window;		/* packets */
	u32 idle_timeout_ms;
	struct eqds_class_config classes[EQDS_NCLASSES];
	u32 ll_priority;	/* skb->priority selecting ll; 0: none */
	u32 ll_mark;		/* (skb->mark & ll_mark_mask) == ll_mark selects ll */
	u32 ll_mark_mask;	/* 0: the mark selects nothing */
	u32 queued_limit_kb;	/* all tunnels' queues together; 0: no limit */
	u32 ndests;
	struct eqds_prefix dests[EQDS_MAX_DESTS];
	struct eqds_bound bound;
	u32 npolicies;
	struct eqds_policy_rule policies[EQDS_MAX_POLICIES];
};

void eqds_config_set_defaults(struct eqds_config *cfg);
int eqds_prefix_init(struct eqds_prefix *p, u16 family, const void *addr, u8 len);
int eqds_prefix_parse(const char *str, struct eqds_prefix *p);
int eqds_dests_parse(const char *list, struct eqds_config *cfg);
/* addr (4 or 16 bytes by family) is in p. */
bool eqds_prefix_match(const struct eqds_prefix *p, u16 family, const void *addr);
bool eqds_config_has_dest(const struct eqds_config *cfg, u16 family, const void *addr);

#endif /* _EQDS_CONFIG_H */
