// SPDX-License-Identifier: GPL-2.0
/*
 * eqds: Edge-Queued Datagram Service. Module entry points and the parameters
 * every network namespace starts with.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/kernel.h>
#include <net/genetlink.h>
#include "eqds.h"
#include "config.h"
#include "netns.h"
#include "netlink.h"
#include "tunnels.h"
#include "admit.h"

static char *dests = "";
module_param(dests, charp, 0444);
MODULE_PARM_DESC(dests, "EQDS destination prefixes, comma separated (IPv4/IPv6 CIDR); empty captures nothing");

static ushort port = EQDS_DEFAULT_PORT;
module_param(port, ushort, 0444);
MODULE_PARM_DESC(port, "UDP port EQDS listens on and sends to (default "
		 __stringify(EQDS_DEFAULT_PORT) ")");

static uint pull_rate;
module_param(pull_rate, uint, 0444);
MODULE_PARM_DESC(pull_rate, "Receiver pull rate in Mbit/s; 0 (default) = the ingress device's speed");

unsigned int eqds_max_rx_tunnels = EQDS_MAX_TUNNELS;
module_param_named(max_rx_tunnels, eqds_max_rx_tunnels, uint, 0644);
MODULE_PARM_DESC(max_rx_tunnels, "Most receiving tunnels per namespace (default "
		 __stringify(EQDS_MAX_TUNNELS) ")");

module_param_named(max_tx_tunnels, eqds_max_tx_tunnels, uint, 0644);
MODULE_PARM_DESC(max_tx_tunnels, "Most sending tunnels per namespace (default "
		 __stringify(EQDS_MAX_TUNNELS) ")");

module_param_named(host_queued_limit_kb, eqds_host_queued_limit_kb, uint, 0644);
MODULE_PARM_DESC(host_queued_limit_kb, "Most KiB queued in the sending tunnels of all namespaces together; 0 = no bound (default "
		 __stringify(EQDS_HOST_QUEUED_LIMIT_KB) ")");

unsigned int eqds_tunnel_rate = EQDS_DEFAULT_TUNNEL_RATE;
module_param_named(tunnel_rate, eqds_tunnel_rate, uint, 0644);
MODULE_PARM_DESC(tunnel_rate, "Most new receiving tunnels per second per namespace (default "
		 __stringify(EQDS_DEFAULT_TUNNEL_RATE) ")");

module_param_named(half_open_ms, eqds_half_open_ms, uint, 0644);
MODULE_PARM_DESC(half_open_ms, "Lifetime in ms of a half-open receiving tunnel (default "
		 __stringify(EQDS_HALF_OPEN_MS) ")");

static struct eqds_config initial_config;

const struct eqds_config *eqds_initial_config(void)
{
	return &initial_config;
}

static int __init eqds_params_parse(void)
{
	int err;

	eqds_config_set_defaults(&initial_config);
	if (!port) {
		pr_err("port must not be 0\n");
		return -EINVAL;
	}
	initial_config.port = port;
	initial_config.pull_rate_mbit = pull_rate;
	err = eqds_dests_parse(dests, &initial_config);
	if (err)
		pr_err("invalid dests '%s': expected PREFIX[,PREFIX...] with at most %d entries\n",
		       dests, EQDS_MAX_DESTS);
	return err;
}

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
