// SPDX-License-Identifier: GPL-2.0
/*
 * EQDS_CMD_GET_TUNNEL: one peer's tunnels (doit: its sending tunnel and a
 * receiving tunnel per address of ours it sends to) or all of a
 * namespace's (dumpit), with their state and counters.
 *
 * Dumps walk the ID-indexed xarrays (tunnel.h), sending side first, and
 * keep only the side and the next ID to look at between messages
 * (cb->ctx): no lock and no reference is held from one message to the
 * next, and tunnels may come and go meanwhile. What a dump guarantees:
 *  - a tunnel that exists from the start of the dump to its end is in it
 *    exactly once (IDs never change, and the walk is in ID order);
 *  - one created or removed during the dump may be in it or not, at most
 *    once; a peer whose tunnel was removed and created again may appear
 *    twice, with two IDs (two incarnations);
 *  - each tunnel's attributes are one snapshot taken under its lock; two
 *    tunnels' snapshots are taken at different times.
 * So no NLM_F_DUMP_INTR is ever needed: nothing is missed or repeated for
 * a tunnel that lives through the dump, however the tables change.
 *
 * Handlers run in process context with genl_mutex held; they read the
 * tables under RCU.
 */
#include <linux/kernel.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include "compat.h"
#include "eqds.h"
#include "netns.h"
#include "netlink.h"
#include "tunnels.h"
#include "tunnel_info.h"
#include "tunnel_nl.h"

const struct nla_policy eqds_tunnel_req_policy[EQDS_TUNNEL_A_MAX + 1] = {
	[EQDS_TUNNEL_A_DIR]	= NLA_POLICY_RANGE(NLA_U8, EQDS_TUNNEL_DIR_TX,
						   EQDS_TUNNEL_DIR_RX),
	[EQDS_TUNNEL_A_FAMILY]	= { .type = NLA_U16 },
	[EQDS_TUNNEL_A_PEER]	= NLA_POLICY_MIN_LEN(4),
};

/* The counters each side has (the others would always be 0). */
static const u8 tx_stats[] = {
	EQDS_TUNNEL_STATS_A_PACKETS, EQDS_TUNNEL_STATS_A_BYTES,
	EQDS_TUNNEL_STATS_A_RETRANSMITS, EQDS_TUNNEL_STATS_A_NACKS,
	EQDS_TUNNEL_STATS_A_DROPS, EQDS_TUNNEL_STATS_A_PULLS,
	EQDS_TUNNEL_STATS_A_RESTARTS, EQDS_TUNNEL_STATS_A_TIMEOUTS,
	EQDS_TUNNEL_STATS_A_RTS, EQDS_TUNNEL_STATS_A_PATHS_PENALISED,
	EQDS_TUNNEL_STATS_A_PATH_PENALTIES, EQDS_TUNNEL_STATS_A_REPATHS,
	EQDS_TUNNEL_STATS_A_PATH_PENALTIES_IGNORED,
};

static const u8 rx_stats[] = {
	EQDS_TUNNEL_STATS_A_PACKETS, EQDS_TUNNEL_STATS_A_BYTES,
	EQDS_TUNNEL_STATS_A_NACKS, EQDS_TUNNEL_STATS_A_DROPS,
	EQDS_TUNNEL_STATS_A_PULLS, EQDS_TUNNEL_STATS_A_RESTARTS,
	EQDS_TUNNEL_STATS_A_REORDER_HELD, EQDS_TUNNEL_STATS_A_REORDER_SKIPPED,
	EQDS_TUNNEL_STATS_A_REORDER_LATE,
};

static int put_addr(struct sk_buff *skb, int type, const struct eqds_addr *a)
{
	if (a->family == AF_INET)
		return nla_put_in_addr(skb, type, a->a.v4);
	return nla_put_in6_addr(skb, type, &a->a.v6);
}

int eqds_nl_put_tunnel_name(struct sk_buff *skb, u8 dir, u32 id,
			    const struct eqds_addr *peer)
{
	if (nla_put_u32(skb, EQDS_TUNNEL_A_ID, id) ||
	    nla_put_u8(skb, EQDS_TUNNEL_A_DIR, dir) ||
	    nla_put_u16(skb, EQDS_TUNNEL_A_FAMILY, peer->family) ||
	    put_addr(skb, EQDS_TUNNEL_A_PEER, peer))
		return -EMSGSIZE;
	return 0;
}

static int put_stats(struct sk_buff *skb, const struct eqds_tunnel_info *info)
{
	bool tx = info->dir == EQDS_TUNNEL_DIR_TX;
	const u8 *which = tx ? tx_stats : rx_stats;
	size_t i, n = tx ? ARRAY_SIZE(tx_stats) : ARRAY_SIZE(rx_stats);
	struct nlattr *nest;

	nest = nla_nest_start(skb, EQDS_TUNNEL_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < n; i++)
		if (nla_put_u64_64bit(skb, which[i], info->stats[which[i]],
				      EQDS_TUNNEL_STATS_A_PAD))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int put_tx(struct sk_buff *skb, const struct eqds_tunnel_info *i)
{
	if (nla_put_u32(skb, EQDS_TUNNEL_A_HEARD_MS, i->heard_ms) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_CREDIT, i->credit) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_QUEUE_LEN, i->queue_len) ||
	    nla_put_u64_64bit(skb, EQDS_TUNNEL_A_QUEUE_BYTES, i->queue_bytes,
			      EQDS_TUNNEL_A_PAD) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_INFLIGHT, i->inflight) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_SND_UNA, i->snd_una) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_SND_NXT, i->snd_nxt) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_RTX_QUEUED, i->rtx_queued) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_RTO_US, i->rto_us) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_PULL_HI, i->pull_hi))
		return -EMSGSIZE;
	return 0;
}

static int put_rx(struct sk_buff *skb, const struct eqds_tunnel_info *i)
{
	/* A tunnel that has accepted no packet yet has no local address. */
	if ((i->local.family && put_addr(skb, EQDS_TUNNEL_A_LOCAL, &i->local)) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_RCV_NXT, i->rcv_nxt) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_REORDER_HELD, i->reorder_held) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_SKEW_NS, i->skew_ns) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_PULLS_GRANTED, i->pulls_granted) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_PULLS_WANTED, i->pulls_wanted) ||
	    nla_put_u8(skb, EQDS_TUNNEL_A_ACTIVE, i->active))
		return -EMSGSIZE;
	return 0;
}

/* One EQDS_A_TUNNEL nest. */
static int put_tunnel(struct sk_buff *skb, const struct eqds_tunnel_info *i)
{
	struct nlattr *nest = nla_nest_start(skb, EQDS_A_TUNNEL);
	int err;

	if (!nest)
		return -EMSGSIZE;
	if (eqds_nl_put_tunnel_name(skb, i->dir, i->id, &i->peer) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_EPOCH, i->epoch) ||
	    nla_put_u8(skb, EQDS_TUNNEL_A_STATE, i->state) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_IDLE_MS, i->idle_ms) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_WINDOW, i->window) ||
	    nla_put_u32(skb, EQDS_TUNNEL_A_QUANTUM, i->quantum))
		return -EMSGSIZE;
	err = i->dir == EQDS_TUNNEL_DIR_TX ? put_tx(skb, i) : put_rx(skb, i);
	if (!err)
		err = put_stats(skb, i);
	if (err)
		return err;
	nla_nest_end(skb, nest);
	return 0;
}

/* A message holding one tunnel; nothing is left in skb on failure. */
static int fill_one(struct sk_buff *skb, const struct eqds_tunnel_info *info,
		    u32 portid, u32 seq, int flags)
{
	void *hdr = genlmsg_put(skb, portid, seq, &eqds_genl_family, flags,
				EQDS_CMD_GET_TUNNEL);

	if (!hdr)
		return -EMSGSIZE;
	if (put_tunnel(skb, info)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* The peer a request names, zero-padded as the hash tables' keys are. */
static int parse_peer(struct nlattr **tb, const struct nlattr *nest,
		      struct eqds_addr *peer, struct netlink_ext_ack *extack)
{
	u16 family;
	int err;

	err = eqds_nl_get_addr(nest, tb[EQDS_TUNNEL_A_FAMILY], tb[EQDS_TUNNEL_A_PEER],
			       &family, extack);
	if (err)
		return err;
	memset(peer, 0, sizeof(*peer));
	peer->family = family;
	memcpy(&peer->a, nla_data(tb[EQDS_TUNNEL_A_PEER]), nla_len(tb[EQDS_TUNNEL_A_PEER]));
	return 0;
}

/*
 * Every receiving tunnel from peer, one per address of ours it sends to, in
 * ID order: a walk of the ID table, the only index by peer alone.
 */
static int put_peer_rxts(struct sk_buff *msg, struct eqds_net *en,
			 const struct eqds_addr *peer, int *found)
{
	struct eqds_tunnel_info ti;
	struct eqds_rxt *t;
	unsigned long id;
	int err = 0;

	rcu_read_lock();
	xa_for_each(&en->rxt_ids, id, t) {
		if (!memcmp(&t->peer, peer, sizeof(*peer)) && eqds_rxt_info(t, &ti)) {
			err = put_tunnel(msg, &ti);
			if (err)
				break;
			(*found)++;
		}
		/* 64k tunnels: let others run; xa_for_each restarts by index. */
		if (!(id % 1024)) {
			rcu_read_unlock();
			cond_resched();
			rcu_read_lock();
		}
	}
	rcu_read_unlock();
	return err;
}

int eqds_tunnel_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct eqds_net *en = eqds_net(genl_info_net(info));
	struct nlattr *tb[EQDS_TUNNEL_A_MAX + 1];
	struct eqds_tunnel_info ti;
	struct eqds_addr peer;
	struct sk_buff *msg;
	struct eqds_txt *tt;
	int err, found = 0;
	void *hdr;
	u8 dir = 0;

	if (!info->attrs[EQDS_A_TUNNEL]) {
		NL_SET_ERR_MSG(info->extack, "which tunnel? EQDS_A_TUNNEL naming a peer needed");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, EQDS_TUNNEL_A_MAX, info->attrs[EQDS_A_TUNNEL],
			       eqds_tunnel_req_policy, info->extack);
	if (err)
		return err;
	err = parse_peer(tb, info->attrs[EQDS_A_TUNNEL], &peer, info->extack);
	if (err)
		return err;
	eqds_nl_get_u8(tb, EQDS_TUNNEL_A_DIR, &dir);

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put(msg, info->snd_portid, info->snd_seq, &eqds_genl_family, 0,
			  EQDS_CMD_GET_TUNNEL);
	if (!hdr) {
		err = -EMSGSIZE;
		goto err_free;
	}
	rcu_read_lock();
	tt = dir != EQDS_TUNNEL_DIR_RX ? eqds_txt_lookup(en, &peer) : NULL;
	if (tt && eqds_txt_info(tt, &ti)) {
		err = put_tunnel(msg, &ti);
		found++;
	}
	rcu_read_unlock();
	if (!err && dir != EQDS_TUNNEL_DIR_TX)
		err = put_peer_rxts(msg, en, &peer, &found);
	if (err)
		goto err_free;
	if (!found) {
		if (dir)
			NL_SET_ERR_MSG_ATTR(info->extack, tb[EQDS_TUNNEL_A_PEER],
					    "no tunnel in this direction for this peer");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, tb[EQDS_TUNNEL_A_PEER],
					    "no tunnel to or from this peer");
		err = -ENOENT;
		goto err_free;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_free:
	nlmsg_free(msg);
	return err;
}

/* Where a dump resumes (cb->ctx): a side and the next ID to look at. */
struct tunnel_dump_ctx {
	u64 next_id;		/* > U32_MAX: this side is done */
	u8 dir;			/* 0 before the first call */
	u8 only;		/* the requested side, or 0 for both */
};

static int dump_start(struct netlink_callback *cb, struct tunnel_dump_ctx *ctx)
{
	struct nlattr **attrs = eqds_dump_attrs(cb);
	struct nlattr *tb[EQDS_TUNNEL_A_MAX + 1];
	int err;

	ctx->dir = EQDS_TUNNEL_DIR_TX;
	if (!attrs[EQDS_A_TUNNEL])
		return 0;
	err = nla_parse_nested(tb, EQDS_TUNNEL_A_MAX, attrs[EQDS_A_TUNNEL],
			       eqds_tunnel_req_policy, cb->extack);
	if (err)
		return err;
	if (tb[EQDS_TUNNEL_A_FAMILY] || tb[EQDS_TUNNEL_A_PEER]) {
		NL_SET_ERR_MSG(cb->extack,
			       "a dump takes no peer (ask for one peer without NLM_F_DUMP)");
		return -EINVAL;
	}
	if (tb[EQDS_TUNNEL_A_DIR]) {
		ctx->only = nla_get_u8(tb[EQDS_TUNNEL_A_DIR]);
		ctx->dir = ctx->only;
	}
	return 0;
}

/*
 * The next live tunnel of ctx's side at or after ctx->next_id, as a
 * snapshot. Returns false when the side has no more.
 */
static bool dump_next(struct eqds_net *en, struct tunnel_dump_ctx *ctx,
		      struct eqds_tunnel_info *ti)
{
	struct xarray *ids = ctx->dir == EQDS_TUNNEL_DIR_TX ? &en->txt_ids : &en->rxt_ids;
	unsigned long index;
	void *t;
	bool ok;

	while (ctx->next_id <= U32_MAX) {
		index = ctx->next_id;
		rcu_read_lock();
		t = xa_find(ids, &index, U32_MAX, XA_PRESENT);
		if (!t) {
			rcu_read_unlock();
			break;
		}
		ok = ctx->dir == EQDS_TUNNEL_DIR_TX ? eqds_txt_info(t, ti) : eqds_rxt_info(t, ti);
		rcu_read_unlock();
		if (ok)
			return true;
		ctx->next_id = (u64)index + 1;	/* being removed: skip it */
	}
	ctx->next_id = (u64)U32_MAX + 1;
	return false;
}

int eqds_tunnel_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct tunnel_dump_ctx *ctx = (struct tunnel_dump_ctx *)cb->ctx;
	struct eqds_net *en = eqds_net(sock_net(skb->sk));
	struct eqds_tunnel_info ti;
	int err;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	if (!ctx->dir) {
		err = dump_start(cb, ctx);
		if (err)
			return err;
	}
	while (ctx->dir <= EQDS_TUNNEL_DIR_RX) {
		while (dump_next(en, ctx, &ti)) {
			err = fill_one(skb, &ti, NETLINK_CB(cb->skb).portid,
				       cb->nlh->nlmsg_seq, NLM_F_MULTI);
			if (err)	/* full: this tunnel goes in the next message */
				return skb->len ?: err;
			ctx->next_id = (u64)ti.id + 1;
		}
		if (ctx->only)
			break;
		ctx->dir++;
		ctx->next_id = 0;
	}
	return skb->len;
}
