/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * eqds generic netlink API: one definition shared by the kernel module and
 * eqdsctl. The YNL spec uapi/eqds.yaml describes the same family for tools
 * that read specs; scripts/ynl-check.py (make check) fails unless this file
 * declares exactly the names and values the kernel's ynl-gen-c.py generates
 * from the spec. Change both together.
 *
 * Family "eqds", version EQDS_GENL_VERSION. Everything is per network
 * namespace: a request acts on the instance of the namespace the netlink
 * socket lives in. The version changes with the numbering of the
 * attributes (2: the sending classes became EQDS_A_CLASS nests); a tool
 * checks the version the family was registered with (CTRL_ATTR_VERSION)
 * before it sends anything, as eqdsctl does.
 *
 * EQDS_CMD_GET_INSTANCE (doit and dumpit)
 *   Reply: version, configuration and counters of the namespace's instance:
 *
 *   EQDS_A_VERSION, _PORT, _PULL_RATE, _MODE, _WINDOW, _IDLE_TIMEOUT,
 *   _HEADROOM, _QUEUED_LIMIT
 *   EQDS_A_CLASS				one per class
 *     EQDS_CLASS_A_ID, _QUEUE_LIMIT, ...	(enum eqds_class_attr)
 *   EQDS_A_POLICY				indexed array
 *     1..n: EQDS_POLICY_A_FAMILY, _ADDR, _PREFIXLEN, _WEIGHT, _PRIO, _RATE
 *   EQDS_A_BOUND
 *     EQDS_BOUND_A_PULL_RATE, _MAX_WEIGHT, _MIN_PRIO (those set)
 *   EQDS_A_DESTS				indexed array
 *     1..n: EQDS_DEST_A_FAMILY, _ADDR, _PREFIXLEN
 *   EQDS_A_STATS
 *     EQDS_STATS_A_* (enum eqds_stats_attr)
 *
 * EQDS_CMD_SET_INSTANCE (doit, CAP_NET_ADMIN in the namespace's user ns)
 *   Any subset of the configuration attributes of the reply above (not
 *   VERSION, STATS or BOUND). EQDS_A_DESTS and EQDS_A_POLICY, when
 *   present, replace the whole list (an empty nest clears it); an
 *   EQDS_A_CLASS changes only the attributes it holds. The request is
 *   validated as a whole before anything changes.
 * EQDS_CMD_GET_TUNNEL (doit and dumpit)
 *   doit: EQDS_A_TUNNEL with EQDS_TUNNEL_A_FAMILY and _PEER (and optionally
 *   _DIR) names a peer; the reply holds one EQDS_A_TUNNEL per tunnel that
 *   exists for it: the sending one first, then one receiving tunnel per
 *   address of ours the peer sends to. ENOENT if there is none.
 *   dumpit: every tunnel of the namespace, one EQDS_A_TUNNEL per message, in
 *   the order of their IDs, sending side first; EQDS_A_TUNNEL with only
 *   EQDS_TUNNEL_A_DIR restricts it to one side. A tunnel that exists from
 *   the start to the end of the dump is returned exactly once.
 * EQDS_CMD_SET_BOUND (doit, CAP_NET_ADMIN in the initial user namespace,
 *   from a socket in the initial network namespace)
 *   EQDS_A_NETNS_FD names the namespace, EQDS_A_BOUND holds its new bound
 *   (replacing the old; an empty nest removes it).
 * Multicast group EQDS_MCGRP_TUNNELS: EQDS_CMD_TUNNEL_NEW, _DEL and
 *   _RESTART, each with one EQDS_A_TUNNEL holding the tunnel's ID,
 *   direction, peer and epoch (and EQDS_TUNNEL_A_DEL_REASON for _DEL);
 *   EQDS_CMD_POLICY_CHANGED with the new EQDS_A_POLICY and EQDS_A_BOUND
 *   when either changes.
 */
#ifndef _UAPI_LINUX_EQDS_H
#define _UAPI_LINUX_EQDS_H

#define EQDS_GENL_NAME		"eqds"
#define EQDS_GENL_VERSION	2

/* Defaults, also the module parameters' defaults. */
#define EQDS_DEFAULT_PORT		6666
#define EQDS_DEFAULT_WINDOW		150	/* packets (MTUs) of credit per tunnel */
#define EQDS_DEFAULT_QUEUE_LIMIT	100	/* packets per destination queue */
#define EQDS_DEFAULT_IDLE_TIMEOUT_MS	10000
#define EQDS_DEFAULT_HEADROOM		5	/* percent of the link speed */
#define EQDS_MAX_DESTS			64	/* prefixes per namespace */
#define EQDS_DEFAULT_LL_QUEUE_LIMIT	16	/* packets per destination, low-latency class */
#define EQDS_DEFAULT_LL_PRIORITY	6	/* TC_PRIO_INTERACTIVE: IP_TOS lowdelay */
#define EQDS_DEFAULT_LL_TC_PRIORITY	6	/* TC_PRIO_INTERACTIVE: band 0 of prio */
#define EQDS_DEFAULT_QUEUED_LIMIT_KB	65536	/* all queues of a namespace, KiB */

/* Accepted ranges (inclusive) of the configuration attributes. */
#define EQDS_WINDOW_MIN			1
#define EQDS_WINDOW_MAX			65535
#define EQDS_QUEUE_LIMIT_MIN		1
#define EQDS_QUEUE_LIMIT_MAX		65535
#define EQDS_IDLE_TIMEOUT_MIN		100
#define EQDS_IDLE_TIMEOUT_MAX		3600000
#define EQDS_HEADROOM_MAX		50
#define EQDS_QUEUED_LIMIT_KB_MAX	4194304	/* 4 GiB */
#define EQDS_PORT_MIN			1
#define EQDS_ECN_THRESHOLD_MAX		65535	/* packets, as EQDS_QUEUE_LIMIT_MAX */

enum eqds_cmd {
	EQDS_CMD_UNSPEC,
	EQDS_CMD_GET_INSTANCE,
	EQDS_CMD_SET_INSTANCE,
	EQDS_CMD_GET_TUNNEL,
	EQDS_CMD_TUNNEL_NEW,		/* notification: a tunnel was created */
	EQDS_CMD_TUNNEL_DEL,		/* notification: a tunnel was removed */
	EQDS_CMD_TUNNEL_RESTART,	/* notification: a tunnel began a new epoch */
	EQDS_CMD_SET_BOUND,		/* from the initial namespace: bound another */
	EQDS_CMD_POLICY_CHANGED,	/* notification: sharing policy or bound changed */
	__EQDS_CMD_MAX
};

#define EQDS_CMD_MAX (__EQDS_CMD_MAX - 1)

/* Multicast group of the tunnel notifications. */
#define EQDS_MCGRP_TUNNELS	"tunnels"

/* How a sender starts a tunnel's first window. */
enum eqds_start_mode {
	EQDS_MODE_RTS,		/* request credit first (default) */
	EQDS_MODE_BURST,	/* send one window unsolicited */
	__EQDS_MODE_MAX
};

#define EQDS_MODE_MAX (__EQDS_MODE_MAX - 1)

enum eqds_attr {
	EQDS_A_UNSPEC,
	EQDS_A_PAD,
	EQDS_A_VERSION,		/* string: module version (read only) */
	EQDS_A_PORT,		/* u16: UDP port, host byte order, != 0 */
	EQDS_A_DESTS,		/* array of EQDS_DEST_A_* nests, types 1..n */
	EQDS_A_PULL_RATE,	/* u32: receiver pull rate, Mbit/s; 0 = link speed */
	EQDS_A_MODE,		/* u8: enum eqds_start_mode */
	EQDS_A_WINDOW,		/* u32: credit window in packets, 1..65535 */
	EQDS_A_IDLE_TIMEOUT,	/* u32: tunnel idle timeout, ms, 100..3600000 */
	EQDS_A_STATS,		/* nest of EQDS_STATS_A_* (read only) */
	EQDS_A_HEADROOM,	/* u8: percent of the link speed left unpulled, 0..50 */
	EQDS_A_TUNNEL,		/* nest of EQDS_TUNNEL_A_*: one tunnel */
	EQDS_A_CLASS,		/* nest of EQDS_CLASS_A_*: one sending class */
	EQDS_A_QUEUED_LIMIT,	/* u32: KiB queued in all tunnels of the ns; 0 = none */
	/*
	 * Receiver sharing policy (Documentation/policy.rst): array of
	 * EQDS_POLICY_A_* nests, types 1..n, replacing the whole list (an
	 * empty nest clears it). A sender takes the rule of the longest
	 * prefix that holds it; one no rule holds is weight 1, level
	 * EQDS_PRIO_DEFAULT, no cap.
	 */
	EQDS_A_POLICY,
	/*
	 * Operator bound on a namespace (nest of EQDS_BOUND_A_*): in
	 * GET_INSTANCE replies, the bound the initial namespace set on this
	 * one; in EQDS_CMD_SET_BOUND, the new bound of EQDS_A_NETNS_FD's.
	 */
	EQDS_A_BOUND,
	EQDS_A_NETNS_FD,	/* u32: a file descriptor of a network namespace */
	__EQDS_A_MAX
};

#define EQDS_A_MAX (__EQDS_A_MAX - 1)

/*
 * Sending EQIF classes (Documentation/eqds.rst, "Sending EQIF classes"),
 * one EQDS_A_CLASS nest each, named by EQDS_CLASS_A_ID. Replies hold one
 * nest per class, in the order of their IDs, with every attribute that
 * applies to the class; a SET_INSTANCE request holds any of them (at most
 * one per class), each with any subset of its class's attributes.
 *
 *   EQDS_A_CLASS			(one per class)
 *     EQDS_CLASS_A_ID			u8: enum eqds_class_id, required
 *     EQDS_CLASS_A_QUEUE_LIMIT		u32: per-destination queue, packets
 *     EQDS_CLASS_A_ECN_MIN		u32: packets
 *     EQDS_CLASS_A_ECN_MAX		u32: packets
 *     EQDS_CLASS_A_TC_PRIORITY		u32: skb->priority of its packets
 *     EQDS_CLASS_A_PRIORITY		u32: ll only: skb->priority selecting it
 *     EQDS_CLASS_A_MARK		u32: ll only: skb->mark selecting it ...
 *     EQDS_CLASS_A_MARK_MASK		u32: ll only: ... under this mask
 *
 * The TCP-compatible class takes what the low-latency (ll) class does not
 * select. ECN thresholds are queue lengths in packets, at most the class's
 * queue limit: CE marks with a probability rising from 0 at ECN_MIN to 1
 * at ECN_MAX; 0 for MIN is half the queue limit, 0 for MAX is MIN (step
 * marking).
 */
enum eqds_class_id {
	EQDS_CLASS_ID_TCP,	/* TCP-compatible: the default */
	EQDS_CLASS_ID_LL,	/* low latency: short queue, served first */
	__EQDS_CLASS_ID_MAX
};

#define EQDS_CLASS_ID_MAX (__EQDS_CLASS_ID_MAX - 1)

enum eqds_class_attr {
	EQDS_CLASS_A_UNSPEC,
	EQDS_CLASS_A_ID,		/* u8: enum eqds_class_id */
	EQDS_CLASS_A_QUEUE_LIMIT,	/* u32: packets, 1..65535 */
	EQDS_CLASS_A_ECN_MIN,		/* u32: packets, 0..queue limit, 0 = half the limit */
	EQDS_CLASS_A_ECN_MAX,		/* u32: packets, 0..queue limit, 0 = ECN_MIN */
	EQDS_CLASS_A_TC_PRIORITY,	/* u32: skb->priority of its encapsulated packets */
	EQDS_CLASS_A_PRIORITY,		/* u32: ll: skb->priority that selects it; 0 = none */
	EQDS_CLASS_A_MARK,		/* u32: ll: skb->mark value that selects it ... */
	EQDS_CLASS_A_MARK_MASK,		/* u32: ll: ... under this mask; 0 = mark not used */
	__EQDS_CLASS_A_MAX
};

#define EQDS_CLASS_A_MAX (__EQDS_CLASS_A_MAX - 1)

/* One destination prefix: traffic to it is carried over EQDS. */
enum eqds_dest_attr {
	EQDS_DEST_A_UNSPEC,
	EQDS_DEST_A_FAMILY,	/* u16: AF_INET or AF_INET6 */
	EQDS_DEST_A_ADDR,	/* binary: 4 or 16 bytes, network byte order */
	EQDS_DEST_A_PREFIXLEN,	/* u8: 0..32 or 0..128 */
	__EQDS_DEST_A_MAX
};

#define EQDS_DEST_A_MAX (__EQDS_DEST_A_MAX - 1)

/* Policy limits. Levels are strict priorities, 0 the highest. */
#define EQDS_MAX_POLICIES	64	/* rules per namespace */
#define EQDS_WEIGHT_MAX		100
#define EQDS_PRIO_MAX		3
#define EQDS_PRIO_DEFAULT	1

/* One sharing rule: the senders in a prefix and their share. */
enum eqds_policy_attr {
	EQDS_POLICY_A_UNSPEC,
	EQDS_POLICY_A_FAMILY,	/* u16: AF_INET or AF_INET6 */
	EQDS_POLICY_A_ADDR,	/* binary: 4 or 16 bytes, network byte order */
	EQDS_POLICY_A_PREFIXLEN, /* u8: 0..32 or 0..128 */
	EQDS_POLICY_A_WEIGHT,	/* u32: 1..EQDS_WEIGHT_MAX, default 1 */
	EQDS_POLICY_A_PRIO,	/* u8: 0..EQDS_PRIO_MAX, default EQDS_PRIO_DEFAULT */
	EQDS_POLICY_A_RATE,	/* u32: cap per sender, Mbit/s; 0 = none (default) */
	__EQDS_POLICY_A_MAX
};

#define EQDS_POLICY_A_MAX (__EQDS_POLICY_A_MAX - 1)

/*
 * What the initial namespace's operator allows another namespace: its
 * policies and pull rate are clamped to this, whatever it sets itself.
 */
enum eqds_bound_attr {
	EQDS_BOUND_A_UNSPEC,
	EQDS_BOUND_A_PULL_RATE,	/* u32: most it pulls at, Mbit/s; 0 = no bound */
	EQDS_BOUND_A_MAX_WEIGHT, /* u32: highest weight its rules get; 0 = no bound */
	EQDS_BOUND_A_MIN_PRIO,	/* u8: highest level (lowest number) its rules get */
	__EQDS_BOUND_A_MAX
};

#define EQDS_BOUND_A_MAX (__EQDS_BOUND_A_MAX - 1)

/* Per-namespace counters, all u64. */
enum eqds_stats_attr {
	EQDS_STATS_A_UNSPEC,
	EQDS_STATS_A_PAD,
	EQDS_STATS_A_TX_PACKETS,	/* data packets encapsulated and sent */
	EQDS_STATS_A_TX_BYTES,
	EQDS_STATS_A_RX_PACKETS,	/* data packets decapsulated and delivered */
	EQDS_STATS_A_RX_BYTES,
	EQDS_STATS_A_PULLS_SENT,
	EQDS_STATS_A_PULLS_RCVD,
	EQDS_STATS_A_TUNNELS,		/* tunnels currently alive (gauge) */
	EQDS_STATS_A_RX_DROPS,		/* received packets dropped, any reason */
	EQDS_STATS_A_TX_DROPS,		/* captured packets dropped, any reason */
	EQDS_STATS_A_TUNNELS_CREATED,	/* tx and rx tunnels set up */
	EQDS_STATS_A_TUNNELS_REAPED,	/* torn down after the idle timeout */
	EQDS_STATS_A_RX_CTRL,		/* control packets received */
	EQDS_STATS_A_TX_CTRL,		/* control packets sent (pulls, acks, RSTs) */
	EQDS_STATS_A_ACKS_SENT,		/* acks sent without a pull */
	EQDS_STATS_A_NACKS_SENT,
	EQDS_STATS_A_NACKS_RCVD,
	EQDS_STATS_A_RSTS_SENT,		/* data for an unknown tunnel: restart asked */
	EQDS_STATS_A_RSTS_RCVD,
	EQDS_STATS_A_RESTARTS,		/* sender epochs begun after an RST */
	EQDS_STATS_A_RETRANSMITS,
	EQDS_STATS_A_TIMEOUTS,		/* sender retransmission timeouts */
	EQDS_STATS_A_RTS_SENT,		/* requests to send */
	EQDS_STATS_A_SYNS_SENT,		/* data packets sent with SYN */
	EQDS_STATS_A_REORDER_HELD,	/* packets that waited for a hole */
	EQDS_STATS_A_REORDER_LATE,	/* delivered after their hole timed out */
	EQDS_STATS_A_REORDER_SKIPPED,	/* seqs given up on */
	EQDS_STATS_A_MSS_CLAMPED,	/* TCP SYNs whose MSS was lowered to fit */
	EQDS_STATS_A_CREDIT_REFUSED,	/* pull credit refused: beyond the window */
	EQDS_STATS_A_DROP_QUEUE_FULL,	/* tx: tail drop at the destination queue */
	EQDS_STATS_A_DROP_NOMEM,	/* tx or rx: allocation failed */
	EQDS_STATS_A_DROP_NOROUTE,	/* tx: no route to the peer */
	EQDS_STATS_A_DROP_DECODE,	/* rx: malformed EQDS header */
	EQDS_STATS_A_DROP_INNER,	/* rx: malformed inner packet */
	EQDS_STATS_A_DROP_UNKNOWN,	/* rx: data for no known tunnel */
	EQDS_STATS_A_DROP_DUP,		/* rx: duplicate data */
	EQDS_STATS_A_DROP_WINDOW,	/* rx: outside the reorder window */
	EQDS_STATS_A_DROP_STALE,	/* rx: a previous epoch's packet */
	EQDS_STATS_A_DROP_SEGS,		/* rx: seq outside its packet; tx: pieces beyond it */
	EQDS_STATS_A_DROP_TUNNEL_LIMIT,	/* tx or rx: tunnel limit reached */
	EQDS_STATS_A_DROP_NO_SOCKET,	/* tx: no EQDS socket (port busy) */
	EQDS_STATS_A_DROP_XMIT,		/* tx: the IP layer refused the packet */
	EQDS_STATS_A_DROP_PEER,		/* rx: sender is not a configured peer */
	EQDS_STATS_A_DROP_CTRL,		/* rx: control packet with impossible numbers */
	EQDS_STATS_A_DROP_TUNNEL_RATE,	/* rx: new tunnel over the creation rate */
	EQDS_STATS_A_DROP_EPOCH,	/* rx: SYN for another epoch than the tunnel's */
	EQDS_STATS_A_CHALLENGES_SENT,	/* rx: acks for the tunnel's epoch, answering those */
	EQDS_STATS_A_FINS_SENT,		/* tx: FINs disowning an epoch we left */
	EQDS_STATS_A_FINS_RCVD,		/* rx: FINs that disowned a tunnel's epoch */
	EQDS_STATS_A_LL_QUEUED,		/* tx: packets queued in the low-latency class */
	EQDS_STATS_A_ECN_MARKED,	/* tx: packets CE-marked at an EQIF queue */
	EQDS_STATS_A_DROP_QUEUED_LIMIT,	/* tx: tail drop, namespace's queued bytes limit */
	EQDS_STATS_A_QUEUED_BYTES,	/* tx: wire bytes queued in all tunnels now (gauge) */
	EQDS_STATS_A_PACER_RUNS,	/* rx: pull pacer timer expiries */
	EQDS_STATS_A_PACER_LATE_BYTES,	/* rx: pull credit lost to a late pacer timer */
	EQDS_STATS_A_DROP_DELIVER,	/* rx: delivery backlog full, or device gone */
	EQDS_STATS_A_DROP_LOCAL_PORT,	/* tx: a local socket's datagram to the EQDS port */
	EQDS_STATS_A_OUTER_ID_REWRITTEN,	/* rx: data packets, outer IPv4 ID rewritten */
	EQDS_STATS_A_OUTER_ID_FALLBACK,	/* tx: tunnels told to number every segment */
	EQDS_STATS_A_ICMP_RCVD,		/* tx: ICMP errors about our packets (path MTU) */
	EQDS_STATS_A_MTU_SPLIT,		/* tx: GSO packets resized or segmented to fit */
	EQDS_STATS_A_MTU_FRAGMENTED,	/* tx: packets fragmented outside to fit */
	EQDS_STATS_A_SMALL_BORROWED,	/* tx: small packets sent on borrowed credit */
	EQDS_STATS_A_RX_ARRIVED_BYTES,	/* rx: data bytes arrived, before reordering */
	EQDS_STATS_A_RX_CE_BYTES,	/* rx: ... of them with a CE-marked outer header */
	EQDS_STATS_A_PULL_RATE,		/* rx: the pull pacer's rate now, bit/s (gauge) */
	__EQDS_STATS_A_MAX
};

#define EQDS_STATS_A_MAX (__EQDS_STATS_A_MAX - 1)

/* Which side of a host pair a tunnel is. */
enum eqds_tunnel_dir {
	EQDS_TUNNEL_DIR_UNSPEC,
	EQDS_TUNNEL_DIR_TX,	/* sending side: our queue towards the peer */
	EQDS_TUNNEL_DIR_RX,	/* receiving side: the peer's packets to us */
	__EQDS_TUNNEL_DIR_MAX
};

#define EQDS_TUNNEL_DIR_MAX (__EQDS_TUNNEL_DIR_MAX - 1)

enum eqds_tunnel_state {
	EQDS_TUNNEL_STATE_SYN,		/* tx: the receiver has not confirmed the epoch */
	EQDS_TUNNEL_STATE_CONFIRMED,	/* tx: confirmed, data goes without SYN */
	EQDS_TUNNEL_STATE_NEW,		/* rx: no epoch yet (no packet accepted) */
	EQDS_TUNNEL_STATE_HALF_OPEN,	/* rx: sender not heard back, first packet at most */
	EQDS_TUNNEL_STATE_OPEN,		/* rx: delivering */
	__EQDS_TUNNEL_STATE_MAX
};

#define EQDS_TUNNEL_STATE_MAX (__EQDS_TUNNEL_STATE_MAX - 1)

/* Why a tunnel was removed (EQDS_CMD_TUNNEL_DEL). */
enum eqds_tunnel_del_reason {
	EQDS_TUNNEL_DEL_IDLE,		/* nothing queued, unused for the idle timeout */
	EQDS_TUNNEL_DEL_PEER_SILENT,	/* tx: nothing heard from the peer for that long */
	EQDS_TUNNEL_DEL_HALF_OPEN,	/* rx: half open for the half-open timeout */
	EQDS_TUNNEL_DEL_SHUTDOWN,	/* the namespace or the module is going away */
	__EQDS_TUNNEL_DEL_MAX
};

#define EQDS_TUNNEL_DEL_MAX (__EQDS_TUNNEL_DEL_MAX - 1)

/*
 * One tunnel. In requests only FAMILY, PEER and DIR are accepted. In
 * replies every attribute of the tunnel's side is present: "tx" marks the
 * sending side's, "rx" the receiving side's. Sequence numbers and epochs
 * are the wire's (u32, wrapping).
 */
enum eqds_tunnel_attr {
	EQDS_TUNNEL_A_UNSPEC,
	EQDS_TUNNEL_A_PAD,
	EQDS_TUNNEL_A_ID,		/* u32: unique among the namespace's tunnels of a side */
	EQDS_TUNNEL_A_DIR,		/* u8: enum eqds_tunnel_dir */
	EQDS_TUNNEL_A_FAMILY,		/* u16: AF_INET or AF_INET6 */
	EQDS_TUNNEL_A_PEER,		/* binary: 4 or 16 bytes, network byte order */
	EQDS_TUNNEL_A_LOCAL,		/* rx binary: our address the peer sends to */
	EQDS_TUNNEL_A_EPOCH,		/* u32: current epoch (rx: 0 before the first) */
	EQDS_TUNNEL_A_STATE,		/* u8: enum eqds_tunnel_state */
	EQDS_TUNNEL_A_IDLE_MS,		/* u32: since the tunnel was last used */
	EQDS_TUNNEL_A_HEARD_MS,		/* tx u32: since the last control packet */
	EQDS_TUNNEL_A_CREDIT,		/* tx u32: bytes of credit held */
	EQDS_TUNNEL_A_WINDOW,		/* u32: credit window, bytes */
	EQDS_TUNNEL_A_QUANTUM,		/* u32: bytes of credit per pull number */
	EQDS_TUNNEL_A_QUEUE_LEN,	/* tx u32: packets waiting for credit */
	EQDS_TUNNEL_A_QUEUE_BYTES,	/* tx u64: wire bytes waiting (queue and resends) */
	EQDS_TUNNEL_A_INFLIGHT,		/* tx u32: seqs sent and not acknowledged */
	EQDS_TUNNEL_A_SND_UNA,		/* tx u32: oldest unacknowledged seq */
	EQDS_TUNNEL_A_SND_NXT,		/* tx u32: next seq to send */
	EQDS_TUNNEL_A_RTX_QUEUED,	/* tx u32: seqs waiting to be resent */
	EQDS_TUNNEL_A_RTO_US,		/* tx u32: retransmission timeout */
	EQDS_TUNNEL_A_PULL_HI,		/* tx u32: highest pull number seen */
	EQDS_TUNNEL_A_RCV_NXT,		/* rx u32: next seq to deliver in order */
	EQDS_TUNNEL_A_REORDER_HELD,	/* rx u32: packets held behind a hole now */
	EQDS_TUNNEL_A_SKEW_NS,		/* rx u32: learnt delay skew between paths */
	EQDS_TUNNEL_A_PULLS_GRANTED,	/* rx u32: pull numbers granted this epoch */
	EQDS_TUNNEL_A_PULLS_WANTED,	/* rx u32: pull numbers still wanted */
	EQDS_TUNNEL_A_ACTIVE,		/* rx u8: on the active sender list */
	EQDS_TUNNEL_A_STATS,		/* nest of EQDS_TUNNEL_STATS_A_* */
	EQDS_TUNNEL_A_DEL_REASON,	/* u8: enum eqds_tunnel_del_reason (events) */
	__EQDS_TUNNEL_A_MAX
};

#define EQDS_TUNNEL_A_MAX (__EQDS_TUNNEL_A_MAX - 1)

/*
 * Per-tunnel counters, all u64, over the tunnel's life (all its epochs)
 * unless marked "epoch": since its current epoch began, or "now": a gauge.
 */
enum eqds_tunnel_stats_attr {
	EQDS_TUNNEL_STATS_A_UNSPEC,
	EQDS_TUNNEL_STATS_A_PAD,
	EQDS_TUNNEL_STATS_A_PACKETS,	/* tx: data packets sent (resends too); rx: delivered */
	EQDS_TUNNEL_STATS_A_BYTES,	/* inner bytes of those packets */
	EQDS_TUNNEL_STATS_A_RETRANSMITS,	/* tx: data packets sent again */
	EQDS_TUNNEL_STATS_A_NACKS,	/* tx: NACKs received; rx: NACKs sent */
	EQDS_TUNNEL_STATS_A_DROPS,	/* tx: queue full; rx: dup, window, stale */
	EQDS_TUNNEL_STATS_A_PULLS,	/* tx: pulls received; rx: pulls sent */
	EQDS_TUNNEL_STATS_A_RESTARTS,	/* epochs begun after the first */
	EQDS_TUNNEL_STATS_A_TIMEOUTS,	/* tx: retransmission timeouts */
	EQDS_TUNNEL_STATS_A_RTS,	/* tx: requests to send */
	EQDS_TUNNEL_STATS_A_REORDER_HELD,	/* rx epoch: packets that waited for a hole */
	EQDS_TUNNEL_STATS_A_REORDER_SKIPPED,	/* rx epoch: seqs given up on */
	EQDS_TUNNEL_STATS_A_REORDER_LATE,	/* rx epoch: delivered after their hole timed out */
	EQDS_TUNNEL_STATS_A_PATHS_PENALISED,	/* tx now: path ids penalised (a gauge) */
	EQDS_TUNNEL_STATS_A_PATH_PENALTIES,	/* tx: path ids penalised */
	EQDS_TUNNEL_STATS_A_REPATHS,	/* tx: packets sent around a penalised path id */
	EQDS_TUNNEL_STATS_A_PATH_PENALTIES_IGNORED,	/* tx: penalties refused at the cap */
	__EQDS_TUNNEL_STATS_A_MAX
};

#define EQDS_TUNNEL_STATS_A_MAX (__EQDS_TUNNEL_STATS_A_MAX - 1)

#endif /* _UAPI_LINUX_EQDS_H */
