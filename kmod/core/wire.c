// SPDX-License-Identifier: GPL-2.0
/*
 * wire.c - decoding, validating and encoding eqds headers.
 *
 * The rules are listed in wire.h. Decoding copies every header field into
 * struct eqds_pkt first and then runs the same eqds_pkt_check() that the
 * encoders run, so what we accept and what we emit can never drift apart.
 * Field offsets come from the uapi structs (offsetof) rather than magic
 * numbers, but the structs are never overlaid on packet memory: packet
 * buffers need not be aligned, so all access is byte-wise.
 */
#include "wire.h"

static_assert(sizeof(struct eqds_common_hdr) == 8, "common header is 8 bytes");
static_assert(EQDS_DATA_HLEN == 16, "data header is 16 bytes");
static_assert(EQDS_DATA_EXT_HLEN == 24, "extended data header is 24 bytes");
static_assert(EQDS_CTRL_HLEN == 28, "control header is 28 bytes");
static_assert(EQDS_MAX_SEGS <= 0xffff, "seg_count is 16 bits on the wire");

#define EQDS_DATA_FLAGS	(EQDS_F_SYN | EQDS_F_RTS | EQDS_F_FIN | EQDS_F_RTX | EQDS_F_TCPSEQ)

/* The extension's fields: valid with TCPSEQ, zero without it. */
static int eqds_check_data_ext(const struct eqds_pkt *pkt)
{
	if ((pkt->flags & EQDS_F_TCPSEQ) ? !pkt->data.tcp_mss :
	    pkt->data.tcp_seq || pkt->data.tcp_mss)
		return -EQDS_DE_DATA_EXT;
	return 0;
}

static int eqds_check_data(const struct eqds_pkt *pkt)
{
	u8 f = pkt->flags;
	u32 min_len;

	if (f & ~EQDS_DATA_FLAGS)
		return -EQDS_DE_DATA_FLAGS;
	if ((f & EQDS_F_RTS) && (f & EQDS_F_FIN))
		return -EQDS_DE_DATA_FLAG_COMBO;

	switch (pkt->next_proto) {
	case EQDS_NP_NONE:
		/* Only a packet with payload is resent or split. */
		if (f & (EQDS_F_RTX | EQDS_F_TCPSEQ))
			return -EQDS_DE_DATA_FLAG_COMBO;
		if (!(f & (EQDS_F_RTS | EQDS_F_FIN)))
			return -EQDS_DE_DATA_EMPTY;
		if (pkt->payload_len)
			return -EQDS_DE_DATA_STRAY;
		/* A probe or teardown consumes no sequence number. */
		if (pkt->data.seg_count)
			return -EQDS_DE_DATA_SEGS;
		return eqds_check_data_ext(pkt);
	case EQDS_NP_IPV4:
		min_len = EQDS_IPV4_MIN_LEN;
		break;
	case EQDS_NP_IPV6:
		min_len = EQDS_IPV6_MIN_LEN;
		break;
	default:
		return -EQDS_DE_DATA_PROTO;
	}

	if (pkt->payload_len < min_len)
		return -EQDS_DE_DATA_PAYLOAD;
	if (!pkt->data.seg_count || pkt->data.seg_count > EQDS_MAX_SEGS)
		return -EQDS_DE_DATA_SEGS;
	return eqds_check_data_ext(pkt);
}

static int eqds_check_ctrl(const struct eqds_pkt *pkt)
{
	const struct eqds_pkt_ctrl *c = &pkt->ctrl;
	u8 f = pkt->flags;

	if (pkt->payload_len)
		return -EQDS_DE_CTRL_LONG;
	if (pkt->next_proto & ~EQDS_CO_ALL)
		return -EQDS_DE_CTRL_PROTO;
	if (!f)
		return -EQDS_DE_CTRL_NO_FLAGS;
	if ((f & EQDS_F_RST) && f != EQDS_F_RST)
		return -EQDS_DE_CTRL_RST_COMBO;
	if ((f & EQDS_F_RTS) && f != EQDS_F_RTS)
		return -EQDS_DE_CTRL_RTS_COMBO;
	if (((f & EQDS_F_SYN) && !(f & EQDS_F_ACK)) ||
	    ((f & EQDS_F_SACK) && !(f & (EQDS_F_ACK | EQDS_F_NACK))))
		return -EQDS_DE_CTRL_NEED_ACK;
	if ((f & EQDS_F_FIN) && (f & (EQDS_F_SYN | EQDS_F_PULL)))
		return -EQDS_DE_CTRL_FIN_COMBO;
	if ((f & EQDS_F_PULL) && !c->quantum)
		return -EQDS_DE_CTRL_QUANTUM;

	/* Fields a clear flag marks invalid must be zero, not garbage. */
	if (!(f & (EQDS_F_ACK | EQDS_F_NACK)) && c->ack)
		return -EQDS_DE_CTRL_RESERVED;
	if (!(f & EQDS_F_PULL) && (c->pull_no || c->quantum))
		return -EQDS_DE_CTRL_RESERVED;
	if (!(f & EQDS_F_SACK) && c->sack)
		return -EQDS_DE_CTRL_RESERVED;
	return 0;
}

int eqds_pkt_check(const struct eqds_pkt *pkt)
{
	switch (pkt->type) {
	case EQDS_TYPE_DATA:
		return eqds_check_data(pkt);
	case EQDS_TYPE_CTRL:
		return eqds_check_ctrl(pkt);
	default:
		return -EQDS_DE_TYPE;
	}
}

int eqds_decode(const void *buf, u32 len, struct eqds_pkt *out)
{
	const u8 *b = (const u8 *)buf;
	u16 reserved = 0;
	u8 ver_type;
	int err;

	memset(out, 0, sizeof(*out));
	if (len < (u32)sizeof(struct eqds_common_hdr))
		return -EQDS_DE_SHORT;

	ver_type = b[offsetof(struct eqds_common_hdr, ver_type)];
	if (ver_type >> 4 != EQDS_WIRE_VERSION)
		return -EQDS_DE_VERSION;
	out->type = ver_type & 0x0f;
	out->flags = b[offsetof(struct eqds_common_hdr, flags)];
	out->path_id = b[offsetof(struct eqds_common_hdr, path_id)];
	out->next_proto = b[offsetof(struct eqds_common_hdr, next_proto)];
	out->epoch = eqds_get_be32(b + offsetof(struct eqds_common_hdr, epoch));

	switch (out->type) {
	case EQDS_TYPE_DATA:
		out->hlen = eqds_data_hlen(out->flags);
		if (len < out->hlen)
			return -EQDS_DE_DATA_SHORT;
		out->data.seq =
			eqds_get_be32(b + offsetof(struct eqds_data_hdr, seq));
		out->data.pull_target =
			eqds_get_be16(b + offsetof(struct eqds_data_hdr,
						   pull_target));
		out->data.seg_count =
			eqds_get_be16(b + offsetof(struct eqds_data_hdr,
						   seg_count));
		if (out->hlen == EQDS_DATA_HLEN)
			break;
		out->data.tcp_seq =
			eqds_get_be32(b + offsetof(struct eqds_data_ext, tcp_seq));
		out->data.tcp_mss =
			eqds_get_be16(b + offsetof(struct eqds_data_ext, tcp_mss));
		reserved = eqds_get_be16(b + offsetof(struct eqds_data_ext, reserved));
		break;
	case EQDS_TYPE_CTRL:
		if (len < (u32)EQDS_CTRL_HLEN)
			return -EQDS_DE_CTRL_SHORT;
		out->hlen = EQDS_CTRL_HLEN;
		out->ctrl.ack =
			eqds_get_be32(b + offsetof(struct eqds_ctrl_hdr, ack));
		out->ctrl.pull_no =
			eqds_get_be32(b + offsetof(struct eqds_ctrl_hdr,
						   pull_no));
		out->ctrl.busy_us =
			eqds_get_be16(b + offsetof(struct eqds_ctrl_hdr,
						   busy_us));
		out->ctrl.quantum =
			eqds_get_be16(b + offsetof(struct eqds_ctrl_hdr,
						   quantum));
		/* sack_hi and sack_lo are adjacent: one big-endian u64. */
		out->ctrl.sack =
			eqds_get_be64(b + offsetof(struct eqds_ctrl_hdr,
						   sack_hi));
		break;
	default:
		return -EQDS_DE_TYPE;
	}

	out->payload_len = len - out->hlen;
	err = eqds_pkt_check(out);
	if (err)
		return err;
	/* Not in struct eqds_pkt, so checked last, with DATA_EXT's rule. */
	if (reserved)
		return -EQDS_DE_DATA_EXT;
	return out->hlen;
}

static void eqds_put_common(u8 *b, const struct eqds_pkt *pkt)
{
	b[offsetof(struct eqds_common_hdr, ver_type)] =
		(u8)(EQDS_WIRE_VERSION << 4 | pkt->type);
	b[offsetof(struct eqds_common_hdr, flags)] = pkt->flags;
	b[offsetof(struct eqds_common_hdr, path_id)] = pkt->path_id;
	b[offsetof(struct eqds_common_hdr, next_proto)] = pkt->next_proto;
	eqds_put_be32(b + offsetof(struct eqds_common_hdr, epoch), pkt->epoch);
}

int eqds_encode_data(void *buf, u32 len, const struct eqds_pkt *pkt)
{
	u16 hlen = eqds_data_hlen(pkt->flags);
	u8 *b = (u8 *)buf;
	int err;

	if (pkt->type != EQDS_TYPE_DATA)
		return -EQDS_DE_TYPE;
	if (len < hlen)
		return -EQDS_DE_DATA_SHORT;
	err = eqds_pkt_check(pkt);
	if (err)
		return err;

	eqds_put_common(b, pkt);
	eqds_put_be32(b + offsetof(struct eqds_data_hdr, seq), pkt->data.seq);
	eqds_put_be16(b + offsetof(struct eqds_data_hdr, pull_target),
		      pkt->data.pull_target);
	eqds_put_be16(b + offsetof(struct eqds_data_hdr, seg_count),
		      pkt->data.seg_count);
	if (hlen == EQDS_DATA_HLEN)
		return hlen;
	eqds_put_be32(b + offsetof(struct eqds_data_ext, tcp_seq), pkt->data.tcp_seq);
	eqds_put_be16(b + offsetof(struct eqds_data_ext, tcp_mss), pkt->data.tcp_mss);
	eqds_put_be16(b + offsetof(struct eqds_data_ext, reserved), 0);
	return hlen;
}

int eqds_encode_ctrl(void *buf, u32 len, const struct eqds_pkt *pkt)
{
	u8 *b = (u8 *)buf;
	int err;

	if (pkt->type != EQDS_TYPE_CTRL)
		return -EQDS_DE_TYPE;
	if (len < (u32)EQDS_CTRL_HLEN)
		return -EQDS_DE_CTRL_SHORT;
	err = eqds_pkt_check(pkt);
	if (err)
		return err;

	eqds_put_common(b, pkt);
	eqds_put_be32(b + offsetof(struct eqds_ctrl_hdr, ack), pkt->ctrl.ack);
	eqds_put_be32(b + offsetof(struct eqds_ctrl_hdr, pull_no),
		      pkt->ctrl.pull_no);
	eqds_put_be16(b + offsetof(struct eqds_ctrl_hdr, busy_us),
		      pkt->ctrl.busy_us);
	eqds_put_be16(b + offsetof(struct eqds_ctrl_hdr, quantum),
		      pkt->ctrl.quantum);
	eqds_put_be64(b + offsetof(struct eqds_ctrl_hdr, sack_hi),
		      pkt->ctrl.sack);
	return EQDS_CTRL_HLEN;
}

int eqds_encode(void *buf, u32 len, const struct eqds_pkt *pkt)
{
	if (pkt->type == EQDS_TYPE_CTRL)
		return eqds_encode_ctrl(buf, len, pkt);
	return eqds_encode_data(buf, len, pkt);
}

/* Indexed by enum eqds_decode_err: keep in the enum's order. */
static const char * const eqds_decode_err_names[] = {
	"ok",
	"short",
	"version",
	"type",
	"data_short",
	"data_flags",
	"data_flag_combo",
	"data_proto",
	"data_empty",
	"data_stray",
	"data_payload",
	"data_segs",
	"ctrl_short",
	"ctrl_long",
	"ctrl_proto",
	"ctrl_no_flags",
	"ctrl_rst_combo",
	"ctrl_rts_combo",
	"ctrl_need_ack",
	"ctrl_fin_combo",
	"ctrl_quantum",
	"ctrl_reserved",
	"data_ext",
};

static_assert(EQDS_ARRAY_SIZE(eqds_decode_err_names) == EQDS_DE_COUNT,
	      "one name per decode error");

const char *eqds_decode_err_name(int err)
{
	if (err < 0)
		err = err < -EQDS_DE_COUNT ? EQDS_DE_COUNT : -err;
	if (err >= EQDS_DE_COUNT)
		return "unknown";
	return eqds_decode_err_names[err];
}

enum eqds_number_verdict eqds_number(const struct eqds_pkt *pkt,
				     const struct eqds_arrival *a, u32 *first)
{
	u32 nsegs = pkt->data.seg_count, off, k;
	u16 id_off;

	*first = pkt->data.seq;
	if (a->npieces > nsegs)
		return EQDS_NUM_TOO_MANY;
	/*
	 * Every number of the packet (or none, for a probe): its header says
	 * which, whatever the ID. The ID only tells whether it arrived as
	 * sent.
	 */
	if (a->npieces == nsegs) {
		if (!a->has_id || a->id == eqds_outer_id(pkt->data.seq))
			return EQDS_NUM_OK;
		return EQDS_NUM_REWRITTEN;
	}
	if (pkt->flags & EQDS_F_TCPSEQ) {
		if (!a->has_tcp_seq)
			return EQDS_NUM_UNNUMBERED;
		off = a->tcp_seq - pkt->data.tcp_seq;
		k = off / pkt->data.tcp_mss;
		if (off % pkt->data.tcp_mss || k >= nsegs || k + a->npieces > nsegs)
			return EQDS_NUM_UNNUMBERED;
		*first = pkt->data.seq + k;
		return EQDS_NUM_OK;
	}
	if (!a->has_id)
		return EQDS_NUM_UNNUMBERED;
	if (a->untrusted)
		return EQDS_NUM_UNTRUSTED;
	id_off = (u16)(a->id - eqds_outer_id(pkt->data.seq));
	if ((u32)id_off + a->npieces > nsegs)
		return EQDS_NUM_OUT_OF_RANGE;
	*first = pkt->data.seq + id_off;
	return EQDS_NUM_OK;
}
