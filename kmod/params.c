// SPDX-License-Identifier: GPL-2.0
/*
 * Every module parameter of eqds, and the configuration each new network
 * namespace starts with (Documentation/eqds.rst, "Module parameters").
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include "config.h"
#include "params.h"

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

unsigned int eqds_max_tx_tunnels = EQDS_MAX_TUNNELS;
module_param_named(max_tx_tunnels, eqds_max_tx_tunnels, uint, 0644);
MODULE_PARM_DESC(max_tx_tunnels, "Most sending tunnels per namespace (default "
		 __stringify(EQDS_MAX_TUNNELS) ")");

unsigned int eqds_host_queued_limit_kb = EQDS_HOST_QUEUED_LIMIT_KB;
module_param_named(host_queued_limit_kb, eqds_host_queued_limit_kb, uint, 0644);
MODULE_PARM_DESC(host_queued_limit_kb, "Most KiB queued in the sending tunnels of all namespaces together; 0 = no bound (default "
		 __stringify(EQDS_HOST_QUEUED_LIMIT_KB) ")");

unsigned int eqds_tunnel_rate = EQDS_DEFAULT_TUNNEL_RATE;
module_param_named(tunnel_rate, eqds_tunnel_rate, uint, 0644);
MODULE_PARM_DESC(tunnel_rate, "Most new receiving tunnels per second per namespace (default "
		 __stringify(EQDS_DEFAULT_TUNNEL_RATE) ")");

/*
 * Small packets (pure TCP acks) go ahead of the pulls that pay for them, up
 * to this many bytes of debt per sending tunnel (core/tx.h; eqds.rst,
 * "Small packets"). Read when a tunnel starts.
 */
unsigned int eqds_small_overdraft = EQDS_SMALL_OVERDRAFT;
module_param_named(small_overdraft, eqds_small_overdraft, uint, 0644);
MODULE_PARM_DESC(small_overdraft, "Bytes of credit small packets may borrow per sending tunnel, repaid by pulls; 0 = none (default "
		 __stringify(EQDS_SMALL_OVERDRAFT) ")");

/*
 * A sender's turn at the pull pacer lasts up to this much link time: at
 * high rates one pull carries several base turns (core/pacer.h), so pulls
 * per byte fall. Applied within a second (kmod/pull.c's rate work).
 */
unsigned int eqds_pull_turn_us = EQDS_PULL_TURN_US;
module_param_named(pull_turn_us, eqds_pull_turn_us, uint, 0644);
MODULE_PARM_DESC(pull_turn_us, "Most link time in us one pull's credit may take at high rates; 0 = 8 quanta at every rate (default "
		 __stringify(EQDS_PULL_TURN_US) ")");

/*
 * Sending tunnels skip the path ids whose packets were lost or came back
 * CE-marked (core/paths.h), read when a tunnel starts; receiving tunnels
 * echo marks (EQDS_CO_CE), read per packet. Off while hosts of an older
 * version, which refuse the echo, are peers.
 */
bool eqds_path_choice = true;
module_param_named(path_choice, eqds_path_choice, bool, 0644);
MODULE_PARM_DESC(path_choice, "Spray around path ids that lost or had marked a packet, and echo marks to senders; N while peers run an older version (default Y)");

unsigned int eqds_half_open_ms = EQDS_HALF_OPEN_MS;
module_param_named(half_open_ms, eqds_half_open_ms, uint, 0644);
MODULE_PARM_DESC(half_open_ms, "Lifetime in ms of a half-open receiving tunnel (default "
		 __stringify(EQDS_HALF_OPEN_MS) ")");

/*
 * The receiver's reaction to core congestion (core/congestion.h; eqds.rst,
 * "Core congestion"), for every namespace when the module is loaded with
 * core_cc=1: CE marks on arriving data lower the pull rate, DCTCP-like, down
 * to 1/64 of the rate below. Off by default (eqds.rst, "Limitations").
 */
bool eqds_core_cc;
module_param_named(core_cc, eqds_core_cc, bool, 0444);
MODULE_PARM_DESC(core_cc, "Lower the pull rate on CE-marked data (core congestion); default off");

/*
 * Test only (selftests/test_lifetimes.sh, Documentation/testing.rst): every
 * new tunnel is removed, as the reaper removes a tunnel it finds idle, right
 * after its publication in the hash table and before the rest of its
 * creation, the moment the reaper may take it in any real run. Off outside
 * tests: while on, no tunnel survives its creation.
 */
bool eqds_test_reap_new_tunnels;
module_param_named(test_reap_new_tunnels, eqds_test_reap_new_tunnels, bool, 0644);
MODULE_PARM_DESC(test_reap_new_tunnels,
		 "Test only: reap every new tunnel right after its publication (default off)");

#ifdef EQDS_TEST_INJECT
unsigned int eqds_test_leak_skb;
module_param_named(test_leak_skb, eqds_test_leak_skb, uint, 0644);
MODULE_PARM_DESC(test_leak_skb,
		 "TEST ONLY: leak a copy of each of the first N data packets received (kmemleak must report them)");
#endif

static struct eqds_config initial_config;

const struct eqds_config *eqds_initial_config(void)
{
	return &initial_config;
}

int __init eqds_params_parse(void)
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
