// SPDX-License-Identifier: GPL-2.0 OR MIT
// "policy" and "bound": command lines, reply parsing (well-formed, truncated,
// garbage), list edits and output.
#include "args.h"
#include "instance.h"
#include "policy.h"

#include "attr_builder.h"

#include "usage_error.h"

#include <gtest/gtest.h>
#include <linux/eqds.h>
#include <sys/socket.h>

#include <sstream>

using namespace eqdsctl;
using eqdsctl::test::usage_error;
using eqdsctl::test::Attrs;

namespace {

Attrs rule(std::vector<uint8_t> addr, uint8_t len, uint32_t weight, uint8_t prio, uint32_t rate)
{
	Attrs r;
	r.u16(EQDS_POLICY_A_FAMILY, addr.size() == 4 ? AF_INET : AF_INET6)
		.bin(EQDS_POLICY_A_ADDR, addr)
		.u8(EQDS_POLICY_A_PREFIXLEN, len)
		.u32(EQDS_POLICY_A_WEIGHT, weight)
		.u8(EQDS_POLICY_A_PRIO, prio)
		.u32(EQDS_POLICY_A_RATE, rate);
	return r;
}

Policy parse(const Attrs &a)
{
	return parse_policy_attrs(a.bytes.data(), a.bytes.size());
}

std::string reply_error(const Attrs &a)
{
	try {
		parse(a);
	} catch (const ReplyError &e) {
		return e.what();
	}
	return "(no error)";
}

} // namespace

TEST(PolicyArgs, ShowIsTheDefault)
{
	EXPECT_EQ(parse_args({"policy"}).command, Command::Policy);
	EXPECT_EQ(parse_args({"policy"}).policy.op, PolicyRequest::Op::Show);
	EXPECT_EQ(parse_args({"-j", "policy", "show"}).policy.op, PolicyRequest::Op::Show);
	EXPECT_TRUE(parse_args({"-j", "policy", "ls"}).json);
	EXPECT_EQ(parse_args({"policy", "flush"}).policy.op, PolicyRequest::Op::Flush);
}

TEST(PolicyArgs, AddTakesAPrefixAndItsShare)
{
	Request r = parse_args({"policy", "add", "10.0.1.7/24", "weight", "3", "prio", "0",
				"rate", "100mbit"});
	EXPECT_EQ(r.policy.op, PolicyRequest::Op::Add);
	EXPECT_EQ(format_prefix(r.policy.rule.prefix), "10.0.1.0/24");
	EXPECT_EQ(r.policy.rule.weight, 3u);
	EXPECT_EQ(r.policy.rule.prio, 0);
	EXPECT_EQ(r.policy.rule.rate_mbit, 100u);
	// Defaults: weight 1, the default level, no cap.
	r = parse_args({"policy", "replace", "fd00::1"});
	EXPECT_EQ(format_prefix(r.policy.rule.prefix), "fd00::1/128");
	EXPECT_EQ(r.policy.rule.weight, 1u);
	EXPECT_EQ(r.policy.rule.prio, EQDS_PRIO_DEFAULT);
	EXPECT_EQ(r.policy.rule.rate_mbit, 0u);
	EXPECT_EQ(parse_args({"policy", "add", "10.0.0.0/8", "rate", "none"}).policy.rule.rate_mbit,
		  0u);
	r = parse_args({"policy", "del", "10.0.0.0/8"});
	EXPECT_EQ(r.policy.op, PolicyRequest::Op::Del);
	EXPECT_EQ(format_prefix(r.policy.rule.prefix), "10.0.0.0/8");
}

TEST(PolicyArgs, BadWordsSayWhatIsWrong)
{
	EXPECT_NE(usage_error({"policy", "add"}).find("which senders"), std::string::npos);
	EXPECT_NE(usage_error({"policy", "add", "10.0.1"}).find("policy add"), std::string::npos);
	EXPECT_NE(usage_error({"policy", "add", "10.0.0.1", "weight", "0"}).find("1..100"),
		  std::string::npos);
	EXPECT_NE(usage_error({"policy", "add", "10.0.0.1", "weight", "101"}).find("1..100"),
		  std::string::npos);
	EXPECT_NE(usage_error({"policy", "add", "10.0.0.1", "prio", "4"}).find("0..3"),
		  std::string::npos);
	EXPECT_NE(usage_error({"policy", "add", "10.0.0.1", "prio", "-1"}).find("prio"),
		  std::string::npos);
	EXPECT_NE(usage_error({"policy", "add", "10.0.0.1", "weight"}).find("needs a value"),
		  std::string::npos);
	EXPECT_NE(usage_error({"policy", "add", "10.0.0.1", "weight", "2", "weight", "3"})
			  .find("twice"), std::string::npos);
	EXPECT_NE(usage_error({"policy", "add", "10.0.0.1", "share", "2"}).find("unknown keyword"),
		  std::string::npos);
	EXPECT_NE(usage_error({"policy", "del"}).find("which prefix"), std::string::npos);
	EXPECT_NE(usage_error({"policy", "del", "10.0.0.1", "x"}).find("unexpected"),
		  std::string::npos);
	EXPECT_NE(usage_error({"policy", "show", "x"}).find("unexpected"), std::string::npos);
	EXPECT_NE(usage_error({"policy", "flush", "x"}).find("unexpected"), std::string::npos);
	EXPECT_NE(usage_error({"policy", "move"}).find("unknown subcommand"), std::string::npos);
}

TEST(BoundArgs, NamespaceAndFields)
{
	Request r = parse_args({"bound", "c1", "pull-rate", "500", "max-weight", "4", "min-prio",
				"2"});
	EXPECT_EQ(r.command, Command::Bound);
	EXPECT_EQ(r.policy.netns, "c1");
	EXPECT_EQ(r.policy.bound.pull_rate_mbit, 500u);
	EXPECT_EQ(r.policy.bound.max_weight, 4u);
	EXPECT_EQ(r.policy.bound.min_prio, 2);
	r = parse_args({"bound", "/proc/1/ns/net", "none"});
	EXPECT_EQ(r.policy.netns, "/proc/1/ns/net");
	EXPECT_TRUE(r.policy.bound.empty());
	EXPECT_NE(usage_error({"bound"}).find("which namespace"), std::string::npos);
	EXPECT_NE(usage_error({"bound", "c1"}).find("nothing to bound"), std::string::npos);
	EXPECT_NE(usage_error({"bound", "c1", "none", "x"}).find("unexpected"), std::string::npos);
	EXPECT_NE(usage_error({"bound", "c1", "max-weight", "200"}).find("0..100"),
		  std::string::npos);
	EXPECT_NE(usage_error({"bound", "c1", "speed", "5"}).find("unknown keyword"),
		  std::string::npos);
}

TEST(Policy, ParsesRulesAndBoundAmongOtherAttributes)
{
	Attrs list, bound, a;

	list.nest(1, rule({10, 0, 1, 0}, 24, 3, 1, 0));
	list.nest(2, rule({0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 128, 1, 0, 100));
	bound.u32(EQDS_BOUND_A_PULL_RATE, 500).u8(EQDS_BOUND_A_MIN_PRIO, 1);
	a.u16(EQDS_A_PORT, 6666).nest(EQDS_A_POLICY, list).nest(EQDS_A_BOUND, bound).u32(250, 7);
	Policy p = parse(a);
	ASSERT_EQ(p.rules.size(), 2u);
	EXPECT_EQ(format_prefix(p.rules[0].prefix), "10.0.1.0/24");
	EXPECT_EQ(p.rules[0].weight, 3u);
	EXPECT_EQ(format_prefix(p.rules[1].prefix), "fd00::1/128");
	EXPECT_EQ(p.rules[1].prio, 0);
	EXPECT_EQ(p.rules[1].rate_mbit, 100u);
	EXPECT_EQ(p.bound.pull_rate_mbit, 500u);
	EXPECT_EQ(p.bound.max_weight, 0u);
	EXPECT_EQ(p.bound.min_prio, 1);

	std::ostringstream text, json;
	print_policy_text(text, p);
	EXPECT_EQ(text.str(), "10.0.1.0/24 weight 3 prio 1\n"
			      "fd00::1/128 weight 1 prio 0 rate 100Mbit\n"
			      "bound: pull-rate 500Mbit min-prio 1\n");
	print_policy_json(json, p, false);
	EXPECT_EQ(json.str(), "{\"policy\":[{\"prefix\":\"10.0.1.0/24\",\"weight\":3,\"prio\":1,"
			      "\"rate_mbit\":0},{\"prefix\":\"fd00::1/128\",\"weight\":1,"
			      "\"prio\":0,\"rate_mbit\":100}],\"bound\":{\"pull_rate_mbit\":500,"
			      "\"max_weight\":0,\"min_prio\":1}}\n");
	std::ostringstream ev;
	print_policy_event_text(ev, p);
	EXPECT_EQ(ev.str(), "policy 10.0.1.0/24 weight 3 prio 1;fd00::1/128 weight 1 prio 0 "
			    "rate 100Mbit;bound: pull-rate 500Mbit min-prio 1\n");
}

TEST(Policy, NoRulesNoBound)
{
	Attrs a;
	std::ostringstream text;

	a.nest(EQDS_A_POLICY, Attrs());
	Policy p = parse(a);
	EXPECT_TRUE(p.rules.empty());
	EXPECT_TRUE(p.bound.empty());
	print_policy_text(text, p);
	EXPECT_EQ(text.str(), "policy: none (every sender weight 1 prio 1)\n");
}

TEST(Policy, MalformedRepliesAreErrorsNotCrashes)
{
	Attrs no_len, bad_family, short_weight, list;

	no_len.u16(EQDS_POLICY_A_FAMILY, AF_INET).bin(EQDS_POLICY_A_ADDR, {10, 0, 0, 0});
	EXPECT_NE(reply_error(Attrs().nest(EQDS_A_POLICY, Attrs().nest(1, no_len))), "(no error)");
	bad_family.u16(EQDS_POLICY_A_FAMILY, 99).bin(EQDS_POLICY_A_ADDR, {10, 0, 0, 0})
		.u8(EQDS_POLICY_A_PREFIXLEN, 8);
	EXPECT_NE(reply_error(Attrs().nest(EQDS_A_POLICY, Attrs().nest(1, bad_family))),
		  "(no error)");
	short_weight.u16(EQDS_POLICY_A_FAMILY, AF_INET).bin(EQDS_POLICY_A_ADDR, {10, 0, 0, 0})
		.u8(EQDS_POLICY_A_PREFIXLEN, 8).u8(EQDS_POLICY_A_WEIGHT, 3);
	EXPECT_NE(reply_error(Attrs().nest(EQDS_A_POLICY, Attrs().nest(1, short_weight))),
		  "(no error)");
	// An attribute running past the end of the buffer.
	Attrs trunc = Attrs().nest(EQDS_A_POLICY, Attrs().nest(1, rule({10, 0, 0, 0}, 8, 1, 1, 0)));
	trunc.bytes.resize(trunc.bytes.size() - 6);
	EXPECT_NE(reply_error(trunc), "(no error)");
	EXPECT_NE(reply_error(Attrs().nest(EQDS_A_BOUND, Attrs().u16(EQDS_BOUND_A_PULL_RATE, 5))),
		  "(no error)");
}

TEST(Policy, AddReplacesTheSamePrefixDelRemovesIt)
{
	std::vector<PolicyRule> rules;
	PolicyRule a, b;

	a.prefix = parse_prefix("10.0.1.0/24");
	b.prefix = parse_prefix("10.0.2.0/24");
	EXPECT_TRUE(policy_add(rules, a));
	EXPECT_TRUE(policy_add(rules, b));
	EXPECT_FALSE(policy_add(rules, a));	// unchanged
	a.weight = 5;
	EXPECT_TRUE(policy_add(rules, a));
	ASSERT_EQ(rules.size(), 2u);
	EXPECT_EQ(rules[0].weight, 5u);
	EXPECT_TRUE(policy_del(rules, b.prefix));
	EXPECT_FALSE(policy_del(rules, b.prefix));
	ASSERT_EQ(rules.size(), 1u);
	EXPECT_EQ(rules[0].prefix, a.prefix);
}
