// SPDX-License-Identifier: GPL-2.0
// Wire codec (kmod/core/wire.c): exact bytes, every decode rule, truncation
// at every length, round trips, and the encoder's refusals.
#include <gtest/gtest.h>

#include <climits>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "wire.h"

namespace {

using Bytes = std::vector<u8>;

// A valid IPv4 data packet: SYN, path 7, seq a0b0c0d0, pull target 258,
// 3 segments, followed by a 20-byte (minimal) inner header.
Bytes data_pkt()
{
	Bytes b = {
		0x11, EQDS_F_SYN, 0x07, EQDS_NP_IPV4,	// v1 data, flags, path, np
		0x11, 0x22, 0x33, 0x44,			// epoch
		0xa0, 0xb0, 0xc0, 0xd0,			// seq
		0x01, 0x02, 0x00, 0x03,			// pull target, segs
	};
	b.resize(EQDS_DATA_HLEN + EQDS_IPV4_MIN_LEN, 0x45);
	return b;
}

// A valid control packet: ACK | PULL | SACK with every field non-zero.
Bytes ctrl_pkt()
{
	return Bytes{
		0x12, EQDS_F_ACK | EQDS_F_PULL | EQDS_F_SACK, 0x09, 0x00,
		0xca, 0xfe, 0xf0, 0x0d,			// epoch
		0x01, 0x02, 0x03, 0x04,			// ack
		0x05, 0x06, 0x07, 0x08,			// pull number
		0x09, 0x0a, 0x0b, 0x0c,			// busy us, quantum
		0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,	// sack
	};
}

// Decode from an exactly sized heap copy, so a sanitizer build catches any
// read past len.
int decode(const Bytes &b, size_t len, struct eqds_pkt *out)
{
	std::unique_ptr<u8[]> copy(new u8[len ? len : 1]);

	if (len)	// data() of an empty vector may be null
		memcpy(copy.get(), b.data(), len);
	return eqds_decode(copy.get(), (u32)len, out);
}

int decode(const Bytes &b, struct eqds_pkt *out)
{
	return decode(b, b.size(), out);
}

int decode(const Bytes &b)
{
	struct eqds_pkt p;

	return decode(b, &p);
}

bool same(const struct eqds_pkt &a, const struct eqds_pkt &b)
{
	return a.type == b.type && a.flags == b.flags &&
	       a.path_id == b.path_id && a.next_proto == b.next_proto &&
	       a.epoch == b.epoch && a.payload_len == b.payload_len &&
	       (a.type == EQDS_TYPE_DATA ?
		(a.data.seq == b.data.seq &&
		 a.data.pull_target == b.data.pull_target &&
		 a.data.seg_count == b.data.seg_count) :
		(a.ctrl.ack == b.ctrl.ack && a.ctrl.pull_no == b.ctrl.pull_no &&
		 a.ctrl.busy_us == b.ctrl.busy_us &&
		 a.ctrl.quantum == b.ctrl.quantum &&
		 a.ctrl.sack == b.ctrl.sack));
}

} // namespace

TEST(Wire, DecodeDataFields)
{
	struct eqds_pkt p;

	ASSERT_EQ(decode(data_pkt(), &p), EQDS_DATA_HLEN);
	EXPECT_EQ(p.type, EQDS_TYPE_DATA);
	EXPECT_EQ(p.flags, EQDS_F_SYN);
	EXPECT_EQ(p.path_id, 7);
	EXPECT_EQ(p.next_proto, EQDS_NP_IPV4);
	EXPECT_EQ(p.epoch, 0x11223344u);
	EXPECT_EQ(p.hlen, EQDS_DATA_HLEN);
	EXPECT_EQ(p.payload_len, (u32)EQDS_IPV4_MIN_LEN);
	EXPECT_EQ(p.data.seq, 0xa0b0c0d0u);
	EXPECT_EQ(p.data.pull_target, 0x0102);
	EXPECT_EQ(p.data.seg_count, 3);
	// The control part of a data packet is zeroed.
	EXPECT_EQ(p.ctrl.ack, 0u);
	EXPECT_EQ(p.ctrl.sack, 0u);
}

TEST(Wire, DecodeCtrlFields)
{
	struct eqds_pkt p;

	ASSERT_EQ(decode(ctrl_pkt(), &p), EQDS_CTRL_HLEN);
	EXPECT_EQ(p.type, EQDS_TYPE_CTRL);
	EXPECT_EQ(p.flags, EQDS_F_ACK | EQDS_F_PULL | EQDS_F_SACK);
	EXPECT_EQ(p.path_id, 9);
	EXPECT_EQ(p.epoch, 0xcafef00du);
	EXPECT_EQ(p.hlen, EQDS_CTRL_HLEN);
	EXPECT_EQ(p.payload_len, 0u);
	EXPECT_EQ(p.ctrl.ack, 0x01020304u);
	EXPECT_EQ(p.ctrl.pull_no, 0x05060708u);
	EXPECT_EQ(p.ctrl.busy_us, 0x090a);
	EXPECT_EQ(p.ctrl.quantum, 0x0b0c);
	EXPECT_EQ(p.ctrl.sack, 0x1112131415161718ull);
	EXPECT_EQ(p.data.seq, 0u);
}

TEST(Wire, DecodeUnalignedBuffer)
{
	Bytes c = ctrl_pkt();
	std::vector<u8> shifted(c.size() + 3);
	struct eqds_pkt p;

	for (int off = 0; off < 4; off++) {
		memcpy(shifted.data() + off, c.data(), c.size());
		ASSERT_EQ(eqds_decode(shifted.data() + off, (u32)c.size(), &p),
			  EQDS_CTRL_HLEN);
		EXPECT_EQ(p.ctrl.sack, 0x1112131415161718ull);
	}
}

TEST(Wire, EncodeExactBytes)
{
	struct eqds_pkt p;
	u8 out[EQDS_MAX_HLEN];
	Bytes d = data_pkt(), c = ctrl_pkt();

	ASSERT_EQ(decode(d, &p), EQDS_DATA_HLEN);
	ASSERT_EQ(eqds_encode_data(out, sizeof(out), &p), EQDS_DATA_HLEN);
	EXPECT_EQ(0, memcmp(out, d.data(), EQDS_DATA_HLEN));

	ASSERT_EQ(decode(c, &p), EQDS_CTRL_HLEN);
	ASSERT_EQ(eqds_encode_ctrl(out, sizeof(out), &p), EQDS_CTRL_HLEN);
	EXPECT_EQ(0, memcmp(out, c.data(), EQDS_CTRL_HLEN));
}

TEST(Wire, EncodeFromScratch)
{
	struct eqds_pkt p;
	u8 out[EQDS_DATA_HLEN];
	const u8 want[EQDS_DATA_HLEN] = {
		0x11, EQDS_F_RTS | EQDS_F_SYN, 0xff, 0x00,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0x00, 0x00,
	};

	memset(&p, 0, sizeof(p));
	p.type = EQDS_TYPE_DATA;
	p.flags = EQDS_F_RTS | EQDS_F_SYN;
	p.path_id = 0xff;
	p.next_proto = EQDS_NP_NONE;
	p.epoch = 0xffffffffu;
	p.data.seq = 0xffffffffu;
	p.data.pull_target = 0xffff;
	ASSERT_EQ(eqds_encode_data(out, sizeof(out), &p), EQDS_DATA_HLEN);
	EXPECT_EQ(0, memcmp(out, want, sizeof(want)));
}

TEST(Wire, TruncatedDataAtEveryLength)
{
	Bytes d = data_pkt();
	struct eqds_pkt p;

	for (size_t len = 0; len <= d.size(); len++) {
		int want;

		if (len < 8)
			want = -EQDS_DE_SHORT;
		else if (len < (size_t)EQDS_DATA_HLEN)
			want = -EQDS_DE_DATA_SHORT;
		else if (len < d.size())
			want = -EQDS_DE_DATA_PAYLOAD;
		else
			want = EQDS_DATA_HLEN;
		EXPECT_EQ(decode(d, len, &p), want) << "len " << len;
	}
}

TEST(Wire, TruncatedCtrlAtEveryLength)
{
	Bytes c = ctrl_pkt();
	struct eqds_pkt p;

	c.resize(c.size() + 16, 0);
	for (size_t len = 0; len <= c.size(); len++) {
		int want;

		if (len < 8)
			want = -EQDS_DE_SHORT;
		else if (len < (size_t)EQDS_CTRL_HLEN)
			want = -EQDS_DE_CTRL_SHORT;
		else if (len == (size_t)EQDS_CTRL_HLEN)
			want = EQDS_CTRL_HLEN;
		else
			want = -EQDS_DE_CTRL_LONG;
		EXPECT_EQ(decode(c, len, &p), want) << "len " << len;
	}
}

TEST(Wire, NeverLooksPastLen)
{
	// Whatever follows len in memory must not change the verdict.
	for (const Bytes &orig : { data_pkt(), ctrl_pkt() }) {
		for (size_t len = 0; len <= orig.size(); len++) {
			Bytes a = orig, b = orig;
			struct eqds_pkt pa, pb;

			for (size_t i = len; i < b.size(); i++)
				b[i] ^= 0xff;
			ASSERT_EQ(eqds_decode(a.data(), (u32)len, &pa),
				  eqds_decode(b.data(), (u32)len, &pb))
				<< "len " << len;
		}
	}
}

// One malformed packet per row; together they must reach every reason.
struct bad_case {
	const char *what;
	std::function<Bytes()> make;
	enum eqds_decode_err want;
};

static Bytes with(Bytes b, size_t i, u8 v)
{
	b[i] = v;
	return b;
}

static Bytes sized(Bytes b, size_t len)
{
	b.resize(len, 0);
	return b;
}

// A data packet without payload: next_proto NONE, seg_count 0.
static Bytes empty_data(u8 flags)
{
	Bytes b = sized(data_pkt(), EQDS_DATA_HLEN);

	b[1] = flags;
	b[3] = EQDS_NP_NONE;
	b[14] = 0;
	b[15] = 0;
	return b;
}

// A control packet with the given flags and all optional fields zero.
static Bytes bare_ctrl(u8 flags)
{
	Bytes b = ctrl_pkt();

	b[1] = flags;
	for (size_t i = 8; i < b.size(); i++)
		b[i] = 0;
	return b;
}

static const std::vector<bad_case> &bad_cases()
{
	static const std::vector<bad_case> cases = {
		{ "empty", [] { return Bytes(); }, EQDS_DE_SHORT },
		{ "7 bytes", [] { return sized(data_pkt(), 7); }, EQDS_DE_SHORT },
		{ "version 0", [] { return with(data_pkt(), 0, 0x01); },
		  EQDS_DE_VERSION },
		{ "version 2", [] { return with(ctrl_pkt(), 0, 0x22); },
		  EQDS_DE_VERSION },
		{ "version 15", [] { return with(data_pkt(), 0, 0xf1); },
		  EQDS_DE_VERSION },
		{ "type 0", [] { return with(data_pkt(), 0, 0x10); },
		  EQDS_DE_TYPE },
		{ "type 3", [] { return with(ctrl_pkt(), 0, 0x13); },
		  EQDS_DE_TYPE },
		{ "type 15", [] { return with(ctrl_pkt(), 0, 0x1f); },
		  EQDS_DE_TYPE },
		{ "data 15 bytes", [] { return sized(data_pkt(), 15); },
		  EQDS_DE_DATA_SHORT },
		{ "data TCPSEQ 16 bytes",
		  [] { return sized(with(data_pkt(), 1, EQDS_F_TCPSEQ), 16); },
		  EQDS_DE_DATA_SHORT },
		{ "data TCPSEQ mss 0",
		  [] {
			  Bytes b = sized(with(data_pkt(), 1, EQDS_F_TCPSEQ), 24);

			  b.resize(24 + EQDS_IPV4_MIN_LEN, 0x45);
			  return with(with(b, 20, 0), 21, 0);
		  },
		  EQDS_DE_DATA_EXT },
		{ "data RTX without payload",
		  [] { return empty_data(EQDS_F_RTS | EQDS_F_RTX); },
		  EQDS_DE_DATA_FLAG_COMBO },
		// The flag's rule comes before the empty packet's, as listed.
		{ "data RTX alone without payload",
		  [] { return empty_data(EQDS_F_RTX); },
		  EQDS_DE_DATA_FLAG_COMBO },
		{ "data TCPSEQ alone without payload",
		  [] {
			  Bytes b = sized(empty_data(EQDS_F_TCPSEQ), 24);

			  b[21] = 1;
			  return b;
		  },
		  EQDS_DE_DATA_FLAG_COMBO },
		{ "data PULL", [] { return with(data_pkt(), 1, EQDS_F_PULL); },
		  EQDS_DE_DATA_FLAGS },
		{ "data RST", [] { return with(data_pkt(), 1, EQDS_F_RST); },
		  EQDS_DE_DATA_FLAGS },
		{ "data SACK", [] { return with(data_pkt(), 1, EQDS_F_SACK); },
		  EQDS_DE_DATA_FLAGS },
		{ "data all flags", [] { return with(data_pkt(), 1, 0xff); },
		  EQDS_DE_DATA_FLAGS },
		{ "data RTS+FIN",
		  [] { return empty_data(EQDS_F_RTS | EQDS_F_FIN); },
		  EQDS_DE_DATA_FLAG_COMBO },
		{ "data np 5", [] { return with(data_pkt(), 3, 5); },
		  EQDS_DE_DATA_PROTO },
		{ "data np 17", [] { return with(data_pkt(), 3, 17); },
		  EQDS_DE_DATA_PROTO },
		{ "data np 255", [] { return with(data_pkt(), 3, 255); },
		  EQDS_DE_DATA_PROTO },
		{ "data empty no RTS", [] { return empty_data(0); },
		  EQDS_DE_DATA_EMPTY },
		{ "data empty SYN only", [] { return empty_data(EQDS_F_SYN); },
		  EQDS_DE_DATA_EMPTY },
		{ "data RTS with bytes",
		  [] { return sized(empty_data(EQDS_F_RTS), 17); },
		  EQDS_DE_DATA_STRAY },
		{ "data FIN with bytes",
		  [] { return sized(empty_data(EQDS_F_FIN), 100); },
		  EQDS_DE_DATA_STRAY },
		{ "ipv4 19 bytes",
		  [] { return sized(data_pkt(), EQDS_DATA_HLEN + 19); },
		  EQDS_DE_DATA_PAYLOAD },
		{ "ipv4 no payload",
		  [] { return sized(data_pkt(), EQDS_DATA_HLEN); },
		  EQDS_DE_DATA_PAYLOAD },
		{ "ipv6 39 bytes",
		  [] {
			  return sized(with(data_pkt(), 3, EQDS_NP_IPV6),
				       EQDS_DATA_HLEN + 39);
		  },
		  EQDS_DE_DATA_PAYLOAD },
		{ "segs 0", [] { return with(data_pkt(), 15, 0); },
		  EQDS_DE_DATA_SEGS },
		{ "segs 65",
		  [] { return with(data_pkt(), 15, EQDS_MAX_SEGS + 1); },
		  EQDS_DE_DATA_SEGS },
		{ "segs 0xffff",
		  [] { return with(with(data_pkt(), 14, 0xff), 15, 0xff); },
		  EQDS_DE_DATA_SEGS },
		{ "segs 259", [] { return with(data_pkt(), 14, 1); },
		  EQDS_DE_DATA_SEGS },
		{ "RTS probe segs 1",
		  [] { return with(empty_data(EQDS_F_RTS), 15, 1); },
		  EQDS_DE_DATA_SEGS },
		{ "ctrl 27 bytes", [] { return sized(ctrl_pkt(), 27); },
		  EQDS_DE_CTRL_SHORT },
		{ "ctrl 8 bytes", [] { return sized(ctrl_pkt(), 8); },
		  EQDS_DE_CTRL_SHORT },
		{ "ctrl 29 bytes", [] { return sized(ctrl_pkt(), 29); },
		  EQDS_DE_CTRL_LONG },
		{ "ctrl 1500 bytes", [] { return sized(ctrl_pkt(), 1500); },
		  EQDS_DE_CTRL_LONG },
		{ "ctrl np 4", [] { return with(ctrl_pkt(), 3, EQDS_NP_IPV4); },
		  EQDS_DE_CTRL_PROTO },
		{ "ctrl no flags", [] { return bare_ctrl(0); },
		  EQDS_DE_CTRL_NO_FLAGS },
		{ "ctrl RST+ACK", [] { return bare_ctrl(EQDS_F_RST | EQDS_F_ACK); },
		  EQDS_DE_CTRL_RST_COMBO },
		{ "ctrl RST+PULL", [] { return with(ctrl_pkt(), 1,
						     EQDS_F_RST | EQDS_F_PULL); },
		  EQDS_DE_CTRL_RST_COMBO },
		{ "ctrl RST+FIN", [] { return bare_ctrl(EQDS_F_RST | EQDS_F_FIN); },
		  EQDS_DE_CTRL_RST_COMBO },
		{ "ctrl RTS+PULL", [] { return with(ctrl_pkt(), 1,
						     EQDS_F_RTS | EQDS_F_PULL); },
		  EQDS_DE_CTRL_RTS_COMBO },
		{ "ctrl RTS+FIN", [] { return bare_ctrl(EQDS_F_RTS | EQDS_F_FIN); },
		  EQDS_DE_CTRL_RTS_COMBO },
		{ "ctrl SYN w/o ACK", [] { return bare_ctrl(EQDS_F_SYN); },
		  EQDS_DE_CTRL_NEED_ACK },
		{ "ctrl SACK w/o ACK",
		  [] { return with(ctrl_pkt(), 1, EQDS_F_SACK | EQDS_F_PULL); },
		  EQDS_DE_CTRL_NEED_ACK },
		{ "ctrl FIN+PULL",
		  [] { return with(ctrl_pkt(), 1, EQDS_F_FIN | EQDS_F_PULL |
					   EQDS_F_ACK | EQDS_F_SACK); },
		  EQDS_DE_CTRL_FIN_COMBO },
		{ "ctrl FIN+SYN+ACK",
		  [] { return bare_ctrl(EQDS_F_FIN | EQDS_F_SYN | EQDS_F_ACK); },
		  EQDS_DE_CTRL_FIN_COMBO },
		{ "ctrl PULL quantum 0",
		  [] { return with(with(ctrl_pkt(), 18, 0), 19, 0); },
		  EQDS_DE_CTRL_QUANTUM },
		{ "ctrl ack w/o ACK",
		  [] { return with(ctrl_pkt(), 1, EQDS_F_PULL); },
		  EQDS_DE_CTRL_RESERVED },
		{ "ctrl pull_no w/o PULL",
		  [] { return with(bare_ctrl(EQDS_F_ACK), 15, 1); },
		  EQDS_DE_CTRL_RESERVED },
		{ "ctrl quantum w/o PULL",
		  [] { return with(bare_ctrl(EQDS_F_ACK), 19, 1); },
		  EQDS_DE_CTRL_RESERVED },
		{ "ctrl sack w/o SACK",
		  [] { return with(bare_ctrl(EQDS_F_ACK), 27, 1); },
		  EQDS_DE_CTRL_RESERVED },
		{ "ctrl RST with ack",
		  [] { return with(bare_ctrl(EQDS_F_RST), 8, 1); },
		  EQDS_DE_CTRL_RESERVED },
	};
	return cases;
}

TEST(Wire, EveryRejectReason)
{
	std::set<int> seen;

	for (const bad_case &c : bad_cases()) {
		Bytes b = c.make();

		EXPECT_EQ(decode(b), -c.want) << c.what << ": got "
			<< eqds_decode_err_name(decode(b));
		seen.insert(c.want);
	}
	for (int r = EQDS_DE_OK + 1; r < EQDS_DE_COUNT; r++)
		EXPECT_TRUE(seen.count(r)) << "no test reaches "
					   << eqds_decode_err_name(r);
}

TEST(Wire, AcceptedOddities)
{
	struct eqds_pkt p;
	Bytes b;

	// RTS probe (in RTS mode, with SYN on first contact) and teardown.
	EXPECT_EQ(decode(empty_data(EQDS_F_RTS)), EQDS_DATA_HLEN);
	EXPECT_EQ(decode(empty_data(EQDS_F_RTS | EQDS_F_SYN)), EQDS_DATA_HLEN);
	EXPECT_EQ(decode(empty_data(EQDS_F_FIN)), EQDS_DATA_HLEN);
	// Last data before teardown, and data without any flag.
	EXPECT_EQ(decode(with(data_pkt(), 1, EQDS_F_FIN)), EQDS_DATA_HLEN);
	EXPECT_EQ(decode(with(data_pkt(), 1, 0)), EQDS_DATA_HLEN);
	// IPv6 with exactly a fixed header; maximal segment count.
	b = sized(with(data_pkt(), 3, EQDS_NP_IPV6), EQDS_DATA_HLEN + 40);
	EXPECT_EQ(decode(b, &p), EQDS_DATA_HLEN);
	EXPECT_EQ(p.payload_len, 40u);
	EXPECT_EQ(decode(with(data_pkt(), 15, EQDS_MAX_SEGS)), EQDS_DATA_HLEN);
	// A 64 KB superpacket.
	EXPECT_EQ(decode(sized(data_pkt(), 65536), &p), EQDS_DATA_HLEN);
	EXPECT_EQ(p.payload_len, 65536u - EQDS_DATA_HLEN);
	// Bare control packets of each kind, busy time on any of them.
	EXPECT_EQ(decode(bare_ctrl(EQDS_F_RST)), EQDS_CTRL_HLEN);
	EXPECT_EQ(decode(bare_ctrl(EQDS_F_RTS)), EQDS_CTRL_HLEN);
	EXPECT_EQ(decode(bare_ctrl(EQDS_F_FIN)), EQDS_CTRL_HLEN);
	EXPECT_EQ(decode(bare_ctrl(EQDS_F_SYN | EQDS_F_ACK)), EQDS_CTRL_HLEN);
	EXPECT_EQ(decode(bare_ctrl(EQDS_F_FIN | EQDS_F_ACK)), EQDS_CTRL_HLEN);
	EXPECT_EQ(decode(with(bare_ctrl(EQDS_F_RST), 16, 0xff)),
		  EQDS_CTRL_HLEN);
	// Pull number 0 is a real number after a wrap.
	b = with(bare_ctrl(EQDS_F_PULL), 19, 1);
	ASSERT_EQ(decode(b, &p), EQDS_CTRL_HLEN);
	EXPECT_EQ(p.ctrl.pull_no, 0u);
	EXPECT_EQ(p.ctrl.quantum, 1);
	// NACK names the ack field's seq; SACK may accompany it.
	EXPECT_EQ(decode(with(ctrl_pkt(), 1, EQDS_F_ACK | EQDS_F_NACK |
				EQDS_F_SACK | EQDS_F_PULL)), EQDS_CTRL_HLEN);
	// Without ACK too: a hole beyond the first, acknowledging nothing.
	b = with(ctrl_pkt(), 1, EQDS_F_NACK | EQDS_F_SACK | EQDS_F_PULL);
	ASSERT_EQ(decode(b, &p), EQDS_CTRL_HLEN);
	EXPECT_EQ(p.flags, EQDS_F_NACK | EQDS_F_SACK | EQDS_F_PULL);
	EXPECT_NE(p.ctrl.ack, 0u);
	EXPECT_NE(p.ctrl.sack, 0u);
}

// Every flags byte on a data packet: exactly the documented sets pass, and
// each accepted header re-encodes to the same bytes.
TEST(Wire, ExhaustiveDataFlags)
{
	std::set<int> ok_payload, ok_empty;

	for (int f = 0; f < 256; f++) {
		Bytes full = with(data_pkt(), 1, (u8)f);
		Bytes empty = empty_data((u8)f);
		struct eqds_pkt p;
		u8 out[EQDS_DATA_HLEN];

		if (decode(full, &p) > 0) {
			ok_payload.insert(f);
			ASSERT_EQ(eqds_encode(out, sizeof(out), &p), EQDS_DATA_HLEN);
			ASSERT_EQ(0, memcmp(out, full.data(), sizeof(out)));
		}
		if (decode(empty, &p) > 0) {
			ok_empty.insert(f);
			ASSERT_EQ(eqds_encode(out, sizeof(out), &p), EQDS_DATA_HLEN);
			ASSERT_EQ(0, memcmp(out, empty.data(), sizeof(out)));
		}
	}
	const int S = EQDS_F_SYN, R = EQDS_F_RTS, F = EQDS_F_FIN, X = EQDS_F_RTX;
	std::set<int> want = { 0, S, R, F, S | R, S | F };

	for (int f : std::set<int>(want))
		want.insert(f | X);
	EXPECT_EQ(ok_payload, want);
	EXPECT_EQ(ok_empty, (std::set<int>{ R, F, S | R, S | F }));
}

// Every flags byte on a control packet, with all fields zero and with all
// fields set.
TEST(Wire, ExhaustiveCtrlFlags)
{
	const int S = EQDS_F_SYN, A = EQDS_F_ACK, N = EQDS_F_NACK,
		  P = EQDS_F_PULL, F = EQDS_F_FIN, K = EQDS_F_SACK;
	std::set<int> ok_bare, ok_full, want_bare;

	for (int f = 0; f < 256; f++) {
		struct eqds_pkt p;
		u8 out[EQDS_CTRL_HLEN];
		Bytes bare = bare_ctrl((u8)f);
		Bytes full = with(ctrl_pkt(), 1, (u8)f);

		if (decode(bare, &p) > 0) {
			ok_bare.insert(f);
			ASSERT_EQ(eqds_encode(out, sizeof(out), &p), EQDS_CTRL_HLEN);
			ASSERT_EQ(0, memcmp(out, bare.data(), sizeof(out)));
		}
		if (decode(full, &p) > 0) {
			ok_full.insert(f);
			ASSERT_EQ(eqds_encode(out, sizeof(out), &p), EQDS_CTRL_HLEN);
			ASSERT_EQ(0, memcmp(out, full.data(), sizeof(out)));
		}
	}
	// Bare: no PULL (quantum 0); SYN needs ACK, SACK needs ACK or NACK;
	// not FIN+SYN.
	want_bare = { F, EQDS_F_RST, EQDS_F_RTS, N, N | K, N | F, N | K | F };
	for (int extra = 0; extra < 16; extra++) {
		int f = A | (extra & 1 ? S : 0) | (extra & 2 ? N : 0) |
			(extra & 4 ? K : 0) | (extra & 8 ? F : 0);

		if (!((f & S) && (f & F)))
			want_bare.insert(f);
	}
	EXPECT_EQ(ok_bare, want_bare);
	// Full: ACK (or NACK), PULL and SACK must be set to explain the fields.
	EXPECT_EQ(ok_full, (std::set<int>{ A | P | K, A | P | K | S,
					   A | P | K | N, A | P | K | S | N,
					   N | P | K }));
}

TEST(Wire, RandomRoundTrip)
{
	std::mt19937_64 rng(12345);
	int accepted = 0;

	for (int i = 0; i < 200000; i++) {
		struct eqds_pkt p, q;
		u8 out[EQDS_MAX_HLEN];
		u64 r = rng();
		int w;

		memset(&p, 0, sizeof(p));
		p.type = r & 1 ? EQDS_TYPE_DATA : EQDS_TYPE_CTRL;
		p.flags = (u8)(rng() & rng());	// biased to few flags
		p.path_id = (u8)rng();
		p.epoch = (u32)rng();
		if (p.type == EQDS_TYPE_DATA) {
			static const u8 np[] = { EQDS_NP_NONE, EQDS_NP_IPV4,
						 EQDS_NP_IPV6 };
			p.next_proto = np[(r >> 8) % 3];
			p.payload_len = p.next_proto ? 40 + (u32)(rng() % 9000) : 0;
			p.data.seq = (u32)rng();
			p.data.pull_target = (u16)rng();
			p.data.seg_count = p.next_proto ?
				(u16)(1 + rng() % EQDS_MAX_SEGS) : 0;
		} else {
			p.ctrl.ack = p.flags & EQDS_F_ACK ? (u32)rng() : 0;
			if (p.flags & EQDS_F_PULL) {
				p.ctrl.pull_no = (u32)rng();
				p.ctrl.quantum = (u16)(1 + rng() % 0xffff);
			}
			p.ctrl.busy_us = (u16)rng();
			p.ctrl.sack = p.flags & EQDS_F_SACK ? rng() : 0;
		}
		w = eqds_encode(out, sizeof(out), &p);
		if (w < 0) {
			ASSERT_EQ(w, eqds_pkt_check(&p));
			continue;
		}
		accepted++;
		Bytes b(out, out + w);

		b.resize(w + p.payload_len, 0);
		ASSERT_EQ(decode(b, &q), w);
		ASSERT_TRUE(same(p, q)) << "iteration " << i;
		ASSERT_EQ(q.hlen, w);
	}
	// The generator must produce a healthy mix of valid packets.
	EXPECT_GT(accepted, 20000);
}

TEST(Wire, EncoderRefusals)
{
	struct eqds_pkt d, c;
	u8 out[EQDS_MAX_HLEN + 4];

	ASSERT_EQ(decode(data_pkt(), &d), EQDS_DATA_HLEN);
	ASSERT_EQ(decode(ctrl_pkt(), &c), EQDS_CTRL_HLEN);

	auto untouched = [&out] {
		for (u8 v : out)
			if (v != 0x5a)
				return false;
		return true;
	};

	memset(out, 0x5a, sizeof(out));
	EXPECT_EQ(eqds_encode_data(out, sizeof(out), &c), -EQDS_DE_TYPE);
	EXPECT_EQ(eqds_encode_ctrl(out, sizeof(out), &d), -EQDS_DE_TYPE);
	EXPECT_EQ(eqds_encode_data(out, EQDS_DATA_HLEN - 1, &d),
		  -EQDS_DE_DATA_SHORT);
	EXPECT_EQ(eqds_encode_ctrl(out, EQDS_CTRL_HLEN - 1, &c),
		  -EQDS_DE_CTRL_SHORT);
	EXPECT_EQ(eqds_encode(out, 0, &c), -EQDS_DE_CTRL_SHORT);
	d.data.seg_count = 0;
	EXPECT_EQ(eqds_encode_data(out, sizeof(out), &d), -EQDS_DE_DATA_SEGS);
	d.data.seg_count = 1;
	d.payload_len = 3;	// the caller's payload is too short for IPv4
	EXPECT_EQ(eqds_encode(out, sizeof(out), &d), -EQDS_DE_DATA_PAYLOAD);
	c.ctrl.quantum = 0;
	EXPECT_EQ(eqds_encode(out, sizeof(out), &c), -EQDS_DE_CTRL_QUANTUM);
	c.type = 7;
	EXPECT_EQ(eqds_encode(out, sizeof(out), &c), -EQDS_DE_TYPE);
	EXPECT_EQ(eqds_pkt_check(&c), -EQDS_DE_TYPE);
	EXPECT_TRUE(untouched());

	// Exactly enough room is enough, and nothing past the header changes.
	d.payload_len = 20;
	EXPECT_EQ(eqds_encode(out, EQDS_DATA_HLEN, &d), EQDS_DATA_HLEN);
	for (size_t i = EQDS_DATA_HLEN; i < sizeof(out); i++)
		EXPECT_EQ(out[i], 0x5a);
}

TEST(Wire, ErrorNames)
{
	std::set<std::string> names;

	EXPECT_STREQ(eqds_decode_err_name(0), "ok");
	EXPECT_STREQ(eqds_decode_err_name(-EQDS_DE_CTRL_SHORT), "ctrl_short");
	EXPECT_STREQ(eqds_decode_err_name(EQDS_DE_CTRL_SHORT), "ctrl_short");
	EXPECT_STREQ(eqds_decode_err_name(EQDS_DE_CTRL_RESERVED),
		     "ctrl_reserved");
	EXPECT_STREQ(eqds_decode_err_name(EQDS_DE_DATA_SEGS), "data_segs");
	for (int r = 0; r < EQDS_DE_COUNT; r++) {
		const char *n = eqds_decode_err_name(r);

		ASSERT_NE(n, nullptr);
		EXPECT_STRNE(n, "unknown") << r;
		EXPECT_STREQ(n, eqds_decode_err_name(-r));
		// Usable as a counter name: lower case, digits, underscores.
		for (const char *c = n; *c; c++)
			EXPECT_TRUE((*c >= 'a' && *c <= 'z') || *c == '_') << n;
		names.insert(n);
	}
	EXPECT_EQ(names.size(), (size_t)EQDS_DE_COUNT);
	EXPECT_STREQ(eqds_decode_err_name(EQDS_DE_COUNT), "unknown");
	EXPECT_STREQ(eqds_decode_err_name(-EQDS_DE_COUNT), "unknown");
	EXPECT_STREQ(eqds_decode_err_name(INT_MAX), "unknown");
	EXPECT_STREQ(eqds_decode_err_name(INT_MIN), "unknown");
}

TEST(Wire, QuantumAndSackHelpers)
{
	EXPECT_EQ(eqds_quantum_bytes(1), 64u);
	EXPECT_EQ(eqds_quantum_bytes(0xffff), 0xffffu * 64);

	const u64 sack = 1ull | 1ull << 5 | 1ull << 63;

	EXPECT_FALSE(eqds_sack_has(sack, 100, 100));	// ack itself
	EXPECT_TRUE(eqds_sack_has(sack, 100, 101));	// bit 0
	EXPECT_FALSE(eqds_sack_has(sack, 100, 102));
	EXPECT_TRUE(eqds_sack_has(sack, 100, 106));	// bit 5
	EXPECT_TRUE(eqds_sack_has(sack, 100, 164));	// bit 63
	EXPECT_FALSE(eqds_sack_has(sack, 100, 165));	// past the map
	EXPECT_FALSE(eqds_sack_has(sack, 100, 99));	// before ack
	// Relative to an ack just below the wrap.
	EXPECT_TRUE(eqds_sack_has(sack, 0xfffffffeu, 0xffffffffu));
	EXPECT_TRUE(eqds_sack_has(sack, 0xfffffffeu, 4u));
	EXPECT_FALSE(eqds_sack_has(sack, 0xfffffffeu, 5u));
	EXPECT_TRUE(eqds_sack_has(~0ull, 0xffffffc0u, 0));
}

// Control options (next_proto of a control packet): SEG_NUMBERS and CE.
TEST(Wire, CtrlOptions)
{
	struct eqds_pkt p;
	u8 out[EQDS_CTRL_HLEN];

	for (int np = 0; np < 256; np++) {
		Bytes b = with(ctrl_pkt(), 3, (u8)np);
		int r = decode(b, &p);

		if (np & ~EQDS_CO_ALL) {
			EXPECT_EQ(r, -EQDS_DE_CTRL_PROTO) << np;
			continue;
		}
		ASSERT_EQ(r, EQDS_CTRL_HLEN) << np;
		EXPECT_EQ(p.next_proto, np);
		ASSERT_EQ(eqds_encode(out, sizeof(out), &p), EQDS_CTRL_HLEN);
		EXPECT_EQ(0, memcmp(out, b.data(), sizeof(out)));
	}
}

// A data packet with seq and seg_count, for eqds_number().
static struct eqds_pkt numbered_pkt(u32 seq, u16 segs)
{
	struct eqds_pkt p;

	memset(&p, 0, sizeof(p));
	p.type = EQDS_TYPE_DATA;
	p.next_proto = segs ? EQDS_NP_IPV4 : EQDS_NP_NONE;
	p.data.seq = seq;
	p.data.seg_count = segs;
	return p;
}

// eqds_number() of npieces that carry no TCP seq, the ID as given.
static enum eqds_number_verdict by_id(const struct eqds_pkt *p, u32 npieces,
				      bool has_id, u16 id, bool untrusted, u32 *first)
{
	struct eqds_arrival a = {};

	a.npieces = npieces;
	a.has_id = has_id;
	a.id = id;
	a.untrusted = untrusted;
	return eqds_number(p, &a, first);
}

// eqds_number() of npieces that start at TCP seq tcp_seq, without an ID.
static enum eqds_number_verdict by_tcp(const struct eqds_pkt *p, u32 npieces,
				       u32 tcp_seq, u32 *first)
{
	struct eqds_arrival a = {};

	a.npieces = npieces;
	a.has_tcp_seq = true;
	a.tcp_seq = tcp_seq;
	return eqds_number(p, &a, first);
}

// Pieces numbered by an ID as sent: each gets its own number, across the
// 16-bit wrap of the ID and the 32-bit wrap of seq.
TEST(Number, PiecesAsSent)
{
	for (u32 seq : { 0u, 1000u, 0xfff0u, 0x1fffeu, 0xffffffe0u }) {
		const u16 segs = 44;
		struct eqds_pkt p = numbered_pkt(seq, segs);
		u32 first;

		for (u16 k = 0; k < segs; k++) {
			u16 id = (u16)(eqds_outer_id(seq) + k);

			ASSERT_EQ(by_id(&p, 1, true, id, false, &first),
				  EQDS_NUM_OK) << seq << " " << k;
			EXPECT_EQ(first, seq + k);
		}
		// Pieces k..k+2 merged by GRO.
		ASSERT_EQ(by_id(&p, 3, true, (u16)(seq + 41), false, &first),
			  EQDS_NUM_OK);
		EXPECT_EQ(first, seq + 41);
		// One past the packet's numbers.
		EXPECT_EQ(by_id(&p, 3, true, (u16)(seq + 42), false, &first),
			  EQDS_NUM_OUT_OF_RANGE);
		// Whole, as sent.
		ASSERT_EQ(by_id(&p, segs, true, (u16)seq, false, &first),
			  EQDS_NUM_OK);
		EXPECT_EQ(first, seq);
	}
}

// A router that rewrites every ID to one value, or to random values: no
// piece is numbered other than as sent once a rewrite was seen, and a whole
// packet keeps its number and shows the rewrite.
TEST(Number, RewrittenIds)
{
	std::mt19937 rng(6864);
	int shown = 0;

	for (int mode = 0; mode < 3; mode++) {
		for (int i = 0; i < 20000; i++) {
			u32 seq = (u32)rng();
			u16 segs = (u16)(1 + rng() % EQDS_MAX_SEGS);
			struct eqds_pkt p = numbered_pkt(seq, segs);
			u16 k = (u16)(rng() % segs);
			u16 sent = (u16)(eqds_outer_id(seq) + k);
			u16 id = mode == 0 ? 0 : mode == 1 ? 0x1234 : (u16)rng();
			enum eqds_number_verdict v;
			u32 first = 0;

			// A whole packet: its header numbers it.
			v = by_id(&p, segs, true, id, false, &first);
			EXPECT_EQ(first, seq);
			EXPECT_EQ(v, id == eqds_outer_id(seq) ? EQDS_NUM_OK : EQDS_NUM_REWRITTEN);
			shown += v == EQDS_NUM_REWRITTEN;
			if (segs == 1)
				continue;
			// A piece after a rewrite was seen: never numbered.
			EXPECT_EQ(by_id(&p, 1, true, id, true, &first),
				  EQDS_NUM_UNTRUSTED);
			// Before: numbered only if the ID lands in the packet's range,
			// and if it is not the piece's own, the piece is misnumbered:
			// the case the whole packets' check makes rare (wire.h).
			v = by_id(&p, 1, true, id, false, &first);
			if (id == sent) {
				EXPECT_EQ(v, EQDS_NUM_OK);
				EXPECT_EQ(first, seq + k);
			} else if ((u16)(id - eqds_outer_id(seq)) >= segs) {
				EXPECT_EQ(v, EQDS_NUM_OUT_OF_RANGE);
				EXPECT_TRUE(eqds_outer_id_rewritten(v));
			}
		}
	}
	EXPECT_GT(shown, 59000);
}

// IPv6 (no ID) and probes, and more pieces than numbers.
TEST(Number, NoIdProbesAndTooMany)
{
	struct eqds_pkt p = numbered_pkt(77, 3);
	struct eqds_pkt probe = numbered_pkt(500, 0);
	u32 first;

	// A piece nothing numbers: refused, not taken for the first.
	EXPECT_EQ(by_id(&p, 1, false, 999, true, &first), EQDS_NUM_UNNUMBERED);
	EXPECT_EQ(by_id(&p, 1, false, 0, false, &first), EQDS_NUM_UNNUMBERED);
	EXPECT_FALSE(eqds_outer_id_rewritten(EQDS_NUM_UNNUMBERED));
	EXPECT_EQ(by_id(&p, 3, false, 0, false, &first), EQDS_NUM_OK);
	EXPECT_EQ(first, 77u);
	EXPECT_EQ(by_id(&p, 4, false, 0, false, &first), EQDS_NUM_TOO_MANY);
	EXPECT_EQ(by_id(&p, 4, true, 77, false, &first), EQDS_NUM_TOO_MANY);
	EXPECT_EQ(by_id(&probe, 0, true, 500, false, &first), EQDS_NUM_OK);
	EXPECT_EQ(first, 500u);
	EXPECT_EQ(by_id(&probe, 0, true, 0, true, &first), EQDS_NUM_REWRITTEN);
	EXPECT_EQ(first, 500u);
	EXPECT_FALSE(eqds_outer_id_rewritten(EQDS_NUM_UNTRUSTED));
	EXPECT_FALSE(eqds_outer_id_rewritten(EQDS_NUM_TOO_MANY));
	EXPECT_FALSE(eqds_outer_id_rewritten(EQDS_NUM_OK));
}

// The fuzz seeds are built by fuzz/gen_corpus.py straight from the uapi
// layout, independently of wire.c: each must decode, and re-encode to the
// same bytes.
TEST(Wire, SeedCorpusMatchesTheEncoder)
{
	static const char *const seeds[] = {
		"ctrl_ack_pull", "ctrl_fin_ack", "ctrl_rst", "ctrl_rts",
		"ctrl_sack_nack", "ctrl_synack", "data_fin", "data_ipv4",
		"data_ipv4_syn_gso", "data_ipv6_fin", "data_rts_probe",
	};

	for (const char *name : seeds) {
		std::string path = std::string(EQDS_DECODE_CORPUS) + "/" + name;
		FILE *f = fopen(path.c_str(), "rb");
		Bytes b;
		struct eqds_pkt p;
		u8 out[EQDS_MAX_HLEN];
		int c, r;

		ASSERT_NE(f, nullptr) << path;
		while ((c = fgetc(f)) != EOF)
			b.push_back((u8)c);
		fclose(f);
		r = decode(b, &p);
		ASSERT_GT(r, 0) << name << ": " << eqds_decode_err_name(r);
		ASSERT_EQ(eqds_encode(out, sizeof(out), &p), r) << name;
		EXPECT_EQ(0, memcmp(out, b.data(), (size_t)r)) << name;
	}
}

// A TCP packet of segs pieces of mss bytes from TCP seq tcp0, with TCPSEQ.
static struct eqds_pkt tcp_numbered_pkt(u32 seq, u16 segs, u32 tcp0, u16 mss)
{
	struct eqds_pkt p = numbered_pkt(seq, segs);

	p.next_proto = EQDS_NP_IPV6;
	p.flags = EQDS_F_TCPSEQ;
	p.data.tcp_seq = tcp0;
	p.data.tcp_mss = mss;
	return p;
}

// Pieces numbered by their TCP seq: each its own number, across both
// wraps; runs merged by GRO; and nothing numbered that is not one of the
// packet's pieces.
TEST(Number, PiecesByTcpSeq)
{
	for (u32 tcp0 : { 0u, 12345u, 0xffffff00u }) {
		for (u32 seq : { 0u, 0xfff0u, 0xffffffe0u }) {
			const u16 segs = 44, mss = 1428;
			struct eqds_pkt p = tcp_numbered_pkt(seq, segs, tcp0, mss);
			u32 first;

			for (u32 k = 0; k < segs; k++) {
				ASSERT_EQ(by_tcp(&p, 1, tcp0 + k * mss, &first), EQDS_NUM_OK);
				EXPECT_EQ(first, seq + k);
			}
			ASSERT_EQ(by_tcp(&p, 3, tcp0 + 41 * mss, &first), EQDS_NUM_OK);
			EXPECT_EQ(first, seq + 41);
			// Past the end, before the start, between two pieces.
			EXPECT_EQ(by_tcp(&p, 3, tcp0 + 42 * mss, &first), EQDS_NUM_UNNUMBERED);
			EXPECT_EQ(by_tcp(&p, 1, tcp0 + 44 * mss, &first), EQDS_NUM_UNNUMBERED);
			EXPECT_EQ(by_tcp(&p, 1, tcp0 - mss, &first), EQDS_NUM_UNNUMBERED);
			EXPECT_EQ(by_tcp(&p, 1, tcp0 + 7, &first), EQDS_NUM_UNNUMBERED);
			// Whole: its header numbers it, whatever its TCP seq.
			ASSERT_EQ(by_tcp(&p, segs, 999, &first), EQDS_NUM_OK);
			EXPECT_EQ(first, seq);
		}
	}
}

// A TCPSEQ piece is numbered by its TCP seq even over IPv4, and not at all
// without one (the inner packet was not TCP after all).
TEST(Number, TcpSeqBeforeIdAndNeeded)
{
	struct eqds_pkt p = tcp_numbered_pkt(100, 4, 5000, 1000);
	struct eqds_arrival a = {};
	u32 first;

	a.npieces = 1;
	a.has_id = true;
	a.id = eqds_outer_id(100);
	a.has_tcp_seq = true;
	a.tcp_seq = 7000;
	ASSERT_EQ(eqds_number(&p, &a, &first), EQDS_NUM_OK);
	EXPECT_EQ(first, 102u);
	a.has_tcp_seq = false;
	EXPECT_EQ(eqds_number(&p, &a, &first), EQDS_NUM_UNNUMBERED);
}

// A data packet whose header goes on with the TCPSEQ extension: IPv6, 2
// segments of 1428 bytes from TCP seq 0x01020304.
static Bytes ext_pkt()
{
	Bytes b = data_pkt();

	b[1] = EQDS_F_TCPSEQ;
	b[3] = EQDS_NP_IPV6;
	b[15] = 2;
	b.resize(EQDS_DATA_HLEN);
	for (u8 v : { 0x01, 0x02, 0x03, 0x04, 0x05, 0x94, 0x00, 0x00 })
		b.push_back(v);
	b.resize(EQDS_DATA_EXT_HLEN + EQDS_IPV6_MIN_LEN, 0x60);
	return b;
}

TEST(Wire, ExtendedDataHeader)
{
	Bytes b = ext_pkt();
	struct eqds_pkt p;
	u8 out[EQDS_DATA_EXT_HLEN];

	ASSERT_EQ(decode(b, &p), EQDS_DATA_EXT_HLEN);
	EXPECT_EQ(p.hlen, EQDS_DATA_EXT_HLEN);
	EXPECT_EQ(p.data.tcp_seq, 0x01020304u);
	EXPECT_EQ(p.data.tcp_mss, 1428);
	EXPECT_EQ(p.payload_len, (u32)EQDS_IPV6_MIN_LEN);
	ASSERT_EQ(eqds_encode(out, sizeof(out), &p), EQDS_DATA_EXT_HLEN);
	EXPECT_EQ(0, memcmp(out, b.data(), sizeof(out)));
	EXPECT_EQ(eqds_encode(out, sizeof(out) - 1, &p), -EQDS_DE_DATA_SHORT);
	// The extension's fields without its flag are not a valid header, on
	// a probe either (found by fuzz_decode).
	p.flags = 0;
	EXPECT_EQ(eqds_encode(out, sizeof(out), &p), -EQDS_DE_DATA_EXT);
	p.flags = EQDS_F_RTS;
	p.next_proto = EQDS_NP_NONE;
	p.payload_len = 0;
	p.data.seg_count = 0;
	EXPECT_EQ(eqds_encode(out, sizeof(out), &p), -EQDS_DE_DATA_EXT);
	p.data.tcp_seq = 0;
	p.data.tcp_mss = 0;
	EXPECT_EQ(eqds_encode(out, sizeof(out), &p), EQDS_DATA_HLEN);
	// What the sender builds: the same header.
	ASSERT_EQ(decode(b, &p), EQDS_DATA_EXT_HLEN);
	p.flags = 0;
	p.hlen = EQDS_DATA_HLEN;
	p.data.tcp_seq = 0;
	p.data.tcp_mss = 0;
	eqds_pkt_number_by_tcp(&p, 0x01020304u, 1428);
	EXPECT_EQ(p.hlen, EQDS_DATA_EXT_HLEN);
	ASSERT_EQ(eqds_encode(out, sizeof(out), &p), EQDS_DATA_EXT_HLEN);
	EXPECT_EQ(0, memcmp(out, b.data(), sizeof(out)));
	EXPECT_EQ(eqds_data_hlen(EQDS_F_SYN | EQDS_F_RTX), EQDS_DATA_HLEN);
	EXPECT_EQ(eqds_data_hlen(EQDS_F_TCPSEQ | EQDS_F_SYN), EQDS_DATA_EXT_HLEN);
}

TEST(Wire, ExtendedHeaderRejects)
{
	struct eqds_pkt p;
	Bytes b;

	for (size_t len = EQDS_DATA_HLEN; len < (size_t)EQDS_DATA_EXT_HLEN; len++)
		EXPECT_EQ(decode(ext_pkt(), len, &p), -EQDS_DE_DATA_SHORT) << len;
	EXPECT_EQ(decode(with(ext_pkt(), 20, 0), &p), EQDS_DATA_EXT_HLEN);
	EXPECT_EQ(decode(with(with(ext_pkt(), 20, 0), 21, 0), &p), -EQDS_DE_DATA_EXT);
	EXPECT_EQ(decode(with(ext_pkt(), 23, 1), &p), -EQDS_DE_DATA_EXT);
	EXPECT_EQ(decode(with(ext_pkt(), 22, 0x80), &p), -EQDS_DE_DATA_EXT);
	b = sized(empty_data(EQDS_F_RTS | EQDS_F_TCPSEQ), EQDS_DATA_EXT_HLEN);
	b[21] = 1;
	EXPECT_EQ(decode(b, &p), -EQDS_DE_DATA_FLAG_COMBO);
}

// Every flags byte with TCPSEQ on an extended header: the same sets pass
// as without it, and each re-encodes to the same bytes.
TEST(Wire, ExhaustiveExtendedFlags)
{
	std::set<int> ok;

	for (int f = 0; f < 256; f++) {
		struct eqds_pkt p;
		u8 out[EQDS_DATA_EXT_HLEN];

		if (!(f & EQDS_F_TCPSEQ))
			continue;
		Bytes b = with(ext_pkt(), 1, (u8)f);

		if (decode(b, &p) > 0) {
			ok.insert(f);
			ASSERT_EQ(eqds_encode(out, sizeof(out), &p), EQDS_DATA_EXT_HLEN);
			ASSERT_EQ(0, memcmp(out, b.data(), sizeof(out)));
		}
	}
	const int S = EQDS_F_SYN, R = EQDS_F_RTS, F = EQDS_F_FIN, X = EQDS_F_RTX;
	const int T = EQDS_F_TCPSEQ;
	std::set<int> want = { T, T | S, T | R, T | F, T | S | R, T | S | F };

	for (int f : std::set<int>(want))
		want.insert(f | X);
	EXPECT_EQ(ok, want);
}
