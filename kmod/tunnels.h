/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-namespace tunnel tables: lookup, on-demand creation, idle teardown.
 */
#ifndef _EQDS_TUNNELS_H
#define _EQDS_TUNNELS_H

#include "tunnel.h"
#include "params.h"

struct eqds_config;

struct eqds_txt *eqds_txt_lookup(struct eqds_net *en, const struct eqds_addr *peer);
/*
 * The tunnel to or from peer, created if there is none. NULL if it cannot
 * be: *why is then set to the drop_* counter of the reason (tunnel_limit,
 * nomem), or left as it was when the namespace is going away or a
 * concurrent creation failed.
 */
struct eqds_txt *eqds_txt_get(struct eqds_net *en, const struct eqds_addr *peer,
			      enum eqds_stats_attr *why);
/* Receiving tunnels: one per (sender, our address) pair (tunnels.c). */
struct eqds_rxt *eqds_rxt_lookup(struct eqds_net *en, const struct eqds_addr *peer,
				 const struct eqds_addr *local);
struct eqds_rxt *eqds_rxt_get(struct eqds_net *en, const struct eqds_addr *peer,
			      const struct eqds_addr *local, enum eqds_stats_attr *why);

/*
 * A receiving tunnel with no epoch yet, or whose sender has not shown that
 * it heard us and that has delivered no more than its first packet
 * (eqds_epoch_half_open()): reaped after the half-open timeout. Lockless
 * read.
 */
bool eqds_rxt_half_open(const struct eqds_rxt *t);

/* tx_tunnel.c / rx_tunnel.c: set up, tear down one tunnel. */
void eqds_txt_setup(struct eqds_txt *t, const struct eqds_config *cfg);
void eqds_txt_purge(struct eqds_txt *t);
bool eqds_txt_idle(struct eqds_txt *t, unsigned long timeout);
void eqds_rxt_setup(struct eqds_rxt *t, const struct eqds_config *cfg);
void eqds_rxt_learn_paths(struct eqds_rxt *t);
void eqds_rxt_purge(struct eqds_rxt *t);
bool eqds_rxt_idle(struct eqds_rxt *t, unsigned long timeout);

#endif /* _EQDS_TUNNELS_H */
