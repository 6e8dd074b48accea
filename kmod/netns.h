/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One eqds instance per network namespace: one namespace is one host.
 */
#ifndef _EQDS_NETNS_H
#define _EQDS_NETNS_H

#include <linux/mutex.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include "config.h"
#include "stats.h"

/*
 * Locking: @lock (process context) serialises configuration writers.
 * @config is RCU-protected; readers in any context need only rcu_read_lock().
 * @stats are per-CPU and updated without locks.
 */
struct eqds_net {
	struct net *net;
	struct mutex lock;	/* serialises configuration writers */
	struct eqds_config __rcu *config;
	struct eqds_pcpu_stats __percpu *stats;
};

extern unsigned int eqds_net_id;

static inline struct eqds_net *eqds_net(const struct net *net)
{
	return net_generic(net, eqds_net_id);
}

int eqds_netns_register(void);
void eqds_netns_unregister(void);
int eqds_net_set_config(struct eqds_net *en, struct eqds_config *cfg);

#endif /* _EQDS_NETNS_H */
