// SPDX-License-Identifier: GPL-2.0
/*
 * Tunnel lifecycle events (events.h): a tracepoint each, and a message to
 * the EQDS_MCGRP_TUNNELS group of the tunnel's namespace for eqdsctl
 * monitor and other listeners.
 *
 * The callers hold tunnel or table locks, in softirq or process context,
 * so messages are allocated atomically and only when someone listens; the
 * cost without listeners is one bit test. Messages are sent only while the
 * family is registered: eqds_events_enable(false) and an RCU grace period
 * come before it is unregistered, and every sender is inside an RCU read
 * side section.
 */
#include <net/genetlink.h>
#include "eqds.h"
#include "netns.h"
#include "netlink.h"
#include "tunnel_nl.h"
#include "events.h"
#include "policy.h"

static bool events_on;

void eqds_events_enable(bool on)
{
	WRITE_ONCE(events_on, on);
	if (!on)
		synchronize_rcu();
}

/* Whether a message to en's group would reach anyone, and may be sent. */
static bool listened(struct eqds_net *en)
{
	return READ_ONCE(events_on) && !READ_ONCE(en->exiting) &&
	       genl_has_listeners(&eqds_genl_family, en->net, EQDS_MCGRP_TUNNELS_ID);
}

static void notify(struct eqds_net *en, u8 cmd, u8 dir, u32 id,
		   const struct eqds_addr *peer, u32 epoch, int reason)
{
	struct nlattr *nest;
	struct sk_buff *skb;
	void *hdr;

	if (!listened(en))
		return;
	skb = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_ATOMIC);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &eqds_genl_family, 0, cmd);
	if (!hdr)
		goto err;
	nest = nla_nest_start(skb, EQDS_A_TUNNEL);
	if (!nest || eqds_nl_put_tunnel_name(skb, dir, id, peer) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_EPOCH, epoch) ||
	    (reason >= 0 && nla_put_u8(skb, EQDS_TUNNEL_A_DEL_REASON, reason)))
		goto err;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&eqds_genl_family, en->net, skb, 0,
				EQDS_MCGRP_TUNNELS_ID, GFP_ATOMIC);
	return;
err:
	nlmsg_free(skb);
}

void eqds_event_policy(struct eqds_net *en)
{
	struct sk_buff *skb;
	void *hdr;
	int err;

	if (!listened(en))
		return;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &eqds_genl_family, 0, EQDS_CMD_POLICY_CHANGED);
	rcu_read_lock();
	err = !hdr || eqds_policy_nl_put(skb, rcu_dereference(en->config));
	rcu_read_unlock();
	if (err) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&eqds_genl_family, en->net, skb, 0,
				EQDS_MCGRP_TUNNELS_ID, GFP_KERNEL);
}

void eqds_event_tunnel(struct eqds_net *en, u8 cmd, u8 dir, u32 id,
		       const struct eqds_addr *peer, u32 epoch, int reason)
{
	u32 netns = en->net->ns.inum;

	switch (cmd) {
	case EQDS_CMD_TUNNEL_NEW:
		trace_eqds_tunnel_new(netns, dir, id, peer, epoch, reason);
		break;
	case EQDS_CMD_TUNNEL_DEL:
		trace_eqds_tunnel_del(netns, dir, id, peer, epoch, reason);
		break;
	default:
		trace_eqds_tunnel_restart(netns, dir, id, peer, epoch, reason);
		break;
	}
	rcu_read_lock();
	notify(en, cmd, dir, id, peer, epoch, reason);
	rcu_read_unlock();
}
