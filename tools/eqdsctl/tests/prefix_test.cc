// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "prefix.h"

#include <gtest/gtest.h>
#include <sys/socket.h>

using namespace eqdsctl;

namespace {

std::string roundtrip(const char *s)
{
	return format_prefix(parse_prefix(s));
}

std::string error_of(const char *s)
{
	try {
		parse_prefix(s);
	} catch (const PrefixError &e) {
		return e.what();
	}
	return "(no error)";
}

} // namespace

TEST(Prefix, ParsesIpv4)
{
	Prefix p = parse_prefix("10.1.2.0/24");
	EXPECT_EQ(p.family, AF_INET);
	EXPECT_EQ(p.len, 24);
	EXPECT_EQ(p.addr[0], 10);
	EXPECT_EQ(p.addr[1], 1);
	EXPECT_EQ(p.addr[2], 2);
	EXPECT_EQ(p.addr[3], 0);
	for (size_t i = 4; i < 16; i++)
		EXPECT_EQ(p.addr[i], 0) << i;
	EXPECT_EQ(format_prefix(p), "10.1.2.0/24");
}

TEST(Prefix, ParsesIpv6)
{
	Prefix p = parse_prefix("fd00::/64");
	EXPECT_EQ(p.family, AF_INET6);
	EXPECT_EQ(p.len, 64);
	EXPECT_EQ(p.addr[0], 0xfd);
	EXPECT_EQ(format_prefix(p), "fd00::/64");
	EXPECT_EQ(roundtrip("FD00:0:0:0::1/128"), "fd00::1/128");
	EXPECT_EQ(roundtrip("::ffff:10.0.0.0/104"), "::ffff:10.0.0.0/104");
}

TEST(Prefix, MissingLengthIsAHost)
{
	EXPECT_EQ(roundtrip("192.0.2.7"), "192.0.2.7/32");
	EXPECT_EQ(roundtrip("2001:db8::7"), "2001:db8::7/128");
}

TEST(Prefix, HostBitsAreCleared)
{
	EXPECT_EQ(roundtrip("10.0.0.1/8"), "10.0.0.0/8");
	EXPECT_EQ(roundtrip("10.255.255.255/9"), "10.128.0.0/9");
	EXPECT_EQ(roundtrip("192.168.1.77/0"), "0.0.0.0/0");
	EXPECT_EQ(roundtrip("192.168.1.77/31"), "192.168.1.76/31");
	EXPECT_EQ(roundtrip("2001:db8:ffff:ffff::1/33"), "2001:db8:8000::/33");
	EXPECT_EQ(roundtrip("ffff::ffff/127"), "ffff::fffe/127");
	EXPECT_EQ(parse_prefix("10.0.0.1/24"), parse_prefix("10.0.0.0/24"));
}

TEST(Prefix, LengthBounds)
{
	EXPECT_EQ(roundtrip("10.0.0.0/32"), "10.0.0.0/32");
	EXPECT_EQ(roundtrip("::/0"), "::/0");
	EXPECT_EQ(roundtrip("::1/128"), "::1/128");
	EXPECT_EQ(error_of("10.0.0.0/33"), "'10.0.0.0/33': prefix length must be 0..32");
	EXPECT_EQ(error_of("fd00::/129"), "'fd00::/129': prefix length must be 0..128");
	EXPECT_EQ(error_of("fd00::/99999999999"), "'fd00::/99999999999': prefix length must be 0..128");
}

TEST(Prefix, RejectsMalformedLength)
{
	for (const char *s : {"10.0.0.0/", "10.0.0.0/+8", "10.0.0.0/-1", "10.0.0.0/ 8", "10.0.0.0/8 ",
			      "10.0.0.0/0x8", "10.0.0.0/8/8", "10.0.0.0/8a"})
		EXPECT_THROW(parse_prefix(s), PrefixError) << s;
}

TEST(Prefix, RejectsMalformedAddress)
{
	for (const char *s : {"", "/8", "10.0.0/8", "10.0.0.0.0/8", "256.0.0.0/8", "10.1", "010.0.0.1",
			      " 10.0.0.0/8", "fd00::1%eth0/64", "[fd00::]/64", "fd00:::1/64", "host/8",
			      "1.2.3.4:80", "none"})
		EXPECT_THROW(parse_prefix(s), PrefixError) << s;
	EXPECT_EQ(error_of("10.0.0/8"), "'10.0.0/8': '10.0.0' is not an IPv4 or IPv6 address");
	EXPECT_EQ(error_of(""), "empty prefix");
}

TEST(Prefix, RejectsEmbeddedNul)
{
	std::string s("10.0.0.0\0/8", 11);
	EXPECT_THROW(parse_prefix(s), PrefixError);
}

TEST(Prefix, MakePrefixValidates)
{
	uint8_t a4[4] = {10, 1, 2, 3}, a16[16] = {0xfd};
	EXPECT_EQ(format_prefix(make_prefix(AF_INET, a4, 4, 16)), "10.1.0.0/16");
	EXPECT_EQ(format_prefix(make_prefix(AF_INET6, a16, 16, 8)), "fd00::/8");
	EXPECT_THROW(make_prefix(AF_INET, a16, 16, 8), PrefixError);
	EXPECT_THROW(make_prefix(AF_INET6, a4, 4, 8), PrefixError);
	EXPECT_THROW(make_prefix(AF_INET, a4, 4, 33), PrefixError);
	EXPECT_THROW(make_prefix(AF_INET6, a16, 16, 129), PrefixError);
	EXPECT_THROW(make_prefix(AF_UNIX, a4, 4, 0), PrefixError);
}
