/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * eqds generic netlink API: one definition shared by the kernel module and
 * eqdsctl. The YNL spec beside this file (uapi/eqds.yaml) describes the same
 * family for tools that read specs.
 *
 * Family "eqds", version EQDS_GENL_VERSION. Everything is per network
 * namespace: a request acts on the instance of the namespace the netlink
 * socket lives in.
 *
 * EQDS_CMD_GET_INSTANCE (doit and dumpit)
 *   Reply: version, configuration and counters of the namespace's instance.
 * EQDS_CMD_SET_INSTANCE (doit, CAP_NET_ADMIN in the namespace's user ns)
 *   Any subset of the configuration attributes. EQDS_A_DESTS, when present,
 *   replaces the whole destination list (an empty nest clears it). The
 *   request is validated as a whole before anything changes.
 */
#ifndef _UAPI_LINUX_EQDS_H
#define _UAPI_LINUX_EQDS_H

#define EQDS_GENL_NAME		"eqds"
#define EQDS_GENL_VERSION	1

/* Defaults, also the module parameters' defaults. */
#define EQDS_DEFAULT_PORT		6666
#define EQDS_DEFAULT_WINDOW		150	/* packets (MTUs) of credit per tunnel */
#define EQDS_DEFAULT_QUEUE_LIMIT	100	/* packets per destination queue */
#define EQDS_DEFAULT_IDLE_TIMEOUT_MS	10000
#define EQDS_MAX_DESTS			64	/* prefixes per namespace */

/* Accepted ranges (inclusive) of the configuration attributes. */
#define EQDS_WINDOW_MIN			1
#define EQDS_WINDOW_MAX			65535
#define EQDS_QUEUE_LIMIT_MIN		1
#define EQDS_QUEUE_LIMIT_MAX		65535
#define EQDS_IDLE_TIMEOUT_MIN		100
#define EQDS_IDLE_TIMEOUT_MAX		3600000

enum eqds_cmd {
#define EQDS_DEFAULT_HEADROOM		5	/* percent of the link speed */
	EQDS_CMD_UNSPEC,
	EQDS_CMD_GET_INSTANCE,
	EQDS_CMD_SET_INSTANCE,
	__EQDS_CMD_MAX
};

#define EQDS_CMD_MAX (__EQDS_CMD_MAX - 1)

/* How a sender starts a tunnel's first window. */
#define EQDS_HEADROOM_MAX		50
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
	EQDS_A_QUEUE_LIMIT,	/* u32: per-destination queue, packets, 1..65535 */
	EQDS_A_IDLE_TIMEOUT,	/* u32: tunnel idle timeout, ms, 100..3600000 */
	EQDS_A_STATS,		/* nest of EQDS_STATS_A_* (read only) */
	__EQDS_A_MAX
};

#define EQDS_A_MAX (__EQDS_A_MAX - 1)

/* One destination prefix: traffic to it is carried over EQDS. */
enum eqds_dest_attr {
	EQDS_DEST_A_UNSPEC,
	EQDS_DEST_A_FAMILY,	/* u16: AF_INET or AF_INET6 */
	EQDS_DEST_A_ADDR,	/* binary: 4 or 16 bytes, network byte order */
	EQDS_DEST_A_PREFIXLEN,	/* u8: 0..32 or 0..128 */
	__EQDS_DEST_A_MAX
};

#define EQDS_DEST_A_MAX (__EQDS_DEST_A_MAX - 1)

/* Per-namespace counters, all u64. */
enum eqds_stats_attr {
	EQDS_A_HEADROOM,	/* u8: percent of the link speed left unpulled, 0..50 */
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
	EQDS_STATS_A_DROP_SEGS,		/* rx: segment number outside its packet */
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
	__EQDS_STATS_A_MAX
};

#define EQDS_STATS_A_MAX (__EQDS_STATS_A_MAX - 1)

#endif /* _UAPI_LINUX_EQDS_H */
