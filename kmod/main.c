// SPDX-License-Identifier: GPL-2.0
/*
 * eqds: Edge-Queued Datagram Service. Module entry points.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <net/genetlink.h>
#include "eqds.h"
#include "config.h"
#include "netns.h"
#include "netlink.h"
#include "tunnels.h"
#include "admit.h"
#include "params.h"

static int __init eqds_init(void)
{
	int err;

	err = eqds_params_parse();
	if (err)
		return err;
	err = eqds_netns_register();
	if (err)
		return err;
	err = eqds_genl_register();
	if (err)
		goto err_netns;
	pr_info("version " EQDS_VERSION " loaded\n");
	return 0;

err_netns:
	eqds_netns_unregister();
	return err;
}

static void __exit eqds_exit(void)
{
	eqds_genl_unregister();
	eqds_netns_unregister();
	rcu_barrier();	/* configurations freed with kfree_rcu() */
}

module_init(eqds_init);
module_exit(eqds_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("eqds developers");
MODULE_DESCRIPTION("Edge-Queued Datagram Service: receiver-pulled, sprayed tunnels for IP traffic");
MODULE_VERSION(EQDS_VERSION);
MODULE_ALIAS_GENL_FAMILY(EQDS_GENL_NAME);
