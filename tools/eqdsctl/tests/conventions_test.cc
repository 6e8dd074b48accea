// SPDX-License-Identifier: GPL-2.0 OR MIT
// eqdsctl's command-line conventions against ip, tc and wg: each test here is
// a row of the table in Documentation/eqdsctl.rst.
#include "args.h"
#include "exit_status.h"
#include "instance.h"
#include "keyword.h"
#include "netlink.h"

#include "usage_error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
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
