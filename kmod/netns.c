// SPDX-License-Identifier: GPL-2.0
/*
 * Per network namespace lifetime: each namespace gets an instance configured
 * from the module parameters, torn down when the namespace goes away.
 */
#include <linux/slab.h>
#include "eqds.h"
#include "netns.h"

unsigned int eqds_net_id __read_mostly;

static int __net_init eqds_net_init(struct net *net)
{
	struct eqds_net *en = eqds_net(net);
	struct eqds_config *cfg;

	cfg = kmemdup(eqds_initial_config(), sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	en->stats = eqds_stats_alloc();
	if (!en->stats) {
		kfree(cfg);
		return -ENOMEM;
	}
	en->net = net;
	mutex_init(&en->lock);
	RCU_INIT_POINTER(en->config, cfg);
	return 0;
}

static void __net_exit eqds_net_exit(struct net *net)
{
	struct eqds_net *en = eqds_net(net);

	/* No datapath user is left: the namespace is dead. */
	kfree(rcu_dereference_protected(en->config, true));
	eqds_stats_free(en->stats);
}

static struct pernet_operations eqds_net_ops = {
	.init = eqds_net_init,
	.exit = eqds_net_exit,
	.id = &eqds_net_id,
	.size = sizeof(struct eqds_net),
};

/* Takes ownership of @cfg. Caller holds en->lock. */
int eqds_net_set_config(struct eqds_net *en, struct eqds_config *cfg)
{
	struct eqds_config *old;

	lockdep_assert_held(&en->lock);
	old = rcu_replace_pointer(en->config, cfg, lockdep_is_held(&en->lock));
	kfree_rcu(old, rcu);
	return 0;
}

int eqds_netns_register(void)
{
	return register_pernet_subsys(&eqds_net_ops);
}

void eqds_netns_unregister(void)
{
	unregister_pernet_subsys(&eqds_net_ops);
}
