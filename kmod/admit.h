/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who may talk EQDS, and what a received packet must look like before any
 * state is touched for it: the checks between the decoder and the tunnels.
 * See Documentation/threat-model.rst for why each one exists.
 */
#ifndef _EQDS_ADMIT_H
#define _EQDS_ADMIT_H

#include <linux/skbuff.h>
#include <linux/eqds.h>
#include "tunnel.h"
#include "params.h"

struct eqds_net;
struct eqds_config;

/*
 * New receiving tunnels one namespace may create: at most rate per second,
 * counted in slots of a tenth of a second. Lock-free; two CPUs that start a
 * new slot at once may each allow a slot's worth (a bounded overshoot).
 * Zeroed with the namespace, which starts a slot at the first use.
 */
struct eqds_tunnel_rate {
	unsigned long slot;	/* jiffies at which the current slot began */
	atomic_t used;		/* tunnels admitted in it */
};

/* Is the sender of a packet one of our configured peers (dests)? */
bool eqds_peer_ok(const struct eqds_config *cfg, const struct eqds_addr *peer);

/*
 * A data packet whose outer headers are pulled (skb->data at the inner
 * packet): may it go to the receiving side? Returns 0, or the counter of
 * the reason it must be dropped. May lower pkt's pull target (see admit.c).
 * Softirq, under rcu_read_lock().
 */
enum eqds_stats_attr eqds_admit_data(struct eqds_net *en, struct sk_buff *skb,
				     struct eqds_pkt *pkt,
				     const struct eqds_addr *peer,
				     const struct eqds_addr *local);

#endif /* _EQDS_ADMIT_H */
