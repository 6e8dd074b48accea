// SPDX-License-Identifier: GPL-2.0
// Fuzz target for the wire codec (kmod/core/wire.c).
//
// 1. The input is a received packet. Decoding must never read past it (the
//    copy is exactly sized, so ASan sees any over-read), must return a known
//    reason or a header length, and an accepted header must re-encode to the
//    very same bytes and decode again to the same struct.
// 2. The input is also read as the fields of a struct eqds_pkt. If the
//    encoder accepts it, decoding the result must give the fields back.
#include <cstdint>
#include <cstring>
#include <memory>

#include "fuzz_check.h"
#include "fuzz_reader.h"
#include "wire.h"

static bool same_pkt(const struct eqds_pkt &a, const struct eqds_pkt &b)
{
	if (a.type != b.type || a.flags != b.flags || a.path_id != b.path_id ||
	    a.next_proto != b.next_proto || a.epoch != b.epoch ||
	    a.payload_len != b.payload_len)
		return false;
	if (a.type == EQDS_TYPE_DATA)
		return a.data.seq == b.data.seq &&
		       a.data.pull_target == b.data.pull_target &&
		       a.data.seg_count == b.data.seg_count &&
		       a.data.tcp_seq == b.data.tcp_seq &&
		       a.data.tcp_mss == b.data.tcp_mss;
	return a.ctrl.ack == b.ctrl.ack && a.ctrl.pull_no == b.ctrl.pull_no &&
	       a.ctrl.busy_us == b.ctrl.busy_us &&
	       a.ctrl.quantum == b.ctrl.quantum && a.ctrl.sack == b.ctrl.sack;
}

// Decode hdr followed by payload_len zero bytes, exactly sized.
static int decode_with_payload(const uint8_t *hdr, int hlen,
			       uint32_t payload_len, struct eqds_pkt *out)
{
	uint32_t len = (uint32_t)hlen + payload_len;
	std::unique_ptr<uint8_t[]> buf(new uint8_t[len]());

	std::memcpy(buf.get(), hdr, (size_t)hlen);
	return eqds_decode(buf.get(), len, out);
}

static void fuzz_received(const uint8_t *data, size_t size)
{
	uint32_t len = (uint32_t)size;
	std::unique_ptr<uint8_t[]> buf(new uint8_t[len ? len : 1]);
	struct eqds_pkt p, q;
	uint8_t out[EQDS_MAX_HLEN];
	int r, w;

	if (len)	// the replayer may pass null for an empty input
		std::memcpy(buf.get(), data, len);
	r = eqds_decode(buf.get(), len, &p);
	FUZZ_CHECK(eqds_decode_err_name(r) != nullptr);
	if (r < 0) {
		FUZZ_CHECK(r > -EQDS_DE_COUNT);
		FUZZ_CHECK(std::strcmp(eqds_decode_err_name(r), "unknown"));
		return;
	}
	FUZZ_CHECK(r == EQDS_DATA_HLEN || r == EQDS_DATA_EXT_HLEN || r == EQDS_CTRL_HLEN);
	FUZZ_CHECK(r == p.hlen && (uint32_t)r <= len);
	FUZZ_CHECK(p.payload_len == len - (uint32_t)r);
	FUZZ_CHECK(eqds_pkt_check(&p) == 0);
	if (p.type == EQDS_TYPE_DATA) {
		FUZZ_CHECK(p.data.seg_count <= EQDS_MAX_SEGS);
		FUZZ_CHECK(r == eqds_data_hlen(p.flags));
	}

	w = eqds_encode(out, sizeof(out), &p);
	FUZZ_CHECK(w == r);
	FUZZ_CHECK(std::memcmp(out, data, (size_t)r) == 0);
	FUZZ_CHECK(decode_with_payload(out, w, p.payload_len, &q) == r);
	FUZZ_CHECK(same_pkt(p, q));
}

static void fuzz_fields(const uint8_t *data, size_t size)
{
	struct fuzz_reader rd = { data, size };
	struct eqds_pkt p, q;
	uint8_t out[EQDS_MAX_HLEN + 1];
	uint32_t room;
	int w;

	std::memset(&p, 0, sizeof(p));
	p.type = (uint8_t)rd.get(1);
	p.flags = (uint8_t)rd.get(1);
	p.path_id = (uint8_t)rd.get(1);
	p.next_proto = (uint8_t)rd.get(1);
	p.epoch = (uint32_t)rd.get(4);
	p.payload_len = (uint32_t)rd.get(1);	// small: it is allocated
	if (p.type & 1) {
		p.data.seq = (uint32_t)rd.get(4);
		p.data.pull_target = (uint16_t)rd.get(2);
		p.data.seg_count = (uint16_t)rd.get(2);
		if (rd.get(1) & 1) {	// mostly valid: the extension only with its flag
			p.data.tcp_seq = (uint32_t)rd.get(4);
			p.data.tcp_mss = (uint16_t)rd.get(2);
		}
	} else {
		p.ctrl.ack = (uint32_t)rd.get(4);
		p.ctrl.pull_no = (uint32_t)rd.get(4);
		p.ctrl.busy_us = (uint16_t)rd.get(2);
		p.ctrl.quantum = (uint16_t)rd.get(2);
		p.ctrl.sack = rd.get(8);
	}
	room = (uint32_t)rd.get(1) % (sizeof(out) + 1);

	std::memset(out, 0xa5, sizeof(out));
	w = eqds_encode(out, room, &p);
	if (w < 0) {
		FUZZ_CHECK(w > -EQDS_DE_COUNT);
		for (size_t i = 0; i < sizeof(out); i++)
			FUZZ_CHECK(out[i] == 0xa5);	// nothing written
		FUZZ_CHECK(eqds_pkt_check(&p) != 0 || room < (uint32_t)
			   (p.type == EQDS_TYPE_CTRL ? EQDS_CTRL_HLEN :
			    eqds_data_hlen(p.flags)) || (p.type != EQDS_TYPE_DATA &&
						p.type != EQDS_TYPE_CTRL));
		return;
	}
	FUZZ_CHECK((uint32_t)w <= room);
	FUZZ_CHECK(out[w] == 0xa5);		// nothing past the header
	FUZZ_CHECK(eqds_pkt_check(&p) == 0);
	FUZZ_CHECK(decode_with_payload(out, w, p.payload_len, &q) == w);
	FUZZ_CHECK(same_pkt(p, q));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return 0;
	fuzz_received(data, size);
	fuzz_fields(data, size);
	return 0;
}
