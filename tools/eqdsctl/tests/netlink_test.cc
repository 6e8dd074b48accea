// SPDX-License-Identifier: GPL-2.0 OR MIT
// The parts of netlink.cc that need no socket: reading the extended ack,
// the family version check.
#include "netlink.h"

#include "attr_builder.h"

#include <gtest/gtest.h>
#include <linux/eqds.h>
#include <linux/netlink.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <random>

using namespace eqdsctl;
using eqdsctl::test::Attrs;

namespace {

// An NLMSG_ERROR as the kernel builds it in netlink_ack(): header, struct
// nlmsgerr, the rest of the request unless capped, padding, then TLVs.
std::vector<uint8_t> error_message(int error, size_t request_payload, bool capped, const Attrs &tlvs)
{
	nlmsghdr h{};
	nlmsgerr e{};
	e.error = -error;
	e.msg.nlmsg_len = static_cast<uint32_t>(NLMSG_HDRLEN + request_payload);
	e.msg.nlmsg_type = 0x1c;
	e.msg.nlmsg_seq = 42;

	std::vector<uint8_t> m(NLMSG_HDRLEN);
	const auto *ep = reinterpret_cast<const uint8_t *>(&e);
	m.insert(m.end(), ep, ep + sizeof(e));
	if (!capped)
		for (size_t i = 0; i < request_payload; i++)
			m.push_back(static_cast<uint8_t>(0xa0 + i));	// junk that is not TLVs
	while (m.size() % 4)
		m.push_back(0);
	m.insert(m.end(), tlvs.bytes.begin(), tlvs.bytes.end());

	h.nlmsg_len = static_cast<uint32_t>(m.size());
	h.nlmsg_type = NLMSG_ERROR;
	h.nlmsg_flags = static_cast<uint16_t>((capped ? NLM_F_CAPPED : 0) |
					      (tlvs.bytes.empty() ? 0 : NLM_F_ACK_TLVS));
	std::memcpy(m.data(), &h, sizeof(h));
	return m;
}

// Reads from an exactly-sized heap copy so ASan catches overreads.
std::string extack(const std::vector<uint8_t> &m, size_t len)
{
	std::unique_ptr<uint8_t[]> copy(new uint8_t[m.size()]);
	std::memcpy(copy.get(), m.data(), m.size());
	return extack_message(reinterpret_cast<const nlmsghdr *>(copy.get()), len);
}

std::string extack(const std::vector<uint8_t> &m)
{
	return extack(m, m.size());
}

Attrs msg_tlv(const std::string &text)
{
	Attrs t;
	t.u32(NLMSGERR_ATTR_OFFS, 20).str(NLMSGERR_ATTR_MSG, text);
	return t;
}

} // namespace

TEST(Extack, CappedRequest)
{
	EXPECT_EQ(extack(error_message(EINVAL, 24, true, msg_tlv("window out of range"))),
		  "window out of range");
}

TEST(Extack, FullRequestEchoed)
{
	// Odd payload sizes exercise the padding before the TLVs.
	for (size_t payload : {0u, 1u, 4u, 7u, 24u, 29u})
		EXPECT_EQ(extack(error_message(EINVAL, payload, false, msg_tlv("bad dest"))), "bad dest")
			<< payload;
}

TEST(Extack, NoTlvs)
{
	EXPECT_EQ(extack(error_message(EPERM, 8, true, Attrs())), "");
	Attrs only_offs;
	only_offs.u32(NLMSGERR_ATTR_OFFS, 4);
	EXPECT_EQ(extack(error_message(EINVAL, 8, true, only_offs)), "");
}

TEST(Extack, FlagClearedMeansNoTlvs)
{
	std::vector<uint8_t> m = error_message(EINVAL, 8, true, msg_tlv("x"));
	nlmsghdr h;
	std::memcpy(&h, m.data(), sizeof(h));
	h.nlmsg_flags &= static_cast<uint16_t>(~NLM_F_ACK_TLVS);
	std::memcpy(m.data(), &h, sizeof(h));
	EXPECT_EQ(extack(m), "");
}

TEST(Extack, UnterminatedMessageIsBounded)
{
	Attrs t;
	t.raw_attr(NLMSGERR_ATTR_MSG, "abc", 3);
	EXPECT_EQ(extack(error_message(EINVAL, 0, true, t)), "abc");
}

TEST(Extack, GarbageOriginalLengthIsIgnored)
{
	std::vector<uint8_t> m = error_message(EINVAL, 8, false, msg_tlv("x"));
	uint32_t huge = 0xfffffff0;	// the echoed request's nlmsg_len
	std::memcpy(&m[NLMSG_HDRLEN + offsetof(nlmsgerr, msg)], &huge, 4);
	EXPECT_EQ(extack(m), "");
	uint32_t tiny = 3;
	std::memcpy(&m[NLMSG_HDRLEN + offsetof(nlmsgerr, msg)], &tiny, 4);
	EXPECT_EQ(extack(m), "");
}

TEST(Extack, LengthFieldBeyondBufferIsIgnored)
{
	std::vector<uint8_t> m = error_message(EINVAL, 0, true, msg_tlv("x"));
	EXPECT_EQ(extack(m, m.size() - 1), "");
	EXPECT_EQ(extack(m, 4), "");
}

TEST(Extack, EveryTruncationAndRandomDamageIsSafe)
{
	const std::vector<uint8_t> good = error_message(EINVAL, 13, false, msg_tlv("some message"));
	for (size_t n = 1; n <= good.size(); n++) {
		std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<long>(n));
		uint32_t len = static_cast<uint32_t>(n);
		if (n >= 4)
			std::memcpy(cut.data(), &len, 4);	// a consistent, shorter message
		extack(cut);
	}
	std::mt19937 rng(7);
	for (int i = 0; i < 20000; i++) {
		std::vector<uint8_t> m = good;
		for (int k = 0; k < 3; k++)
			m[rng() % m.size()] = static_cast<uint8_t>(rng());
		std::string s = extack(m);
		EXPECT_LE(s.size(), m.size());
	}
}

TEST(KernelErrorText, IncludesStrerrorAndExtack)
{
	KernelError a(EINVAL, "window out of range");
	EXPECT_EQ(a.error(), EINVAL);
	EXPECT_EQ(std::string(a.what()), std::string(strerror(EINVAL)) + ": window out of range");
	KernelError b(EPERM, "");
	EXPECT_EQ(std::string(b.what()), strerror(EPERM));
}

// A module of another release numbers the attributes otherwise: refused,
// both versions named, as a kernel-side failure (exit status 2).
TEST(FamilyVersion, OnlyTheBuiltVersionIsAccepted)
{
	EXPECT_NO_THROW(check_family_version(EQDS_GENL_VERSION));
	try {
		check_family_version(1);
		FAIL() << "version 1 accepted";
	} catch (const NetlinkError &e) {
		std::string m = e.what();

		EXPECT_NE(m.find("module speaks netlink version 1"), std::string::npos) << m;
		EXPECT_NE(m.find("this eqdsctl version " + std::to_string(EQDS_GENL_VERSION)),
			  std::string::npos) << m;
	}
	EXPECT_THROW(check_family_version(EQDS_GENL_VERSION + 1), NetlinkError);
}
