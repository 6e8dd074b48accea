// SPDX-License-Identifier: GPL-2.0
/*
 * Decapsulated packets go up the stack through GRO, as a tunnel device's
 * would (vxlan, geneve, wireguard use gro_cells too): a split TSO burst
 * arrives as MTU-sized packets, and without GRO the receiver's TCP would
 * take each on its own, at several times the cost per byte of native TCP.
 *
 * eqds has no net_device of its own: the packets keep the device they
 * arrived on (so firewall rules and routing see them as from that device),
 * and the GRO cells' NAPI instances hang off a dummy device, as drivers
 * without a device per queue do. gro_cells_receive() falls back to
 * netif_rx() for cloned packets and devices with GRO off.
 */
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/gro_cells.h>
#include "eqds.h"
#include "netns.h"
#include "deliver.h"

int eqds_deliver_init(struct eqds_net *en)
{
	int err;

	en->napi_dev = kzalloc(sizeof(*en->napi_dev), GFP_KERNEL);
	if (!en->napi_dev)
		return -ENOMEM;
	init_dummy_netdev(en->napi_dev);
	err = gro_cells_init(&en->gro_cells, en->napi_dev);
	if (err) {
		kfree(en->napi_dev);
		en->napi_dev = NULL;
	}
	return err;
}

void eqds_deliver_destroy(struct eqds_net *en)
{
	if (!en->napi_dev)
		return;
	/* Disables the NAPI instances and waits for running polls. */
	gro_cells_destroy(&en->gro_cells);
	kfree(en->napi_dev);
	en->napi_dev = NULL;
}

void eqds_deliver(struct eqds_net *en, struct sk_buff *skb)
{
	eqds_stats_add(en->stats, EQDS_STATS_A_RX_PACKETS, 1);
	eqds_stats_add(en->stats, EQDS_STATS_A_RX_BYTES, skb->len);
	gro_cells_receive(&en->gro_cells, skb);
}
