/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wire.h - decoding, validating and encoding eqds headers.
 *
 * The byte layout is fixed by uapi/linux/eqds_wire.h; this file turns it into
 * a host-order struct eqds_pkt and back. Decoding validates every field, so
 * the rest of the module only ever sees headers that make sense, and each
 * kind of malformed packet has its own reason code (per-reason drop counters
 * in the module, names in logs).
 *
 * Validation rules, checked in this order (the first failure is reported):
 *
 *  Any packet:
 *   SHORT            fewer than 8 bytes (the common header)
 *   VERSION          version nibble != EQDS_WIRE_VERSION
 *   TYPE             type nibble is neither DATA nor CTRL
 *  Data packets:
 *   DATA_SHORT       fewer than EQDS_DATA_HLEN bytes, or EQDS_DATA_EXT_HLEN
 *                    with TCPSEQ
 *   DATA_FLAGS       a flag other than SYN, RTS, FIN, RTX, TCPSEQ (PULL,
 *                    RST and SACK belong to control packets; RTX shares
 *                    NACK's bit, TCPSEQ ACK's)
 *   DATA_FLAG_COMBO  RTS together with FIN: asking for credit on a tunnel
 *                    that is being torn down; or RTX or TCPSEQ without
 *                    payload
 *   DATA_PROTO       next_proto is not NONE, IPV4 or IPV6
 *   DATA_EMPTY       next_proto NONE without RTS or FIN: a data packet
 *                    without payload must be an RTS probe or a teardown
 *   DATA_STRAY       next_proto NONE but payload bytes follow the header
 *   DATA_PAYLOAD     payload shorter than the inner protocol's minimal
 *                    header (20 bytes IPv4, 40 bytes IPv6)
 *   DATA_SEGS        seg_count out of range: a packet with payload consumes
 *                    1..EQDS_MAX_SEGS sequence numbers, one without payload
 *                    consumes none (seg_count 0, seq is the next to be used)
 *   DATA_EXT         TCPSEQ with tcp_mss 0 or the reserved field not zero
 *                    (and, for a host-order packet, tcp_seq or tcp_mss set
 *                    without TCPSEQ)
 *  Control packets:
 *   CTRL_SHORT       fewer than EQDS_CTRL_HLEN bytes
 *   CTRL_LONG        bytes after the control header (it carries nothing)
 *   CTRL_PROTO       next_proto holds a bit other than EQDS_CO_* (for
 *                    control packets it carries options, not a protocol)
 *   CTRL_NO_FLAGS    no flag set: the packet would mean nothing
 *   CTRL_RST_COMBO   RST with any other flag: the receiver does not know the
 *                    tunnel, so it cannot ack, pull or confirm anything on it
 *   CTRL_RTS_COMBO   RTS with any other flag: RTS is the sender's request,
 *                    the others are the receiver's answers
 *   CTRL_NEED_ACK    SYN without ACK (SYN+ACK confirms the tunnel), or
 *                    SACK without ACK or NACK (the bitmap is relative to the
 *                    ack field). NACK names the ack field's seq as missing;
 *                    without ACK it acknowledges nothing, so holes beyond
 *                    the first can be reported too
 *   CTRL_FIN_COMBO   FIN with SYN or PULL: confirming or granting credit on
 *                    a tunnel that is being torn down
 *   CTRL_QUANTUM     PULL with quantum 0: the pull would grant nothing
 *   CTRL_RESERVED    a field whose flag is clear is not zero (ack without
 *                    ACK or NACK, pull_no or quantum without PULL, sack
 *                    without SACK)
 *
 * path_id, epoch, seq, pull_target and busy_us take any value. Because every
 * header bit lands in a field of struct eqds_pkt and the encoder applies the
 * same rules, encode(decode(bytes)) == bytes for every accepted header and
 * decode(encode(pkt)) == pkt for every valid pkt.
 */
#ifndef _EQDS_CORE_WIRE_H
#define _EQDS_CORE_WIRE_H

#include "platform.h"
#include <linux/eqds_wire.h>

/*
 * Most sequence numbers one data packet may consume. A TSO superpacket
 * becomes at most this many wire packets; 64 KB of TCP at a 1448-byte MSS is
 * 46 segments. Bigger bursts must be segmented by the sender.
 */
#define EQDS_MAX_SEGS		64

/* Longest header the decoder reads. */
#define EQDS_MAX_HLEN		EQDS_CTRL_HLEN
static_assert(EQDS_DATA_EXT_HLEN <= EQDS_MAX_HLEN, "the decoder reads data headers whole");

/* A data header's length, from its flags byte. */
static inline u16 eqds_data_hlen(u8 flags)
{
	return flags & EQDS_F_TCPSEQ ? EQDS_DATA_EXT_HLEN : EQDS_DATA_HLEN;
}

/* Shortest inner packets: an IPv4 header without options, an IPv6 header. */
#define EQDS_IPV4_MIN_LEN	20
#define EQDS_IPV6_MIN_LEN	40

/* The wire carries the pull quantum in units of 64 bytes. */
#define EQDS_QUANTUM_SHIFT	6

enum eqds_decode_err {
	EQDS_DE_OK,		/* not an error; keeps real reasons non-zero */
	EQDS_DE_SHORT,
	EQDS_DE_VERSION,
	EQDS_DE_TYPE,
	EQDS_DE_DATA_SHORT,
	EQDS_DE_DATA_FLAGS,
	EQDS_DE_DATA_FLAG_COMBO,
	EQDS_DE_DATA_PROTO,
	EQDS_DE_DATA_EMPTY,
	EQDS_DE_DATA_STRAY,
	EQDS_DE_DATA_PAYLOAD,
	EQDS_DE_DATA_SEGS,
	EQDS_DE_CTRL_SHORT,
	EQDS_DE_CTRL_LONG,
	EQDS_DE_CTRL_PROTO,
	EQDS_DE_CTRL_NO_FLAGS,
	EQDS_DE_CTRL_RST_COMBO,
	EQDS_DE_CTRL_RTS_COMBO,
	EQDS_DE_CTRL_NEED_ACK,
	EQDS_DE_CTRL_FIN_COMBO,
	EQDS_DE_CTRL_QUANTUM,
	EQDS_DE_CTRL_RESERVED,
	EQDS_DE_DATA_EXT,	/* after the others: the codes are stable */
	EQDS_DE_COUNT		/* number of codes, for counter arrays */
};

/* Fields of a data header, host order. */
struct eqds_pkt_data {
	u32	seq;		/* first sequence number */
	u16	pull_target;	/* pull number wanted, low 16 bits (credit.h) */
	u16	seg_count;	/* sequence numbers consumed */
	u32	tcp_seq;	/* with EQDS_F_TCPSEQ: the first piece's TCP seq */
	u16	tcp_mss;	/* with EQDS_F_TCPSEQ: TCP payload per piece */
};

/* Fields of a control header, host order. */
struct eqds_pkt_ctrl {
	u32	ack;		/* next sequence number expected */
	u32	pull_no;	/* cumulative pull number */
	u16	busy_us;	/* receiver link busy time, microseconds */
	u16	quantum;	/* credit per pull, 64-byte units */
	u64	sack;		/* bit i set: seq ack + 1 + i was received */
};

/*
 * A decoded header. Both sub-structs are always present (no union, so C++
 * never reads an inactive member); the one that does not match the type is
 * all zero after decoding and ignored by the encoder.
 */
struct eqds_pkt {
	u8	type;		/* EQDS_TYPE_DATA or EQDS_TYPE_CTRL */
	u8	flags;		/* EQDS_F_* */
	u8	path_id;
	u8	next_proto;	/* EQDS_NP_*; 0 for control */
	u32	epoch;		/* sender's tunnel incarnation */
	u16	hlen;		/* header length; set by the decoder */
	u32	payload_len;	/* bytes after the header */
	struct eqds_pkt_data	data;
	struct eqds_pkt_ctrl	ctrl;
};

/*
 * Decode the eqds header at buf. len is the length of the whole eqds packet
 * (header and payload): the payload rules need it. Only the header is read,
 * never more than min(len, EQDS_MAX_HLEN) bytes, so a kernel caller needs
 * just the header linear. Returns the header length (EQDS_DATA_HLEN,
 * EQDS_DATA_EXT_HLEN or EQDS_CTRL_HLEN) and fills *out, or returns -enum eqds_decode_err, in which
 * case *out holds nothing useful.
 */
int eqds_decode(const void *buf, u32 len, struct eqds_pkt *out);

/*
 * Check a host-order packet against the rules above, payload_len included;
 * hlen is ignored. Returns 0 or -enum eqds_decode_err.
 */
int eqds_pkt_check(const struct eqds_pkt *pkt);

/*
 * Write the header of pkt into buf (len bytes available). pkt must be valid
 * (eqds_pkt_check) and of the right type; the payload is the caller's.
 * Returns the header length, or -EQDS_DE_TYPE for the wrong type,
 * -EQDS_DE_DATA_SHORT / -EQDS_DE_CTRL_SHORT if the buffer is too small, or
 * the validation error. Nothing is written on error.
 */
int eqds_encode_data(void *buf, u32 len, const struct eqds_pkt *pkt);
int eqds_encode_ctrl(void *buf, u32 len, const struct eqds_pkt *pkt);

/* eqds_encode_data() or eqds_encode_ctrl(), by pkt->type. */
int eqds_encode(void *buf, u32 len, const struct eqds_pkt *pkt);

/*
 * Short stable name of a reason code ("ctrl_short"), for counters and logs.
 * Accepts the code or its negation, as returned by the functions above.
 */
const char *eqds_decode_err_name(int err);

/*
 * Numbering the pieces of a data packet split after encapsulation (TSO,
 * software GSO): every piece carries the same EQDS header, so something else
 * must tell which of the packet's numbers each holds.
 *
 * By the outer IPv4 ID. A data packet leaves with the outer ID
 * eqds_outer_id(seq), and piece k of it gets eqds_outer_id(seq) + k: the
 * receiver numbers a piece by its ID. Routers may rewrite the ID of DF
 * datagrams (RFC 6864) and some TSO devices do not increment it, so the
 * receiver checks the ID against the header:
 *
 *  - a packet that holds all its numbers (or none: an RTS probe) is
 *    numbered by its header alone; an ID other than eqds_outer_id(seq)
 *    shows that IDs are rewritten (REWRITTEN, the packet is good);
 *  - a piece (fewer numbers than seg_count, npieces of them merged by GRO)
 *    takes seq + (ID - eqds_outer_id(seq)), which must fall inside the
 *    packet's numbers, or its ID was rewritten (OUT_OF_RANGE, refused);
 *  - once the receiver has seen a rewritten ID from a sender (untrusted),
 *    it numbers no piece by its ID (UNTRUSTED, refused) and asks the sender
 *    with EQDS_CO_SEG_NUMBERS to number every segment in its own header.
 *
 * A rewritten ID that happens to fall inside its packet's range before any
 * rewrite was seen cannot be told from a real one: the first packets of a
 * tunnel are whole (handshakes, small packets), so the rewrite is seen
 * before pieces arrive, unless the router keeps the ID of those.
 *
 * By the inner TCP sequence (EQDS_F_TCPSEQ: an IPv6 outer header has no
 * ID). Piece k of a TCP packet starts at TCP sequence number tcp_seq + k *
 * tcp_mss, so a piece whose TCP header says tcp_seq + k * tcp_mss takes
 * seq + k, which must fall inside the packet's numbers. A piece that
 * nothing numbers (no ID and no TCPSEQ, or a TCP seq that is not the start
 * of one of the packet's pieces) is refused (UNNUMBERED).
 */
enum eqds_number_verdict {
	EQDS_NUM_OK,		/* *first is the first number it holds */
	EQDS_NUM_REWRITTEN,	/* numbered by its header; its ID was rewritten */
	EQDS_NUM_UNTRUSTED,	/* a piece, and this sender's IDs are rewritten */
	EQDS_NUM_OUT_OF_RANGE,	/* a piece whose ID is outside its packet's */
	EQDS_NUM_TOO_MANY,	/* more pieces than the packet has numbers */
	EQDS_NUM_UNNUMBERED,	/* a piece that neither an ID nor TCP numbers */
};

/*
 * Number a data header's pieces by TCP: the TCPSEQ extension, the first
 * piece at TCP seq tcp_seq and one every mss payload bytes (the GSO size).
 */
static inline void eqds_pkt_number_by_tcp(struct eqds_pkt *pkt, u32 tcp_seq, u16 mss)
{
	pkt->flags |= EQDS_F_TCPSEQ;
	pkt->hlen = eqds_data_hlen(pkt->flags);
	pkt->data.tcp_seq = tcp_seq;
	pkt->data.tcp_mss = mss;
}

/* The outer IPv4 ID of a data packet whose first number is seq. */
static inline u16 eqds_outer_id(u32 seq)
{
	return (u16)seq;
}

/* How a data packet arrived, for eqds_number(). */
struct eqds_arrival {
	u32	npieces;	/* pieces it holds: GRO's count, 1, or 0 (probe) */
	bool	has_id;		/* the outer header is IPv4 and id its ID */
	bool	untrusted;	/* IDs from this sender were rewritten before */
	bool	has_tcp_seq;	/* the inner packet is TCP, tcp_seq its seq */
	u16	id;
	u32	tcp_seq;
};

/*
 * Number a data packet (pkt valid, a data header) that arrived as a says.
 * On EQDS_NUM_OK and EQDS_NUM_REWRITTEN *first is the packet's first
 * number; anything else must not be delivered.
 */
enum eqds_number_verdict eqds_number(const struct eqds_pkt *pkt,
				     const struct eqds_arrival *a, u32 *first);

/* The verdict shows that this sender's outer IDs are rewritten. */
static inline bool eqds_outer_id_rewritten(enum eqds_number_verdict v)
{
	return v == EQDS_NUM_REWRITTEN || v == EQDS_NUM_OUT_OF_RANGE;
}

/* Pull quantum, wire units to bytes. */
static inline u32 eqds_quantum_bytes(u16 quantum)
{
	return (u32)quantum << EQDS_QUANTUM_SHIFT;
}

/* Is seq marked received in a SACK bitmap relative to ack? */
static inline bool eqds_sack_has(u64 sack, u32 ack, u32 seq)
{
	u32 off = seq - ack - 1;

	return off < 64 && (sack >> off) & 1;
}

#endif /* _EQDS_CORE_WIRE_H */
