/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's parameters (params.c, Documentation/eqds.rst "Module
 * parameters"). Those writable under /sys/module/eqds/parameters/ are read
 * at every use, with READ_ONCE(); the others only at load.
 */
#ifndef _EQDS_PARAMS_H
#define _EQDS_PARAMS_H

#include <linux/types.h>

struct eqds_config;

/* Most tunnels (each way) one namespace may hold. */
#define EQDS_MAX_TUNNELS		65536
/* New receiving tunnels per second and namespace, by default. */
#define EQDS_DEFAULT_TUNNEL_RATE	10000
/* How long a half-open receiving tunnel lives, by default (tunnels.c). */
#define EQDS_HALF_OPEN_MS		1000
/* The host's bound on the KiB queued in all sending tunnels, by default. */
#define EQDS_HOST_QUEUED_LIMIT_KB	1048576

/* Per namespace: receiving (admit.c) and sending (tunnels.c) tunnels. */
extern unsigned int eqds_max_rx_tunnels;
extern unsigned int eqds_max_tx_tunnels;
/* New receiving tunnels per second and namespace (admit.c). */
extern unsigned int eqds_tunnel_rate;
/* Lifetime of a half-open receiving tunnel, ms (tunnels.c). */
extern unsigned int eqds_half_open_ms;
/* What small packets may borrow per sending tunnel, bytes; 0: none (core/tx.h). */
#define EQDS_SMALL_OVERDRAFT		1536
extern unsigned int eqds_small_overdraft;
/* Spray around lossy and marked path ids, echo marks (core/paths.h). */
extern bool eqds_path_choice;
#define EQDS_PULL_TURN_US		50
extern unsigned int eqds_pull_turn_us;
/* KiB queued in all namespaces' sending tunnels together; 0: none (tx_tunnel.c). */
extern unsigned int eqds_host_queued_limit_kb;
/* React to core congestion (pull.h); read only at load. */
extern bool eqds_core_cc;
/* Test only: reap every new tunnel at once (tunnels.c). */
extern bool eqds_test_reap_new_tunnels;
#ifdef EQDS_TEST_INJECT
/* Test builds only: leak a copy of the first N data packets (inject.c). */
extern unsigned int eqds_test_leak_skb;
#endif

/* Read dests, port and pull_rate into the initial configuration (load). */
int eqds_params_parse(void);
/* The configuration every new network namespace starts with. */
const struct eqds_config *eqds_initial_config(void);

#endif /* _EQDS_PARAMS_H */
