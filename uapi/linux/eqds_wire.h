/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * eqds wire format: the header that follows the outer UDP header.
 * See Documentation/wire-format.rst for the reasoning behind each field.
 *
 * Every packet starts with the 8-byte common header. Data packets (type
 * EQDS_TYPE_DATA) continue with struct eqds_data_hdr and then the inner IP
 * packet; control packets (EQDS_TYPE_CTRL) continue with struct
 * eqds_ctrl_hdr and nothing after it. All multi-byte fields are big endian.
 *
 *  0               1               2               3
 *  +-------+-------+---------------+---------------+---------------+
 *  |version| type  |     flags     |    path id    | next proto/opt|
 *  +-------+-------+---------------+---------------+---------------+
 *  |                   epoch (sender's tunnel incarnation)         |
 *  +---------------------------------------------------------------+
 * data:
 *  |                   sequence number (first segment)             |
 *  |         pull target           |        segment count          |
 * ctrl:
 *  |                   cumulative ack (next expected seq)          |
 *  |                   pull number (cumulative)                    |
 *  |         busy time (us)        |        pull quantum (64 B)    |
 *  |                   sack bitmap (seqs ack+1 .. ack+64)           |
 *  |                                                               |
 */
#ifndef _UAPI_LINUX_EQDS_WIRE_H
#define _UAPI_LINUX_EQDS_WIRE_H

#include <linux/types.h>

#define EQDS_WIRE_VERSION	1

enum eqds_pkt_type {
	EQDS_TYPE_DATA = 1,
	EQDS_TYPE_CTRL = 2,
};

/* Flags. Which are legal depends on the type; see the decoder. */
#define EQDS_F_SYN	0x01	/* data: tunnel not yet confirmed; ctrl (with ACK): confirmed */
#define EQDS_F_ACK	0x02	/* ctrl: ack field valid */
#define EQDS_F_TCPSEQ	0x02	/* data with payload: struct eqds_data_ext follows */
#define EQDS_F_NACK	0x04	/* ctrl: seq "ack" is missing, retransmit it */
#define EQDS_F_RTX	0x04	/* data with payload: a retransmission */
#define EQDS_F_PULL	0x08	/* ctrl: pull number valid */
#define EQDS_F_RTS	0x10	/* data w/o payload or ctrl from sender: request credit */
#define EQDS_F_FIN	0x20	/* either side: tunnel torn down (best effort) */
#define EQDS_F_RST	0x40	/* ctrl: unknown tunnel, sender must restart */
#define EQDS_F_SACK	0x80	/* ctrl: sack bitmap valid */

/* Inner protocol of a data packet. */
#define EQDS_NP_NONE	0	/* no payload (RTS probe) */
#define EQDS_NP_IPV4	4
#define EQDS_NP_IPV6	6

/*
 * Options of a control packet, in the common header's next_proto byte.
 * SEG_NUMBERS: outer IPv4 IDs do not reach this receiver as sent (a router
 * or device rewrote them), so pieces of a packet split after encapsulation
 * cannot be numbered: number every segment in its own header.
 */
#define EQDS_CO_SEG_NUMBERS	0x01
/*
 * CE: a data packet arrived with CE on its outer header since the last
 * control packet to this sender; path_id is that packet's, not this one's.
 * The sender penalises the path (Documentation/eqds.rst, "Paths").
 */
#define EQDS_CO_CE		0x02
#define EQDS_CO_ALL		(EQDS_CO_SEG_NUMBERS | EQDS_CO_CE)

struct eqds_common_hdr {
	__u8	ver_type;	/* version << 4 | type */
	__u8	flags;
	__u8	path_id;	/* spraying entropy, echoed in acks */
	__u8	next_proto;	/* EQDS_NP_*; control: EQDS_CO_* */
	__be32	epoch;
};

struct eqds_data_hdr {
	struct eqds_common_hdr	common;
	__be32	seq;
	__be16	pull_target;	/* credit wanted beyond current pulls, in quanta */
	__be16	seg_count;	/* sequence numbers this packet consumes (GSO) */
};

/*
 * With EQDS_F_TCPSEQ, the data header goes on: the inner packet is TCP and
 * may be split after encapsulation into pieces of tcp_mss payload bytes,
 * piece k carrying TCP sequence number tcp_seq + k * tcp_mss and this same
 * header. The receiver numbers a piece seq + k from its TCP header: for an
 * IPv6 outer header, which has no ID to count the pieces with.
 */
struct eqds_data_ext {
	struct eqds_data_hdr	data;
	__be32	tcp_seq;	/* TCP sequence number of the first piece */
	__be16	tcp_mss;	/* TCP payload bytes per piece (GSO size) */
	__be16	reserved;	/* zero */
};

struct eqds_ctrl_hdr {
	struct eqds_common_hdr	common;
	__be32	ack;		/* next sequence number expected */
	__be32	pull_no;	/* cumulative pull number */
	__be16	busy_us;	/* how long the receiver link stays busy */
	__be16	quantum;	/* credit per pull, in 64-byte units */
	__be32	sack_hi;	/* bitmap of seqs ack+1..ack+64, hi word first */
	__be32	sack_lo;
};

#define EQDS_DATA_HLEN	((int)sizeof(struct eqds_data_hdr))	/* 16 */
#define EQDS_DATA_EXT_HLEN	((int)sizeof(struct eqds_data_ext))	/* 24 */
#define EQDS_CTRL_HLEN	((int)sizeof(struct eqds_ctrl_hdr))	/* 28 */

#endif /* _UAPI_LINUX_EQDS_WIRE_H */
