/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tunnel lifecycle events: a tunnel was created, removed, or began a new
 * epoch. Each is a tracepoint (trace.h) and a notification to the netlink
 * multicast group EQDS_MCGRP_TUNNELS of the tunnel's namespace.
 */
#ifndef _EQDS_EVENTS_H
#define _EQDS_EVENTS_H

#include <linux/types.h>

struct eqds_net;
struct eqds_addr;

/*
 * cmd: EQDS_CMD_TUNNEL_NEW, _DEL or _RESTART; dir: enum eqds_tunnel_dir;
 * reason: enum eqds_tunnel_del_reason for _DEL, else -1. Any context, any
 * locks held: a notification is built with GFP_ATOMIC, and only when the
 * group has listeners (a failed one is dropped: listeners see a gap in
 * the sequence numbers, as with any netlink notification).
 */
/* The sharing policy or bound changed. Process context. */
void eqds_event_policy(struct eqds_net *en);
void eqds_event_tunnel(struct eqds_net *en, u8 cmd, u8 dir, u32 id,
		       const struct eqds_addr *peer, u32 epoch, int reason);

/* Notifications may be sent (between family registration and removal). */
void eqds_events_enable(bool on);

#endif /* _EQDS_EVENTS_H */
