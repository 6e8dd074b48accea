/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eqds tracepoints (system "eqds"): follow tunnels and packets with perf,
 * bpftrace or tracefs, e.g.
 *	perf record -e 'eqds:*' -a
 *	bpftrace -e 'tracepoint:eqds:eqds_nack { @[args->dir] = count(); }'
 *	echo 1 > /sys/kernel/tracing/events/eqds/enable
 * Peers are recorded as IPv6 addresses, IPv4 ones v4-mapped (as the tcp
 * tracepoints do), so one field serves both families. netns is the
 * namespace's inode number (as `ls -L /proc/PID/ns/net -i` shows it), in
 * every event that names a tunnel (IDs are per namespace) or a drop.
 * Documentation/eqds.rst lists the events and what each one means.
 *
 * Every enum printed by name is also given to TRACE_DEFINE_ENUM: tracefs
 * then shows its values as numbers in the event's format, which is all
 * that perf and trace-cmd (libtraceevent) can decode.
 *
 * Defined once, in trace.c (CREATE_TRACE_POINTS). Disabled, each costs a
 * static branch at its call site.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM eqds

#if !defined(_EQDS_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _EQDS_TRACE_H

#include <linux/tracepoint.h>
#include <linux/eqds.h>
#include <net/ipv6.h>
#include "tunnel.h"

#ifndef _EQDS_TRACE_HELPERS
#define _EQDS_TRACE_HELPERS
/* A peer as 16 bytes: IPv6, or IPv4 mapped into IPv6. */
static inline void eqds_tp_store_peer(u8 *dst, const struct eqds_addr *p)
{
	struct in6_addr a;

	if (p->family == AF_INET)
		ipv6_addr_set_v4mapped(p->a.v4, &a);
	else
		a = p->a.v6;
	memcpy(dst, &a, sizeof(a));
}

/* A drop's peer, or :: when it is not known. */
static inline void eqds_tp_store_peer_or_any(u8 *dst, const struct eqds_addr *p)
{
	if (p)
		eqds_tp_store_peer(dst, p);
	else
		memset(dst, 0, sizeof(struct in6_addr));
}
#endif

TRACE_DEFINE_ENUM(EQDS_TUNNEL_DIR_TX);
TRACE_DEFINE_ENUM(EQDS_TUNNEL_DIR_RX);
TRACE_DEFINE_ENUM(EQDS_TUNNEL_DEL_IDLE);
TRACE_DEFINE_ENUM(EQDS_TUNNEL_DEL_PEER_SILENT);
TRACE_DEFINE_ENUM(EQDS_TUNNEL_DEL_HALF_OPEN);
TRACE_DEFINE_ENUM(EQDS_TUNNEL_DEL_SHUTDOWN);

TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_QUEUE_FULL);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_NOMEM);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_NOROUTE);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_DECODE);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_INNER);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_UNKNOWN);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_DUP);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_WINDOW);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_STALE);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_SEGS);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_TUNNEL_LIMIT);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_NO_SOCKET);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_XMIT);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_PEER);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_CTRL);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_TUNNEL_RATE);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_EPOCH);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_QUEUED_LIMIT);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_DELIVER);
TRACE_DEFINE_ENUM(EQDS_STATS_A_DROP_LOCAL_PORT);

#define EQDS_TP_DIR(d)							\
	__print_symbolic(d, { EQDS_TUNNEL_DIR_TX, "tx" }, { EQDS_TUNNEL_DIR_RX, "rx" })

/* Lifecycle: created, removed (with the reason), new epoch. */
DECLARE_EVENT_CLASS(eqds_tunnel_class,
		    TP_PROTO(u32 netns, u8 dir, u32 id, const struct eqds_addr *peer,
			     u32 epoch, int reason),
		    TP_ARGS(netns, dir, id, peer, epoch, reason),
		    TP_STRUCT__entry(__field(u32, netns)
				     __field(u32, id)
				     __field(u32, epoch)
				     __field(int, reason)
				     __field(u8, dir)
				     __array(u8, peer, 16)),
		    TP_fast_assign(__entry->netns = netns;
				   __entry->id = id;
				   __entry->epoch = epoch;
				   __entry->reason = reason;
				   __entry->dir = dir;
				   eqds_tp_store_peer(__entry->peer, peer);),
		    TP_printk("netns=%u %s id=%u peer=%pI6c epoch=%u reason=%s",
			      __entry->netns, EQDS_TP_DIR(__entry->dir), __entry->id,
			      __entry->peer, __entry->epoch,
			      /*
			       * -1, no reason, as the u32 it is in the format:
			       * libtraceevent reads the field without extending
			       * its sign.
			       */
			      __print_symbolic((u32)__entry->reason,
					       { 0xffffffff, "-" },
					       { EQDS_TUNNEL_DEL_IDLE, "idle" },
					       { EQDS_TUNNEL_DEL_PEER_SILENT, "peer-silent" },
					       { EQDS_TUNNEL_DEL_HALF_OPEN, "half-open" },
					       { EQDS_TUNNEL_DEL_SHUTDOWN, "shutdown" }))
);

DEFINE_EVENT(eqds_tunnel_class, eqds_tunnel_new,
	     TP_PROTO(u32 netns, u8 dir, u32 id, const struct eqds_addr *peer,
		      u32 epoch, int reason),
	     TP_ARGS(netns, dir, id, peer, epoch, reason));

DEFINE_EVENT(eqds_tunnel_class, eqds_tunnel_del,
	     TP_PROTO(u32 netns, u8 dir, u32 id, const struct eqds_addr *peer,
		      u32 epoch, int reason),
	     TP_ARGS(netns, dir, id, peer, epoch, reason));

DEFINE_EVENT(eqds_tunnel_class, eqds_tunnel_restart,
	     TP_PROTO(u32 netns, u8 dir, u32 id, const struct eqds_addr *peer,
		      u32 epoch, int reason),
	     TP_ARGS(netns, dir, id, peer, epoch, reason));

/* The receiver granted credit: pull number pull_no to the peer. */
TRACE_EVENT(eqds_pull,
	    TP_PROTO(u32 netns, u32 id, const struct eqds_addr *peer, u32 epoch, u32 pull_no),
	    TP_ARGS(netns, id, peer, epoch, pull_no),
	    TP_STRUCT__entry(__field(u32, netns)
			     __field(u32, id)
			     __field(u32, epoch)
			     __field(u32, pull_no)
			     __array(u8, peer, 16)),
	    TP_fast_assign(__entry->netns = netns;
			   __entry->id = id;
			   __entry->epoch = epoch;
			   __entry->pull_no = pull_no;
			   eqds_tp_store_peer(__entry->peer, peer);),
	    TP_printk("netns=%u id=%u peer=%pI6c epoch=%u pull_no=%u", __entry->netns,
		      __entry->id, __entry->peer, __entry->epoch, __entry->pull_no)
);

/*
 * A NACK of the hole at seq (with the SACK bitmap after it): rx decided to
 * send it, tx received it.
 */
TRACE_EVENT(eqds_nack,
	    TP_PROTO(u32 netns, u8 dir, u32 id, const struct eqds_addr *peer, u32 epoch,
		     u32 seq, u64 sack),
	    TP_ARGS(netns, dir, id, peer, epoch, seq, sack),
	    TP_STRUCT__entry(__field(u64, sack)
			     __field(u32, netns)
			     __field(u32, id)
			     __field(u32, epoch)
			     __field(u32, seq)
			     __field(u8, dir)
			     __array(u8, peer, 16)),
	    TP_fast_assign(__entry->sack = sack;
			   __entry->netns = netns;
			   __entry->id = id;
			   __entry->epoch = epoch;
			   __entry->seq = seq;
			   __entry->dir = dir;
			   eqds_tp_store_peer(__entry->peer, peer);),
	    TP_printk("netns=%u %s id=%u peer=%pI6c epoch=%u seq=%u sack=%#llx",
		      __entry->netns, EQDS_TP_DIR(__entry->dir), __entry->id, __entry->peer,
		      __entry->epoch, __entry->seq, __entry->sack)
);

/* The sender resends the data packet that starts at seq. */
TRACE_EVENT(eqds_retransmit,
	    TP_PROTO(u32 netns, u32 id, const struct eqds_addr *peer, u32 epoch, u32 seq,
		     u32 len),
	    TP_ARGS(netns, id, peer, epoch, seq, len),
	    TP_STRUCT__entry(__field(u32, netns)
			     __field(u32, id)
			     __field(u32, epoch)
			     __field(u32, seq)
			     __field(u32, len)
			     __array(u8, peer, 16)),
	    TP_fast_assign(__entry->netns = netns;
			   __entry->id = id;
			   __entry->epoch = epoch;
			   __entry->seq = seq;
			   __entry->len = len;
			   eqds_tp_store_peer(__entry->peer, peer);),
	    TP_printk("netns=%u id=%u peer=%pI6c epoch=%u seq=%u len=%u", __entry->netns,
		      __entry->id, __entry->peer, __entry->epoch, __entry->seq, __entry->len)
);

/*
 * The reorder queue let a held packet go (it starts at seq); skipped is
 * how many seqs before it were given up on to release it (0: its hole
 * filled in time); held is how many packets it still holds.
 */
TRACE_EVENT(eqds_reorder_release,
	    TP_PROTO(u32 netns, u32 id, const struct eqds_addr *peer, u32 seq, u32 skipped,
		     u32 held),
	    TP_ARGS(netns, id, peer, seq, skipped, held),
	    TP_STRUCT__entry(__field(u32, netns)
			     __field(u32, id)
			     __field(u32, seq)
			     __field(u32, skipped)
			     __field(u32, held)
			     __array(u8, peer, 16)),
	    TP_fast_assign(__entry->netns = netns;
			   __entry->id = id;
			   __entry->seq = seq;
			   __entry->skipped = skipped;
			   __entry->held = held;
			   eqds_tp_store_peer(__entry->peer, peer);),
	    TP_printk("netns=%u id=%u peer=%pI6c seq=%u skipped=%u held=%u", __entry->netns,
		      __entry->id, __entry->peer, __entry->seq, __entry->skipped, __entry->held)
);

/*
 * A packet dropped, by the counter that counted it (drop_<reason>). Fired
 * where that counter is incremented, so the two match one for one. peer is
 * the received packet's outer source, or :: for a packet going out or one
 * dropped at delivery, after decapsulation. skbaddr is the packet, as
 * skb:kfree_skb shows it when the packet is freed (after this event, but
 * for drop_xmit, freed before by the IP output path); NULL for a drop with
 * no packet yet (a control packet that could not be allocated).
 */
TRACE_EVENT(eqds_drop,
	    TP_PROTO(u32 netns, int reason, const struct eqds_addr *peer,
		     const void *skbaddr),
	    TP_ARGS(netns, reason, peer, skbaddr),
	    TP_STRUCT__entry(__field(const void *, skbaddr)
			     __field(u32, netns)
			     __field(int, reason)
			     __array(u8, peer, 16)),
	    TP_fast_assign(__entry->skbaddr = skbaddr;
			   __entry->netns = netns;
			   __entry->reason = reason;
			   eqds_tp_store_peer_or_any(__entry->peer, peer);),
	    TP_printk("netns=%u reason=%s peer=%pI6c skbaddr=%p", __entry->netns,
		      __print_symbolic(__entry->reason,
				       { EQDS_STATS_A_DROP_QUEUE_FULL, "queue_full" },
				       { EQDS_STATS_A_DROP_NOMEM, "nomem" },
				       { EQDS_STATS_A_DROP_NOROUTE, "noroute" },
				       { EQDS_STATS_A_DROP_DECODE, "decode" },
				       { EQDS_STATS_A_DROP_INNER, "inner" },
				       { EQDS_STATS_A_DROP_UNKNOWN, "unknown" },
				       { EQDS_STATS_A_DROP_DUP, "dup" },
				       { EQDS_STATS_A_DROP_WINDOW, "window" },
				       { EQDS_STATS_A_DROP_STALE, "stale" },
				       { EQDS_STATS_A_DROP_SEGS, "segs" },
				       { EQDS_STATS_A_DROP_TUNNEL_LIMIT, "tunnel_limit" },
				       { EQDS_STATS_A_DROP_NO_SOCKET, "no_socket" },
				       { EQDS_STATS_A_DROP_XMIT, "xmit" },
				       { EQDS_STATS_A_DROP_PEER, "peer" },
				       { EQDS_STATS_A_DROP_CTRL, "ctrl" },
				       { EQDS_STATS_A_DROP_TUNNEL_RATE, "tunnel_rate" },
				       { EQDS_STATS_A_DROP_EPOCH, "epoch" },
				       { EQDS_STATS_A_DROP_QUEUED_LIMIT, "queued_limit" },
				       { EQDS_STATS_A_DROP_DELIVER, "deliver" },
				       { EQDS_STATS_A_DROP_LOCAL_PORT, "local_port" }),
		      __entry->peer, __entry->skbaddr)
);

#endif /* _EQDS_TRACE_H */

/* An out-of-tree module's trace header is found through this directory. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
