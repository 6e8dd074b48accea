// SPDX-License-Identifier: GPL-2.0 OR MIT
// eqdsctl's command-line conventions against ip, tc and wg: each test here is
// a row of the table in Documentation/eqdsctl.rst.
#include "args.h"
#include "exit_status.h"
#include "instance.h"
#include "keyword.h"
#include "netlink.h"
#include "netns.h"
#include "policy.h"
#include "rate.h"

#include "usage_error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <sstream>

#include <unistd.h>
#include <linux/eqds.h>

using namespace eqdsctl;
using eqdsctl::test::usage_error;

// ip: "ip a", "ip r l", "ip link sh": a keyword may be shortened to any
// prefix that names it alone.
TEST(Conventions, UniquePrefixOfEveryKeyword)
{
	EXPECT_EQ(parse_args({"s"}).command, Command::Show);
	EXPECT_EQ(parse_args({"sh"}).command, Command::Show);
	EXPECT_EQ(parse_args({"se", "win", "10"}).config.window, 10u);
	EXPECT_EQ(parse_args({"tun"}).command, Command::TunnelList);
	EXPECT_EQ(parse_args({"t", "l"}).command, Command::TunnelList);
	Request r = parse_args({"tun", "l", "t"});
	EXPECT_EQ(r.command, Command::TunnelList);
	EXPECT_EQ(r.dir, EQDS_TUNNEL_DIR_TX);
	r = parse_args({"tunnel", "s", "10.0.0.1", "r"});
	EXPECT_EQ(r.command, Command::TunnelShow);
	EXPECT_EQ(r.dir, EQDS_TUNNEL_DIR_RX);
	EXPECT_EQ(parse_args({"mon", "t"}).command, Command::Monitor);
	EXPECT_EQ(parse_args({"pol"}).command, Command::Policy);
	EXPECT_EQ(parse_args({"pol", "l"}).policy.op, PolicyRequest::Op::Show);
	r = parse_args({"p", "a", "10.0.0.0/8", "w", "3", "pr", "2", "r", "100"});
	EXPECT_EQ(r.policy.op, PolicyRequest::Op::Add);
	EXPECT_EQ(r.policy.rule.weight, 3u);
	EXPECT_EQ(r.policy.rule.prio, 2);
	EXPECT_EQ(r.policy.rule.rate_mbit, 100u);
	EXPECT_EQ(parse_args({"pol", "de", "10.0.0.0/8"}).policy.op, PolicyRequest::Op::Del);
	EXPECT_EQ(parse_args({"pol", "f"}).policy.op, PolicyRequest::Op::Flush);
	r = parse_args({"b", "ns1", "pu", "100", "ma", "4", "mi", "1"});
	EXPECT_EQ(r.command, Command::Bound);
	EXPECT_EQ(r.policy.bound.pull_rate_mbit, 100u);
	EXPECT_EQ(r.policy.bound.max_weight, 4u);
	EXPECT_EQ(r.policy.bound.min_prio, 1);
	r = parse_args({"set", "pull", "100", "mo", "b", "queue-", "5", "queued", "none"});
	EXPECT_EQ(r.config.pull_rate_mbit, 100u);
	EXPECT_EQ(r.config.mode, EQDS_MODE_BURST);
	EXPECT_EQ(r.config.queue_limit, 5u);
	EXPECT_EQ(r.config.queued_limit_kb, 0u);
	r = parse_args({"--js", "--st", "--pre"});
	EXPECT_TRUE(r.json && r.stats && r.pretty);
	EXPECT_EQ(parse_args({"--vers"}).command, Command::Version);
	EXPECT_EQ(parse_args({"he"}).command, Command::Help);
}

TEST(Conventions, AmbiguousPrefixIsAUsageErrorNamingTheCandidates)
{
	EXPECT_EQ(usage_error({"set", "p", "1"}), "set: 'p' is ambiguous: port, pull-rate");
	EXPECT_EQ(usage_error({"set", "queue", "1"}),
		  "set: 'queue' is ambiguous: queue-limit, queued-limit");
	EXPECT_EQ(usage_error({"set", "ll-ecn", "1"}),
		  "set: 'll-ecn' is ambiguous: ll-ecn-min, ll-ecn-max");
	EXPECT_EQ(usage_error({"bound", "ns1", "m", "1"}),
		  "bound: 'm' is ambiguous: max-weight, min-prio");
	EXPECT_THROW(match_keyword("x", "a", {{"ab"}, {"ac"}}), UsageError);
	EXPECT_EQ(match_keyword("x", "a", {{"ab"}, {"ac"}}, "ac"), "ac");
	EXPECT_EQ(match_keyword("x", "ab", {{"ab"}, {"abc"}}), "ab");
	EXPECT_EQ(match_keyword("x", "", {{"ab"}}), std::nullopt);
	// Aliases of one keyword are one candidate; an exact name always wins.
	EXPECT_EQ(parse_args({"pol", "del", "10.0.0.0/8"}).policy.op, PolicyRequest::Op::Del);
	EXPECT_EQ(parse_args({"pol", "ls"}).policy.op, PolicyRequest::Op::Show);
	// An unknown word is still named as such.
	EXPECT_EQ(usage_error({"set", "speed", "10"}), "set: unexpected argument 'speed'");
	EXPECT_EQ(usage_error({"tun", "x"}), "tunnel: unknown subcommand 'x' (list or show)");
}

namespace {

Topic usage_topic(const std::vector<std::string> &args)
{
	try {
		parse_args(args);
	} catch (const UsageError &e) {
		return e.topic();
	}
	ADD_FAILURE() << "no usage error";
	return Topic::All;
}

bool has(const std::string &text, const char *what)
{
	return text.find(what) != std::string::npos;
}

} // namespace

// ip: "ip route help" prints the usage of ip route only.
TEST(Conventions, HelpPerSubcommand)
{
	struct {
		std::vector<std::string> args;
		Topic topic;
	} cases[] = {
		{{"help"}, Topic::All},		     {{"show", "help"}, Topic::Show},
		{{"set", "help"}, Topic::Set},	     {{"tunnel", "help"}, Topic::Tunnel},
		{{"monitor", "help"}, Topic::Monitor}, {{"policy", "help"}, Topic::Policy},
		{{"pol", "he"}, Topic::Policy},	     {{"bound", "help"}, Topic::Bound},
		{{"help", "policy"}, Topic::Policy},   {{"help", "tun"}, Topic::Tunnel},
	};
	for (const auto &c : cases) {
		Request r = parse_args(c.args);
		EXPECT_EQ(r.command, Command::Help) << c.args[0];
		EXPECT_EQ(r.help_topic, c.topic) << c.args[0];
	}
	std::string policy = help_text(Topic::Policy);
	EXPECT_TRUE(has(policy, "Usage: eqdsctl [-j|-p] policy")) << policy;
	EXPECT_TRUE(has(policy, "flush"));
	EXPECT_FALSE(has(policy, "tunnel list"));
	EXPECT_FALSE(has(policy, "eqdsctl set"));
	EXPECT_FALSE(has(policy, "idle-timeout"));
	std::string set = help_text(Topic::Set);
	EXPECT_TRUE(has(set, "Usage: eqdsctl set"));
	EXPECT_TRUE(has(set, "idle-timeout MS"));
	EXPECT_FALSE(has(set, "policy"));
	std::string all = help_text(Topic::All);
	for (const char *s : {"eqdsctl set", "tunnel", "monitor", "policy", "bound", "Exit status"})
		EXPECT_TRUE(has(all, s)) << s;
}

// ip: a bad "ip route" line prints ip route's usage, not every object's.
TEST(Conventions, UsageErrorShowsTheSubcommandsUsageOnly)
{
	EXPECT_EQ(usage_topic({"set", "bogus", "1"}), Topic::Set);
	EXPECT_EQ(usage_topic({"policy", "add"}), Topic::Policy);
	EXPECT_EQ(usage_topic({"pol", "bogus"}), Topic::Policy);
	EXPECT_EQ(usage_topic({"tunnel", "show"}), Topic::Tunnel);
	EXPECT_EQ(usage_topic({"monitor", "x"}), Topic::Monitor);
	EXPECT_EQ(usage_topic({"bound"}), Topic::Bound);
	EXPECT_EQ(usage_topic({"show", "x"}), Topic::Show);
	EXPECT_EQ(usage_topic({"frobnicate"}), Topic::All);
	EXPECT_EQ(usage_topic({"-x"}), Topic::All);

	std::string policy = usage(Topic::Policy);
	EXPECT_TRUE(has(policy, "Usage: eqdsctl [-j|-p] policy"));
	EXPECT_FALSE(has(policy, "eqdsctl set"));
	EXPECT_LE(std::count(policy.begin(), policy.end(), '\n'), 4);
	// A bad command or option: one line of commands, not every synopsis.
	std::string all = usage(Topic::All);
	EXPECT_EQ(std::count(all.begin(), all.end(), '\n'), 2) << all;
	EXPECT_TRUE(has(all, "eqdsctl help"));
}

// ip(8): "Exit status is 0 if command was successful, and 1 if there is a
// syntax error. If an error was reported by the kernel exit status is 2."
TEST(Conventions, ExitStatusOneForUsageTwoForTheKernel)
{
	EXPECT_EQ(kExitOk, 0);
	EXPECT_EQ(exit_status(UsageError("x")), 1);
	EXPECT_EQ(exit_status(ArgumentError("no such namespace")), 1);
	EXPECT_EQ(exit_status(KernelError(EEXIST, "")), 2);
	EXPECT_EQ(exit_status(KernelError(EPERM, "need CAP_NET_ADMIN")), 2);
	EXPECT_EQ(exit_status(FamilyNotFound("eqds")), 2);
	EXPECT_EQ(exit_status(NetlinkError("recv", 1)), 2);
	EXPECT_EQ(exit_status(ReplyError("truncated")), 2);
	EXPECT_EQ(exit_status(StateError("no rule for 10.0.0.0/8")), 2);
	EXPECT_EQ(exit_status(std::runtime_error("cannot write the output")), 1);
}

// tc(8) rates: bit, kbit, mbit, gbit, tbit (and the IEC kibit...) or bytes
// per second with bps, kbps...; any case; decimals. A bare number stays
// Mbit/s, eqdsctl's unit since its first version (tc's would be bit/s).
TEST(Conventions, TcRatesInAnyCase)
{
	struct {
		const char *word;
		uint32_t mbit;
	} ok[] = {
		{"100", 100},		{"100mbit", 100},	{"100Mbit", 100},
		{"100MBIT", 100},	{"10gbit", 10000},	{"10Gbit", 10000},
		{"1.5gbit", 1500},	{"0.5Gbit", 500},	{"2500000kbit", 2500},
		{"100000000bit", 100},	{"1tbit", 1000000},	{"100mbps", 800},
		{"100MBps", 800},	{"1.25GBps", 10000},	{"125000kbps", 1000},
		{"1000000000bps", 8000}, {"4294967295", 4294967295u}, {"0", 0},
		{"4294.967295tbit", 4294967295u},
	};
	for (const auto &c : ok) {
		EXPECT_EQ(parse_rate_mbit("set", "pull-rate", c.word), c.mbit) << c.word;
		EXPECT_EQ(parse_args({"set", "pull-rate", c.word}).config.pull_rate_mbit, c.mbit)
			<< c.word;
		EXPECT_EQ(parse_args({"policy", "add", "10.0.0.0/8", "rate", c.word})
				  .policy.rule.rate_mbit, c.mbit) << c.word;
		EXPECT_EQ(parse_args({"bound", "ns1", "pull-rate", c.word})
				  .policy.bound.pull_rate_mbit, c.mbit) << c.word;
	}
	EXPECT_EQ(usage_error({"set", "pull-rate", "1500kbit"}),
		  "set: pull-rate: '1500kbit' is not a whole number of Mbit/s");
	EXPECT_EQ(usage_error({"set", "pull-rate", "1kbps"}),
		  "set: pull-rate: '1kbps' is not a whole number of Mbit/s");
	EXPECT_EQ(usage_error({"set", "pull-rate", "4294967296"}),
		  "set: pull-rate: '4294967296' is not in 0..4294967295Mbit");
	EXPECT_EQ(usage_error({"set", "pull-rate", "5000tbit"}),
		  "set: pull-rate: '5000tbit' is not in 0..4294967295Mbit");
	for (const char *bad : {"", "mbit", "1.mbit", ".5gbit", "1..5gbit", "1e3mbit", "-1mbit",
				"+1mbit", " 1mbit", "1 mbit", "1mbits", "1xbit", "10gb", "0x10",
				"1,5gbit", "99999999999999999999999mbit"})
		EXPECT_EQ(usage_error({"policy", "add", "10.0.0.0/8", "rate", bad}),
			  std::string("policy add: rate: '") + bad +
				  "' is not a rate (N[.N] and a unit: bit, kbit, mbit, gbit, tbit, "
				  "bps, kbps, mbps, gbps, tbps; none: Mbit/s)")
			<< bad;
}

// What show prints is what add takes: every rate printed reads back the same.
TEST(Conventions, ShownRatesAreValidInput)
{
	for (uint32_t mbit : {1u, 100u, 999u, 1000u, 1500u, 10000u, 25000u, 1000000u, 1234567u,
			      4294967295u, 4294000000u}) {
		std::string text = format_rate_mbit(mbit);
		EXPECT_EQ(parse_rate_mbit("x", "rate", text), mbit) << text;
	}
	EXPECT_EQ(format_rate_mbit(100), "100Mbit");
	EXPECT_EQ(format_rate_mbit(10000), "10Gbit");
	EXPECT_EQ(format_rate_mbit(1500), "1500Mbit");
	EXPECT_EQ(format_rate_mbit(2000000), "2Tbit");

	// policy show's lines are policy add's arguments, its bound line bound's.
	Policy pol;
	pol.rules.push_back({parse_prefix("10.0.1.0/24"), 3, 1, 0});
	pol.rules.push_back({parse_prefix("fd00::1"), 1, 0, 2500});
	pol.rules.push_back({parse_prefix("10.0.9.12"), 100, 3, 40000});
	pol.bound = {10000, 4, 1};
	std::ostringstream text;
	print_policy_text(text, pol);
	std::istringstream lines(text.str());
	std::string line;
	size_t n = 0;
	while (std::getline(lines, line)) {
		std::istringstream ws(line);
		std::vector<std::string> words;
		for (std::string w; ws >> w;)
			words.push_back(w);
		if (words[0] == "bound:") {
			words[0] = "ns1";
			words.insert(words.begin(), "bound");
			Bound b = parse_args(words).policy.bound;
			EXPECT_EQ(b.pull_rate_mbit, pol.bound.pull_rate_mbit) << line;
			EXPECT_EQ(b.max_weight, pol.bound.max_weight) << line;
			EXPECT_EQ(b.min_prio, pol.bound.min_prio) << line;
			continue;
		}
		words.insert(words.begin(), {"policy", "add"});
		PolicyRule r = parse_args(words).policy.rule;
		ASSERT_LT(n, pol.rules.size()) << line;
		EXPECT_EQ(r.prefix, pol.rules[n].prefix) << line;
		EXPECT_EQ(r.weight, pol.rules[n].weight) << line;
		EXPECT_EQ(r.prio, pol.rules[n].prio) << line;
		EXPECT_EQ(r.rate_mbit, pol.rules[n].rate_mbit) << line;
		n++;
	}
	EXPECT_EQ(n, pol.rules.size()) << text.str();
}

// ip -n NETNS: the command runs in the namespace /var/run/netns/NETNS, as
// "ip netns exec NETNS" would, and a missing one is named as ip names it.
TEST(Conventions, NetnsOption)
{
	EXPECT_EQ(parse_args({"-n", "blue", "show"}).netns, "blue");
	EXPECT_EQ(parse_args({"--netns", "blue"}).netns, "blue");
	EXPECT_EQ(parse_args({"--net", "blue", "pol"}).netns, "blue");
	EXPECT_EQ(parse_args({"-jn", "blue", "tunnel"}).netns, "blue");
	Request r = parse_args({"-n", "blue", "-j", "policy"});
	EXPECT_EQ(r.netns, "blue");
	EXPECT_TRUE(r.json);
	EXPECT_EQ(r.command, Command::Policy);
	EXPECT_EQ(parse_args({"show"}).netns, "");
	EXPECT_EQ(usage_error({"-n"}), "option '-n' needs a namespace name");
	EXPECT_EQ(usage_error({"-n", ""}), "option '-n' needs a namespace name");
	EXPECT_EQ(usage_error({"-nj", "blue"}), "option '-n' needs a namespace name");
	EXPECT_EQ(netns_path("blue"), "/var/run/netns/blue");
	EXPECT_EQ(netns_path("/proc/1/ns/net"), "/proc/1/ns/net");
	try {
		enter_netns("eqdsctl-test-no-such-netns");
		ADD_FAILURE() << "entered a namespace that does not exist";
	} catch (const ArgumentError &e) {
		EXPECT_STREQ(e.what(), "Cannot open network namespace \"eqdsctl-test-no-such-netns\": "
				       "No such file or directory");
		EXPECT_EQ(exit_status(e), 1);
	}
	// Entering a namespace by path (our own: nothing changes); root only.
	if (geteuid() == 0) {
		EXPECT_NO_THROW(enter_netns("/proc/self/ns/net"));
	}
}

// ip: "add" fails with EEXIST on an existing entry, "change" fails on a
// missing one, "replace" does either.
TEST(Conventions, PolicyAddFailsOnAnExistingRuleReplaceAndChangeUpdate)
{
	EXPECT_EQ(parse_args({"policy", "add", "10.0.0.0/8"}).policy.op, PolicyRequest::Op::Add);
	EXPECT_EQ(parse_args({"policy", "change", "10.0.0.0/8"}).policy.op,
		  PolicyRequest::Op::Change);
	EXPECT_EQ(parse_args({"policy", "replace", "10.0.0.0/8"}).policy.op,
		  PolicyRequest::Op::Replace);
	EXPECT_EQ(parse_args({"pol", "rep", "10.0.0.0/8"}).policy.op, PolicyRequest::Op::Replace);

	PolicyRule a{parse_prefix("10.0.0.0/8"), 2, 1, 0};
	PolicyRule a3{parse_prefix("10.0.0.0/8"), 3, 1, 0};
	PolicyRule b{parse_prefix("10.1.0.0/16"), 1, 0, 0};
	std::vector<PolicyRule> rules;
	using Op = PolicyRequest::Op;

	EXPECT_TRUE(policy_apply(rules, Op::Add, a));
	ASSERT_EQ(rules.size(), 1u);
	try {
		policy_apply(rules, Op::Add, a3);
		ADD_FAILURE() << "add replaced an existing rule";
	} catch (const StateError &e) {
		EXPECT_STREQ(e.what(), "a rule for 10.0.0.0/8 exists (File exists): "
				       "'policy replace' or 'policy change' updates it");
		EXPECT_EQ(exit_status(e), 2);
	}
	EXPECT_EQ(rules[0].weight, 2u);	// untouched
	try {
		policy_apply(rules, Op::Change, b);
		ADD_FAILURE() << "change created a rule";
	} catch (const StateError &e) {
		EXPECT_STREQ(e.what(), "no rule for 10.1.0.0/16 (No such file or directory): "
				       "'policy add' or 'policy replace' creates it");
	}
	EXPECT_EQ(rules.size(), 1u);
	EXPECT_TRUE(policy_apply(rules, Op::Change, a3));
	EXPECT_EQ(rules[0].weight, 3u);
	EXPECT_FALSE(policy_apply(rules, Op::Change, a3));	// the same: nothing to write
	EXPECT_TRUE(policy_apply(rules, Op::Replace, a));
	EXPECT_EQ(rules[0].weight, 2u);
	EXPECT_TRUE(policy_apply(rules, Op::Replace, b));
	EXPECT_EQ(rules.size(), 2u);
}
