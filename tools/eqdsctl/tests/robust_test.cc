// SPDX-License-Identifier: GPL-2.0 OR MIT
// eqdsctl against hostile input (issue 6): every bad argument, random
// command lines, and replies damaged where the parser must be most careful
// (the nests, the netlink header). The only outcomes allowed are a parsed
// result within the documented limits or the one exception type of each
// parser: UsageError for arguments, ReplyError for replies. Run under ASan
// and UBSan (cmake -DEQDS_SANITIZE=ON), an out-of-bounds read, overflow or
// leak anywhere in these paths is a failure too.
#include <gtest/gtest.h>

#include <linux/eqds.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <sys/socket.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "args.h"
#include "attr_builder.h"
#include "instance.h"

using namespace eqdsctl;
using eqdsctl::test::Attrs;

namespace {

// parse_args, reporting which of the allowed outcomes it had.
enum class Outcome { Parsed, Usage };

Outcome run(const std::vector<std::string> &args, Request *out = nullptr)
{
	try {
		Request r = parse_args(args);
		if (out)
			*out = r;
		return Outcome::Parsed;
	} catch (const UsageError &e) {
		EXPECT_STRNE(e.what(), "");
		return Outcome::Usage;
	}
}

// A parsed set request must hold only values the kernel accepts.
void expect_within_limits(const Request &r)
{
	const Config &c = r.config;
	if (c.port) {
		EXPECT_GE(*c.port, EQDS_PORT_MIN);
	}
	if (c.window) {
		EXPECT_GE(*c.window, EQDS_WINDOW_MIN);
		EXPECT_LE(*c.window, EQDS_WINDOW_MAX);
	}
	if (c.queue_limit) {
		EXPECT_GE(*c.queue_limit, EQDS_QUEUE_LIMIT_MIN);
		EXPECT_LE(*c.queue_limit, EQDS_QUEUE_LIMIT_MAX);
	}
	if (c.idle_timeout_ms) {
		EXPECT_GE(*c.idle_timeout_ms, EQDS_IDLE_TIMEOUT_MIN);
		EXPECT_LE(*c.idle_timeout_ms, EQDS_IDLE_TIMEOUT_MAX);
	}
	if (c.mode) {
		EXPECT_LE(*c.mode, EQDS_MODE_MAX);
	}
	if (c.dests) {
		EXPECT_LE(c.dests->size(), static_cast<size_t>(EQDS_MAX_DESTS));
	}
}

const std::string kLong(100000, '7');

// Values no numeric setting may take.
const std::vector<std::string> kBadNumbers = {
	"", "x", "-1", "-0", "1x", "x1", "0x10", "1e3", "1.5", "+", "-",
	"4294967296", "18446744073709551616", "99999999999999999999999999",
	kLong, std::string("1\0" "2", 3), "\xff", "１",
};

} // namespace

TEST(BadArguments, EveryNumericSettingRejectsGarbage)
{
	for (const char *kw : {"port", "window", "queue-limit", "idle-timeout", "pull-rate"}) {
		for (const std::string &v : kBadNumbers)
			EXPECT_EQ(run({"set", kw, v}), Outcome::Usage) << kw << " '" << v << "'";
		EXPECT_EQ(run({"set", kw}), Outcome::Usage) << kw << " without a value";
	}
}

TEST(BadArguments, RangesAreCheckedAtBothEnds)
{
	struct Case {
		const char *kw;
		uint64_t min, max;
	} cases[] = {
		{"port", EQDS_PORT_MIN, UINT16_MAX},
		{"window", EQDS_WINDOW_MIN, EQDS_WINDOW_MAX},
		{"queue-limit", EQDS_QUEUE_LIMIT_MIN, EQDS_QUEUE_LIMIT_MAX},
		{"idle-timeout", EQDS_IDLE_TIMEOUT_MIN, EQDS_IDLE_TIMEOUT_MAX},
	};
	for (const Case &c : cases) {
		Request r;
		EXPECT_EQ(run({"set", c.kw, std::to_string(c.min)}, &r), Outcome::Parsed) << c.kw;
		EXPECT_EQ(run({"set", c.kw, std::to_string(c.max)}, &r), Outcome::Parsed) << c.kw;
		expect_within_limits(r);
		if (c.min > 0) {
			EXPECT_EQ(run({"set", c.kw, std::to_string(c.min - 1)}), Outcome::Usage) << c.kw;
		}
		EXPECT_EQ(run({"set", c.kw, std::to_string(c.max + 1)}), Outcome::Usage) << c.kw;
	}
}

TEST(BadArguments, ModesDestsAndWords)
{
	for (const std::string &m : std::vector<std::string>{"", "RTS", "rts ", "fast", "0", "burstx", kLong})
		EXPECT_EQ(run({"set", "mode", m}), Outcome::Usage) << m;
	const std::vector<std::string> bad_dests = {
		"", ",", "10.0.0.0/24,", ",10.0.0.0/24", "10.0.0.0/33", "::/129",
		"10.0.0.0/-1", "10.0.0.0/", "/24", "10.0.0.256/24", "10.0.0/24",
		"fd00:::1/64", "10.0.0.0/24,10.0.0.1/24", "none,10.0.0.0/8",
		"10.0.0.0/24/8", "10.0.0.0/4294967320", kLong,
	};
	for (const std::string &d : bad_dests)
		EXPECT_EQ(run({"set", "dests", d}), Outcome::Usage) << d;
	// 65 prefixes: one too many.
	std::string many;
	for (int i = 0; i <= EQDS_MAX_DESTS; i++)
		many += (i ? "," : "") + std::string("10.0.") + std::to_string(i) + ".0/24";
	EXPECT_EQ(run({"set", "dests", many}), Outcome::Usage);
	for (const std::vector<std::string> &args : std::vector<std::vector<std::string>>{
		     {"frobnicate"}, {"-x"}, {"--", "-j"}, {"show", "extra"},
		     {"set", "port", "1", "port", "2"}, {"set", "colour", "red"},
		     {"set", "port", "1", "window"}, {"-j", "-q", "show"}, {"-"},
		     {"show", "-j"}, {std::string("sh\0ow", 5)}, {""}})
		EXPECT_EQ(run(args), Outcome::Usage) << args[0];
}

// Random command lines from words eqdsctl knows and words it must refuse.
TEST(BadArguments, RandomCommandLinesNeverEscape)
{
	const std::vector<std::string> words = {
		"show", "set", "help", "-j", "-p", "-s", "-js", "-jX", "--json", "--", "-",
		"port", "dests", "pull-rate", "mode", "window", "queue-limit", "idle-timeout",
		"rts", "burst", "auto", "none", "0", "1", "100", "65535", "65536",
		"4294967295", "4294967296", "-1", "10.0.0.0/24", "fd00::/64", "::/0",
		"10.0.0.0/24,fd00::/64", "1.2.3.4/40", "", " ", "\xc3", kLong,
	};
	std::mt19937 rng(6);
	int parsed = 0;

	for (int i = 0; i < 50000; i++) {
		std::vector<std::string> args(rng() % 9);
		for (auto &w : args)
			w = words[rng() % words.size()];
		Request r;
		if (run(args, &r) == Outcome::Parsed) {
			parsed++;
			expect_within_limits(r);
		}
	}
	// Both outcomes happen: the generator reaches the parser's depths.
	EXPECT_GT(parsed, 100);
	EXPECT_LT(parsed, 50000);
}

namespace {

Attrs reply_with_nests()
{
	Attrs d4, d6, dests, stats, a;
	d4.u16(EQDS_DEST_A_FAMILY, AF_INET).bin(EQDS_DEST_A_ADDR, {10, 1, 2, 0})
		.u8(EQDS_DEST_A_PREFIXLEN, 24);
	d6.u16(EQDS_DEST_A_FAMILY, AF_INET6).bin(EQDS_DEST_A_ADDR, std::vector<uint8_t>(16, 0xfd))
		.u8(EQDS_DEST_A_PREFIXLEN, 128);
	dests.nest(1, d4).nest(2, d6);
	for (const StatInfo &st : kStats)
		stats.u64(st.attr, st.attr);
	a.str(EQDS_A_VERSION, "0.1.0").u16(EQDS_A_PORT, 6666).nest(EQDS_A_DESTS, dests)
		.nest(EQDS_A_STATS, stats).u32(EQDS_A_WINDOW, 150);
	return a;
}

// An exactly-sized heap copy (never null): ASan sees any read past its end.
std::unique_ptr<uint8_t[]> exact_copy(const std::vector<uint8_t> &b)
{
	std::unique_ptr<uint8_t[]> copy(new uint8_t[b.empty() ? 1 : b.size()]);
	if (!b.empty())
		std::memcpy(copy.get(), b.data(), b.size());
	return copy;
}

bool attrs_parse_or_reject(const std::vector<uint8_t> &b)
{
	auto copy = exact_copy(b);
	try {
		parse_instance_attrs(copy.get(), b.size());
		return true;
	} catch (const ReplyError &) {
		return false;
	}
}

} // namespace

// Every 16-bit length field of the reply (outer and nested attributes) set
// to every interesting value: short of the header, inside, exact, beyond.
TEST(DamagedReplies, EveryLengthFieldTakesEveryInterestingValue)
{
	const std::vector<uint8_t> good = reply_with_nests().bytes;
	ASSERT_TRUE(attrs_parse_or_reject(good));
	// Where the attribute headers are: walk nests as the parser would.
	std::vector<size_t> headers;
	std::vector<std::pair<size_t, size_t>> spans = {{0, good.size()}};
	while (!spans.empty()) {
		auto [at, end] = spans.back();
		spans.pop_back();
		while (at + 4 <= end) {
			uint16_t len, type;
			std::memcpy(&len, &good[at], 2);
			std::memcpy(&type, &good[at + 2], 2);
			headers.push_back(at);
			if ((type & 0x8000) && len > 4)
				spans.push_back({at + 4, at + len});
			at += (len + 3u) & ~3u;
		}
	}
	EXPECT_GT(headers.size(), 10u);
	int rejected = 0;
	for (size_t h : headers) {
		for (uint16_t v : {0, 1, 3, 4, 5, 7, 8, 9, 12, 16, 17, 255, 256, 4096, 65535}) {
			std::vector<uint8_t> b = good;
			std::memcpy(&b[h], &v, 2);
			if (!attrs_parse_or_reject(b))
				rejected++;
		}
		// The type, with and without the nested flag.
		for (uint16_t t : {0, 1, 0x7fff, 0x8000, 0x8001, 0xffff}) {
			std::vector<uint8_t> b = good;
			std::memcpy(&b[h + 2], &t, 2);
			attrs_parse_or_reject(b);
		}
	}
	EXPECT_GT(rejected, 0);
}

// Whole messages with a random netlink header in front of a good or damaged
// payload, cut anywhere.
TEST(DamagedReplies, WholeMessagesWithGarbageHeaders)
{
	const std::vector<uint8_t> attrs = reply_with_nests().bytes;
	const int family = 0x20;
	std::mt19937 rng(66);

	for (int i = 0; i < 20000; i++) {
		std::vector<uint8_t> m(NLMSG_HDRLEN + GENL_HDRLEN);
		nlmsghdr h{};
		h.nlmsg_len = static_cast<uint32_t>(rng() % 3 ? m.size() + attrs.size() : rng());
		h.nlmsg_type = static_cast<uint16_t>(rng() % 4 ? family : rng());
		std::memcpy(m.data(), &h, sizeof(h));
		m.insert(m.end(), attrs.begin(), attrs.end());
		if (rng() % 2)
			m[rng() % m.size()] = static_cast<uint8_t>(rng());
		m.resize(rng() % 4 ? m.size() : rng() % (m.size() + 1));
		auto copy = exact_copy(m);
		try {
			parse_instance_reply(copy.get(), m.size(), family);
		} catch (const ReplyError &) {
		}
	}
}
