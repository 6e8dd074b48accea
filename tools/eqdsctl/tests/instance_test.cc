// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "instance.h"

#include "attr_builder.h"

#include <gtest/gtest.h>
#include <linux/eqds.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <sys/socket.h>

#include <memory>
#include <random>
#include <set>

using namespace eqdsctl;
using eqdsctl::test::Attrs;

namespace {

Attrs dest(uint16_t family, std::vector<uint8_t> addr, uint8_t len)
{
	Attrs d;
	d.u16(EQDS_DEST_A_FAMILY, family).bin(EQDS_DEST_A_ADDR, addr).u8(EQDS_DEST_A_PREFIXLEN, len);
	return d;
}

Attrs full_stats()
{
	Attrs s;
	uint64_t v = 1;
	for (const StatInfo &st : kStats) {
		s.raw_attr(EQDS_STATS_A_PAD, nullptr, 0);	// as nla_put_u64_64bit may add
		s.u64(st.attr, v);
		v *= 10;
	}
	return s;
}

Attrs cls(uint8_t id, uint32_t queue_limit)
{
	Attrs c;
	c.u8(EQDS_CLASS_A_ID, id)
		.u32(EQDS_CLASS_A_QUEUE_LIMIT, queue_limit)
		.u32(EQDS_CLASS_A_ECN_MIN, 0)
		.u32(EQDS_CLASS_A_ECN_MAX, 0)
		.u32(EQDS_CLASS_A_TC_PRIORITY, id);
	return c;
}

// A reply as the kernel should send it.
Attrs good_reply()
{
	Attrs dests;
	dests.nest(0, dest(AF_INET, {10, 0, 0, 0}, 24));
	dests.nest(1, dest(AF_INET6, {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 64));
	Attrs a;
	a.str(EQDS_A_VERSION, "0.1.0")
		.u16(EQDS_A_PORT, 6666)
		.nest(EQDS_A_DESTS, dests)
		.u32(EQDS_A_PULL_RATE, 0)
		.u8(EQDS_A_MODE, EQDS_MODE_RTS)
		.u32(EQDS_A_WINDOW, 150)
		.u32(EQDS_A_IDLE_TIMEOUT, 10000)
		.nest(EQDS_A_CLASS, cls(EQDS_CLASS_ID_TCP, 100))
		.nest(EQDS_A_CLASS, cls(EQDS_CLASS_ID_LL, 16)
						.u32(EQDS_CLASS_A_PRIORITY, 6)
						.u32(EQDS_CLASS_A_MARK, 0)
						.u32(EQDS_CLASS_A_MARK_MASK, 0))
		.nest(EQDS_A_STATS, full_stats());
	return a;
}

// Parses an exactly-sized heap copy, so ASan sees any read past the end.
Instance parse(const std::vector<uint8_t> &bytes)
{
	std::unique_ptr<uint8_t[]> copy(new uint8_t[bytes.size() ? bytes.size() : 1]);
	if (!bytes.empty())
		std::memcpy(copy.get(), bytes.data(), bytes.size());
	return parse_instance_attrs(copy.get(), bytes.size());
}

std::string reply_error(const Attrs &a)
{
	try {
		parse(a.bytes);
	} catch (const ReplyError &e) {
		return e.what();
	}
	return "(no error)";
}

// Only ReplyError may escape the parser, whatever the input.
bool parses_or_rejects(const std::vector<uint8_t> &bytes)
{
	try {
		parse(bytes);
		return true;
	} catch (const ReplyError &) {
		return false;
	}
}

} // namespace

TEST(Instance, ParsesAFullReply)
{
	Instance inst = parse(good_reply().bytes);
	ASSERT_TRUE(inst.version);
	EXPECT_EQ(*inst.version, "0.1.0");
	const Config &c = inst.config;
	EXPECT_EQ(c.port, 6666);
	EXPECT_EQ(c.pull_rate_mbit, 0u);
	EXPECT_EQ(c.mode, EQDS_MODE_RTS);
	EXPECT_EQ(c.window, 150u);
	EXPECT_EQ(c.queue_limit, 100u);
	EXPECT_EQ(c.tcp_tc_priority, 0u);
	EXPECT_EQ(c.ll_queue_limit, 16u);
	EXPECT_EQ(c.ll_tc_priority, 1u);
	EXPECT_EQ(c.ll_priority, 6u);
	EXPECT_EQ(c.ll_mark_mask, 0u);
	EXPECT_EQ(c.idle_timeout_ms, 10000u);
	ASSERT_TRUE(c.dests);
	ASSERT_EQ(c.dests->size(), 2u);
	EXPECT_EQ(format_prefix((*c.dests)[0]), "10.0.0.0/24");
	EXPECT_EQ(format_prefix((*c.dests)[1]), "fd00::/64");
	ASSERT_EQ(inst.stats.size(), kStats.size());
	EXPECT_EQ(inst.stats.at("tx_packets"), 1u);
	EXPECT_EQ(inst.stats.at("tx_bytes"), 10u);
	EXPECT_EQ(inst.stats.at("tx_drops"), 100000000u);
}

TEST(Instance, KnownCountersMatchTheHeader)
{
	// Every counter of enum eqds_stats_attr, in order, each with its own name.
	ASSERT_EQ(kStats.size(), static_cast<size_t>(EQDS_STATS_A_MAX - EQDS_STATS_A_PAD));
	std::set<std::string> names;
	for (size_t k = 0; k < kStats.size(); k++) {
		EXPECT_EQ(kStats[k].attr, EQDS_STATS_A_PAD + 1 + k);
		EXPECT_TRUE(names.insert(kStats[k].name).second) << kStats[k].name;
	}
	EXPECT_EQ(kStats.front().attr, EQDS_STATS_A_TX_PACKETS);
	EXPECT_STREQ(kStats.front().name, "tx_packets");
}

TEST(Instance, MissingAttributesStayEmpty)
{
	Instance inst = parse({});
	EXPECT_FALSE(inst.version);
	EXPECT_TRUE(inst.config.empty());
	EXPECT_TRUE(inst.stats.empty());

	Attrs a;
	a.u16(EQDS_A_PORT, 1).nest(EQDS_A_DESTS, Attrs()).nest(EQDS_A_STATS, Attrs());
	inst = parse(a.bytes);
	EXPECT_EQ(inst.config.port, 1);
	ASSERT_TRUE(inst.config.dests);
	EXPECT_TRUE(inst.config.dests->empty());
	EXPECT_FALSE(inst.config.window);
	EXPECT_TRUE(inst.stats.empty());
}

TEST(Instance, UnknownAttributesAreIgnored)
{
	Attrs stats;
	stats.u64(EQDS_STATS_A_TUNNELS, 3).u64(200, 7).u32(201, 1);
	Attrs a = good_reply();
	a.u32(EQDS_A_MAX + 1, 5).str(300, "future").nest(EQDS_A_STATS, stats).u8(EQDS_A_UNSPEC, 9);
	Instance inst = parse(a.bytes);
	EXPECT_EQ(inst.config.port, 6666);
	// The last EQDS_A_STATS wins, as in the kernel's nla_parse.
	EXPECT_EQ(inst.stats.size(), 1u);
	EXPECT_EQ(inst.stats.at("tunnels"), 3u);
}

TEST(Instance, UnknownModeIsKept)
{
	Attrs a;
	a.u8(EQDS_A_MODE, 7);
	Instance inst = parse(a.bytes);
	EXPECT_EQ(inst.config.mode, 7);
	EXPECT_EQ(mode_string(7), "unknown(7)");
	EXPECT_EQ(mode_string(EQDS_MODE_BURST), "burst");
	EXPECT_EQ(mode_from_name("burst"), EQDS_MODE_BURST);
	EXPECT_FALSE(mode_from_name("unknown(7)"));
}

TEST(Instance, HostBitsInARepliedDestAreCleared)
{
	Attrs dests;
	dests.nest(5, dest(AF_INET, {10, 1, 2, 3}, 8));
	Attrs a;
	a.nest(EQDS_A_DESTS, dests);
	Instance inst = parse(a.bytes);
	ASSERT_EQ(inst.config.dests->size(), 1u);
	EXPECT_EQ(format_prefix(inst.config.dests->front()), "10.0.0.0/8");
}

TEST(Instance, WrongLengthsAreRejected)
{
	EXPECT_NE(reply_error(Attrs().u32(EQDS_A_PORT, 6666)).find("bad attribute"), std::string::npos);
	EXPECT_NE(reply_error(Attrs().u8(EQDS_A_PORT, 1)), "(no error)");
	EXPECT_NE(reply_error(Attrs().u16(EQDS_A_WINDOW, 1)), "(no error)");
	EXPECT_NE(reply_error(Attrs().u64(EQDS_A_WINDOW, 1)), "(no error)");
	EXPECT_NE(reply_error(Attrs().u32(EQDS_A_MODE, 1)), "(no error)");
	EXPECT_NE(reply_error(Attrs().nest(EQDS_A_STATS, Attrs().u32(EQDS_STATS_A_TX_BYTES, 1))),
		  "(no error)");
}

TEST(Instance, VersionMustBeATerminatedString)
{
	EXPECT_NE(reply_error(Attrs().str(EQDS_A_VERSION, "0.1.0", false)), "(no error)");
	EXPECT_NE(reply_error(Attrs().raw_attr(EQDS_A_VERSION, nullptr, 0)), "(no error)");
	// Bytes after an inner NUL are not part of the version.
	Attrs a;
	a.raw_attr(EQDS_A_VERSION, "1.0\0junk", 9);
	EXPECT_EQ(*parse(a.bytes).version, "1.0");
}

TEST(Instance, BadDestsAreRejected)
{
	auto with_dest = [](const Attrs &d) {
		Attrs dests, a;
		dests.nest(1, d);
		a.nest(EQDS_A_DESTS, dests);
		return a;
	};
	std::vector<uint8_t> v6(16, 0), v4(4, 0);

	EXPECT_EQ(reply_error(with_dest(dest(AF_INET, v6, 8))),
		  "malformed reply from the kernel: destination: address of 16 bytes for IPv4");
	EXPECT_NE(reply_error(with_dest(dest(AF_INET6, v4, 8))), "(no error)");
	EXPECT_NE(reply_error(with_dest(dest(AF_UNIX, v4, 8))), "(no error)");
	EXPECT_NE(reply_error(with_dest(dest(AF_INET, v4, 33))), "(no error)");
	EXPECT_NE(reply_error(with_dest(dest(AF_INET6, v6, 129))), "(no error)");
	EXPECT_NE(reply_error(with_dest(dest(AF_INET, {1, 2, 3}, 8))), "(no error)");
	EXPECT_NE(reply_error(with_dest(dest(AF_INET6, std::vector<uint8_t>(17, 0), 8))), "(no error)");

	Attrs no_len;
	no_len.u16(EQDS_DEST_A_FAMILY, AF_INET).bin(EQDS_DEST_A_ADDR, v4);
	EXPECT_EQ(reply_error(with_dest(no_len)),
		  "malformed reply from the kernel: destination without family, address or prefix "
		  "length");
	EXPECT_NE(reply_error(with_dest(Attrs())), "(no error)");

	// An element that is not a nest: its payload is not attributes.
	Attrs dests, a;
	dests.u32(1, 0x0a000000);
	a.nest(EQDS_A_DESTS, dests);
	EXPECT_NE(reply_error(a), "(no error)");

	// Stray bytes after the last element.
	Attrs d2, a2;
	d2.nest(1, dest(AF_INET, v4, 8)).append("\1\2\3", 3);
	a2.nest(EQDS_A_DESTS, d2);
	EXPECT_NE(reply_error(a2), "(no error)");
}

TEST(Instance, TruncatedAttributesAreRejected)
{
	Attrs a;
	a.u16(EQDS_A_PORT, 6666);
	std::vector<uint8_t> b = a.bytes;
	b[0] = 12;	// claims 12 bytes, buffer has 8
	EXPECT_FALSE(parses_or_rejects(b));
	b[0] = 2;	// shorter than its own header
	EXPECT_FALSE(parses_or_rejects(b));
	EXPECT_FALSE(parses_or_rejects({6, 0}));		// half a header
	EXPECT_FALSE(parses_or_rejects({6, 0, 3}));
	EXPECT_EQ(reply_error(Attrs().u16(EQDS_A_PORT, 1).append("\0\0", 2)),
		  "malformed reply from the kernel: 2 stray bytes in the reply");
}

TEST(Instance, LastAttributeMayLackPadding)
{
	Attrs a;
	a.raw_attr(EQDS_A_PORT, "\x0a\x1a", 2, false);
	EXPECT_EQ(a.bytes.size(), 6u);
	EXPECT_EQ(parse(a.bytes).config.port, 0x1a0a);
}

TEST(Instance, EveryTruncationOfAGoodReplyIsSafe)
{
	const std::vector<uint8_t> full = good_reply().bytes;
	size_t rejected = 0;
	for (size_t n = 0; n < full.size(); n++) {
		std::vector<uint8_t> cut(full.begin(), full.begin() + static_cast<long>(n));
		if (!parses_or_rejects(cut))
			rejected++;
	}
	// Most cuts land inside an attribute; only the boundaries parse.
	EXPECT_GT(rejected, full.size() * 3 / 4);
	EXPECT_TRUE(parses_or_rejects(full));
}

TEST(Instance, GarbageNeverEscapesAsAnythingButReplyError)
{
	std::mt19937 rng(12345);
	const std::vector<uint8_t> good = good_reply().bytes;

	for (int i = 0; i < 20000; i++) {
		std::vector<uint8_t> b;
		if (i % 2) {
			// Random bytes, lengths biased to look like attribute headers.
			b.resize(rng() % 96);
			for (auto &x : b)
				x = static_cast<uint8_t>(rng() % 4 ? rng() % 24 : rng());
		} else {
			// A good reply with a few bytes flipped.
			b = good;
			for (int k = 0, n = 1 + static_cast<int>(rng() % 4); k < n; k++)
				b[rng() % b.size()] = static_cast<uint8_t>(rng());
		}
		ASSERT_NO_FATAL_FAILURE(parses_or_rejects(b));
	}
}

TEST(InstanceReply, ChecksTheHeaders)
{
	const int family = 0x1c;
	Attrs a;
	a.u16(EQDS_A_PORT, 6666);
	auto message = [&](uint32_t len_field, uint16_t type) {
		std::vector<uint8_t> m(NLMSG_HDRLEN + GENL_HDRLEN);
		nlmsghdr h{};
		h.nlmsg_len = len_field;
		h.nlmsg_type = type;
		std::memcpy(m.data(), &h, sizeof(h));
		m.insert(m.end(), a.bytes.begin(), a.bytes.end());
		return m;
	};
	const uint32_t total = static_cast<uint32_t>(NLMSG_HDRLEN + GENL_HDRLEN + a.bytes.size());

	std::vector<uint8_t> m = message(total, family);
	EXPECT_EQ(parse_instance_reply(m.data(), m.size(), family).config.port, 6666);

	m = message(total, family + 1);
	EXPECT_THROW(parse_instance_reply(m.data(), m.size(), family), ReplyError);
	m = message(total + 4, family);
	EXPECT_THROW(parse_instance_reply(m.data(), m.size(), family), ReplyError);
	m = message(total - 4, family);
	EXPECT_THROW(parse_instance_reply(m.data(), m.size(), family), ReplyError);
	m = message(total, family);
	EXPECT_THROW(parse_instance_reply(m.data(), NLMSG_HDRLEN + 2, family), ReplyError);
	EXPECT_THROW(parse_instance_reply(m.data(), 0, family), ReplyError);
}

namespace {

struct MsgDeleter {
	void operator()(nl_msg *m) const { nlmsg_free(m); }
};

// The attributes put_config_attrs() writes, as raw bytes.
std::vector<uint8_t> put(const Config &cfg)
{
	std::unique_ptr<nl_msg, MsgDeleter> msg(nlmsg_alloc());
	put_config_attrs(msg.get(), cfg);
	const nlmsghdr *h = nlmsg_hdr(msg.get());
	const auto *p = static_cast<const uint8_t *>(nlmsg_data(h));
	return std::vector<uint8_t>(p, p + nlmsg_datalen(h));
}

} // namespace

TEST(SetRequest, OnlyGivenAttributesAreSent)
{
	EXPECT_TRUE(put(Config{}).empty());

	Config c;
	c.window = 20;
	std::vector<uint8_t> b = put(c);
	ASSERT_EQ(b.size(), 8u);
	EXPECT_EQ(b[0], 8);				// nla_len
	EXPECT_EQ(b[2], EQDS_A_WINDOW);			// nla_type
	EXPECT_EQ(b[4], 20);
	Instance back = parse(b);
	EXPECT_EQ(back.config.window, 20u);
	EXPECT_FALSE(back.config.port);
	EXPECT_FALSE(back.config.dests);
}

TEST(SetRequest, RoundTripsEveryField)
{
	Config c;
	c.port = 7777;
	c.dests = std::vector<Prefix>{parse_prefix("10.0.0.0/24"), parse_prefix("fd00::/64")};
	c.pull_rate_mbit = 0;
	c.mode = EQDS_MODE_BURST;
	c.window = 1;
	c.queue_limit = 65535;
	c.idle_timeout_ms = 3600000;
	Instance back = parse(put(c));
	EXPECT_EQ(back.config.port, 7777);
	ASSERT_TRUE(back.config.dests);
	EXPECT_EQ(*back.config.dests, *c.dests);
	EXPECT_EQ(back.config.pull_rate_mbit, 0u);	// 0 ("auto") is sent, not dropped
	EXPECT_EQ(back.config.mode, EQDS_MODE_BURST);
	EXPECT_EQ(back.config.window, 1u);
	EXPECT_EQ(back.config.queue_limit, 65535u);
	EXPECT_EQ(back.config.idle_timeout_ms, 3600000u);
}

TEST(SetRequest, RoundTripsTheClasses)
{
	Config c;
	c.tcp_ecn_min = 0;	// 0 ("auto") is sent, not dropped
	c.tcp_ecn_max = 2;
	c.tcp_tc_priority = 0x10010;
	c.ll_queue_limit = 3;
	c.ll_ecn_min = 4;
	c.ll_ecn_max = 5;
	c.ll_tc_priority = 6;
	c.ll_priority = 7;
	c.ll_mark = 8;
	c.ll_mark_mask = 9;
	c.queued_limit_kb = 10;
	Config b = parse(put(c)).config;
	EXPECT_EQ(b.tcp_ecn_min, 0u);
	EXPECT_EQ(b.tcp_ecn_max, 2u);
	EXPECT_EQ(b.tcp_tc_priority, 0x10010u);
	EXPECT_EQ(b.ll_queue_limit, 3u);
	EXPECT_EQ(b.ll_ecn_min, 4u);
	EXPECT_EQ(b.ll_ecn_max, 5u);
	EXPECT_EQ(b.ll_tc_priority, 6u);
	EXPECT_EQ(b.ll_priority, 7u);
	EXPECT_EQ(b.ll_mark, 8u);
	EXPECT_EQ(b.ll_mark_mask, 9u);
	EXPECT_EQ(b.queued_limit_kb, 10u);
	EXPECT_FALSE(b.port);
}

// One EQDS_A_CLASS nest per class, each naming its class: the kernel keeps
// the others as they are.
TEST(SetRequest, OnlyTheClassesGivenGetANest)
{
	Config c;
	c.ll_ecn_max = 5;
	std::vector<uint8_t> b = put(c);
	// EQDS_A_CLASS { ID ll (8 bytes with padding), ECN_MAX 5 (8 bytes) }
	ASSERT_EQ(b.size(), 20u);
	EXPECT_EQ(b[2], EQDS_A_CLASS);
	EXPECT_EQ(b[3] & 0x80, 0x80);			// NLA_F_NESTED
	EXPECT_EQ(b[6], EQDS_CLASS_A_ID);
	EXPECT_EQ(b[8], EQDS_CLASS_ID_LL);
	EXPECT_EQ(b[14], EQDS_CLASS_A_ECN_MAX);
	EXPECT_EQ(b[16], 5);
	Config back = parse(b).config;
	EXPECT_EQ(back.ll_ecn_max, 5u);
	EXPECT_FALSE(back.ll_ecn_min);
	EXPECT_FALSE(back.tcp_ecn_max);
}

TEST(Instance, ClassNests)
{
	// Without its id a class nest means nothing.
	Attrs noid;
	noid.u32(EQDS_CLASS_A_QUEUE_LIMIT, 5);
	EXPECT_NE(reply_error(Attrs().nest(EQDS_A_CLASS, noid)).find("class without its id"),
		  std::string::npos);
	// A class of a newer kernel is skipped; a tcp nest has no selectors.
	Attrs a;
	a.nest(EQDS_A_CLASS, cls(EQDS_CLASS_ID_MAX + 1, 5))
		.nest(EQDS_A_CLASS, cls(EQDS_CLASS_ID_TCP, 7).u32(EQDS_CLASS_A_PRIORITY, 3));
	Config c = parse(a.bytes).config;
	EXPECT_EQ(c.queue_limit, 7u);
	EXPECT_FALSE(c.ll_queue_limit);
	EXPECT_FALSE(c.ll_priority);
	// A field of the wrong width is a malformed reply.
	Attrs bad;
	bad.u8(EQDS_CLASS_A_ID, EQDS_CLASS_ID_LL).u16(EQDS_CLASS_A_ECN_MIN, 1);
	EXPECT_NE(reply_error(Attrs().nest(EQDS_A_CLASS, bad)).find("a class"), std::string::npos);
}

TEST(SetRequest, DestsNoneSendsAnEmptyNest)
{
	Config c;
	c.dests = std::vector<Prefix>{};
	std::vector<uint8_t> b = put(c);
	ASSERT_EQ(b.size(), 4u);
	uint16_t len, type;
	std::memcpy(&len, &b[0], 2);
	std::memcpy(&type, &b[2], 2);
	EXPECT_EQ(len, 4);
	EXPECT_EQ(type, EQDS_A_DESTS | NLA_F_NESTED);
	Instance back = parse(b);
	ASSERT_TRUE(back.config.dests);
	EXPECT_TRUE(back.config.dests->empty());
}

TEST(SetRequest, NestsCarryTheNestedFlagAndExactAddressLengths)
{
	Config c;
	c.dests = std::vector<Prefix>{parse_prefix("192.0.2.0/24")};
	std::vector<uint8_t> b = put(c);
	// DESTS(4) + element(4) + FAMILY(8) + ADDR(8) + PREFIXLEN(8)
	ASSERT_EQ(b.size(), 32u);
	uint16_t type, elem_type, addr_len;
	std::memcpy(&type, &b[2], 2);
	std::memcpy(&elem_type, &b[6], 2);
	std::memcpy(&addr_len, &b[16], 2);
	EXPECT_EQ(type, EQDS_A_DESTS | NLA_F_NESTED);
	EXPECT_TRUE(elem_type & NLA_F_NESTED);
	EXPECT_EQ(addr_len, 4 + 4);
}
