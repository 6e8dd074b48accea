// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "args.h"

#include "usage_error.h"

#include <gtest/gtest.h>
#include <linux/eqds.h>
#include <sys/socket.h>

using namespace eqdsctl;
using eqdsctl::test::usage_error;

namespace {

using Args = std::vector<std::string>;

} // namespace

TEST(Args, NoArgumentsMeansShow)
{
	Request r = parse_args({});
	EXPECT_EQ(r.command, Command::Show);
	EXPECT_FALSE(r.json);
	EXPECT_FALSE(r.stats);
	EXPECT_FALSE(r.pretty);
	EXPECT_TRUE(r.config.empty());
}

TEST(Args, ShowWithOptions)
{
	Request r = parse_args({"-j", "-s", "show"});
	EXPECT_EQ(r.command, Command::Show);
	EXPECT_TRUE(r.json);
	EXPECT_TRUE(r.stats);
	EXPECT_FALSE(r.pretty);

	r = parse_args({"--json", "--pretty", "--stats", "show"});
	EXPECT_TRUE(r.json && r.pretty && r.stats);

	r = parse_args({"-p", "show"});	// -p implies -j
	EXPECT_TRUE(r.json && r.pretty);
	EXPECT_FALSE(r.stats);

	r = parse_args({"-js"});		// clustered short options, default command
	EXPECT_EQ(r.command, Command::Show);
	EXPECT_TRUE(r.json && r.stats);

	r = parse_args({"-s", "--", "show"});
	EXPECT_TRUE(r.stats);
	EXPECT_EQ(r.command, Command::Show);
}

TEST(Args, HelpAndVersion)
{
	for (const Args &a : {Args{"help"}, Args{"-h"}, Args{"--help"}, Args{"-j", "-h", "bogus"},
			      Args{"set", "help"}, Args{"show", "help"}})
		EXPECT_EQ(parse_args(a).command, Command::Help) << a[0];
	EXPECT_EQ(parse_args({"--version"}).command, Command::Version);
	EXPECT_EQ(parse_args({"-V"}).command, Command::Version);
	EXPECT_NE(help_text().find("idle-timeout MS"), std::string::npos);
	EXPECT_NE(usage(Topic::Set).find("eqdsctl set"), std::string::npos);
}

TEST(Args, UnknownCommandOrOption)
{
	EXPECT_EQ(usage_error({"frobnicate"}), "unknown command 'frobnicate'");
	EXPECT_EQ(usage_error({"-x", "show"}), "unknown option '-x'");
	EXPECT_EQ(usage_error({"-jx"}), "unknown option '-x'");
	EXPECT_EQ(usage_error({"--jason"}), "unknown option '--jason'");
	EXPECT_EQ(usage_error({"show", "extra"}), "show: unexpected argument 'extra'");
	EXPECT_EQ(usage_error({"show", "-j"}),
		  "show: unexpected argument '-j' (options go before the command)");
	EXPECT_EQ(usage_error({"help", "me"}), "(no error)");	// help ignores the rest
}

TEST(Args, SetEverything)
{
	Request r = parse_args({"set", "port", "7777", "dests", "10.0.0.1/24,fd00::/64", "pull-rate",
				"25000", "headroom", "10%", "mode", "burst", "window", "20",
				"queue-limit", "4", "idle-timeout", "250"});
	EXPECT_EQ(r.command, Command::Set);
	const Config &c = r.config;
	EXPECT_EQ(c.port, 7777);
	ASSERT_TRUE(c.dests);
	ASSERT_EQ(c.dests->size(), 2u);
	EXPECT_EQ(format_prefix((*c.dests)[0]), "10.0.0.0/24");
	EXPECT_EQ(format_prefix((*c.dests)[1]), "fd00::/64");
	EXPECT_EQ(c.pull_rate_mbit, 25000u);
	EXPECT_EQ(c.headroom, 10);
	EXPECT_EQ(c.mode, EQDS_MODE_BURST);
	EXPECT_EQ(c.window, 20u);
	EXPECT_EQ(c.queue_limit, 4u);
	EXPECT_EQ(c.idle_timeout_ms, 250u);
}

TEST(Args, SetClasses)
{
	Request r = parse_args({"set", "tcp-ecn-min", "30", "tcp-ecn-max", "auto",
				"tcp-tc-priority", "1:10", "ll-queue-limit", "8", "ll-ecn-min", "2",
				"ll-ecn-max", "6", "ll-tc-priority", "6", "ll-priority", "none",
				"ll-mark", "0x100/0xff00", "queued-limit", "1024kb"});
	const Config &c = r.config;
	EXPECT_EQ(c.tcp_ecn_min, 30u);
	EXPECT_EQ(c.tcp_ecn_max, 0u);
	EXPECT_EQ(c.tcp_tc_priority, 0x10010u);
	EXPECT_EQ(c.ll_queue_limit, 8u);
	EXPECT_EQ(c.ll_ecn_min, 2u);
	EXPECT_EQ(c.ll_ecn_max, 6u);
	EXPECT_EQ(c.ll_tc_priority, 6u);
	EXPECT_EQ(c.ll_priority, 0u);
	EXPECT_EQ(c.ll_mark, 0x100u);
	EXPECT_EQ(c.ll_mark_mask, 0xff00u);
	EXPECT_EQ(c.queued_limit_kb, 1024u);
	EXPECT_EQ(parse_args({"set", "ll-mark", "5"}).config.ll_mark_mask, 0xffffffffu);
	EXPECT_EQ(parse_args({"set", "ll-mark", "none"}).config.ll_mark_mask, 0u);
	EXPECT_EQ(parse_args({"set", "queued-limit", "none"}).config.queued_limit_kb, 0u);
	EXPECT_EQ(parse_args({"set", "ll-priority", "ffff:ffff"}).config.ll_priority, 0xffffffffu);
	EXPECT_EQ(usage_error({"set", "ll-mark", "0x3/0x1"}),
		  "set: ll-mark: '0x3/0x1' has bits outside its mask");
	EXPECT_NE(usage_error({"set", "ll-tc-priority", "1:10000"}), "(no error)");
	EXPECT_NE(usage_error({"set", "ll-tc-priority", "x:1"}), "(no error)");
	EXPECT_NE(usage_error({"set", "ll-mark", "0x1g"}), "(no error)");
	EXPECT_NE(usage_error({"set", "ll-mark", "0x123456789"}), "(no error)");
	EXPECT_NE(usage_error({"set", "ll-queue-limit", "0"}), "(no error)");
	EXPECT_NE(usage_error({"set", "queued-limit", "4194305"}), "(no error)");
}

TEST(Args, SetOnlyWhatIsGiven)
{
	Request r = parse_args({"set", "mode", "rts"});
	EXPECT_EQ(r.config.mode, EQDS_MODE_RTS);
	EXPECT_FALSE(r.config.port);
	EXPECT_FALSE(r.config.dests);
	EXPECT_FALSE(r.config.pull_rate_mbit);
	EXPECT_FALSE(r.config.headroom);
	EXPECT_FALSE(r.config.window);
	EXPECT_FALSE(r.config.queue_limit);
	EXPECT_FALSE(r.config.idle_timeout_ms);
}

TEST(Args, SetDestsNoneIsAnEmptyList)
{
	Request r = parse_args({"set", "dests", "none"});
	ASSERT_TRUE(r.config.dests);
	EXPECT_TRUE(r.config.dests->empty());
	EXPECT_FALSE(r.config.empty());
}

TEST(Args, SetUnitsAndAuto)
{
	EXPECT_EQ(parse_args({"set", "pull-rate", "auto"}).config.pull_rate_mbit, 0u);
	EXPECT_EQ(parse_args({"set", "pull-rate", "0"}).config.pull_rate_mbit, 0u);
	EXPECT_EQ(parse_args({"set", "pull-rate", "100mbit"}).config.pull_rate_mbit, 100u);
	EXPECT_EQ(parse_args({"set", "pull-rate", "4294967295"}).config.pull_rate_mbit, 4294967295u);
	EXPECT_EQ(parse_args({"set", "idle-timeout", "10000ms"}).config.idle_timeout_ms, 10000u);
	EXPECT_EQ(usage_error({"set", "pull-rate", "4294967296"}),
		  "set: pull-rate: '4294967296' is not in 0..4294967295Mbit");
	EXPECT_EQ(parse_args({"set", "pull-rate", "10gbit"}).config.pull_rate_mbit, 10000u);
	EXPECT_NE(usage_error({"set", "pull-rate", "mbit"}).find("'mbit' is not a rate"),
		  std::string::npos);
	EXPECT_EQ(usage_error({"set", "idle-timeout", "10s"}),
		  "set: idle-timeout: '10s' is not a number in 100..3600000");
	EXPECT_EQ(usage_error({"set", "window", "10ms"}),
		  "set: window: '10ms' is not a number in 1..65535");
}

TEST(Args, SetRanges)
{
	EXPECT_EQ(parse_args({"set", "port", "1"}).config.port, 1);
	EXPECT_EQ(parse_args({"set", "port", "65535"}).config.port, 65535);
	EXPECT_EQ(usage_error({"set", "port", "0"}), "set: port: '0' is not in 1..65535");
	EXPECT_EQ(usage_error({"set", "port", "65536"}), "set: port: '65536' is not in 1..65535");
	EXPECT_EQ(usage_error({"set", "window", "0"}), "set: window: '0' is not in 1..65535");
	EXPECT_EQ(parse_args({"set", "window", "65535"}).config.window, 65535u);
	EXPECT_EQ(usage_error({"set", "queue-limit", "65536"}),
		  "set: queue-limit: '65536' is not in 1..65535");
	EXPECT_EQ(usage_error({"set", "idle-timeout", "99"}),
		  "set: idle-timeout: '99' is not in 100..3600000");
	EXPECT_EQ(parse_args({"set", "idle-timeout", "3600000"}).config.idle_timeout_ms, 3600000u);
	EXPECT_EQ(usage_error({"set", "idle-timeout", "3600001"}),
		  "set: idle-timeout: '3600001' is not in 100..3600000");
}

TEST(Args, SetRejectsNonNumbers)
{
	for (const char *v : {"", "-1", "+1", " 1", "1 ", "0x10", "1e3", "abc", "99999999999999999999",
			      "１"})
		EXPECT_NE(usage_error({"set", "port", v}).find("is not a number in 1..65535"),
			  std::string::npos)
			<< v;
}

TEST(Args, SetKeywordErrors)
{
	EXPECT_EQ(usage_error({"set"}), "set: nothing to set");
	EXPECT_EQ(usage_error({"set", "port"}), "set: 'port' needs a value");
	EXPECT_EQ(usage_error({"set", "port", "1", "port", "2"}), "set: 'port' given twice");
	EXPECT_EQ(usage_error({"set", "dests", "none", "dests", "10.0.0.0/8"}),
		  "set: 'dests' given twice");
	EXPECT_EQ(usage_error({"set", "speed", "10"}), "set: unexpected argument 'speed'");
	EXPECT_EQ(usage_error({"set", "port", "1", "-j"}),
		  "set: unexpected argument '-j' (options go before the command)");
	EXPECT_EQ(usage_error({"set", "mode", "fast"}), "set: mode: 'fast' is not rts or burst");
	EXPECT_EQ(usage_error({"set", "mode", "RTS"}), "set: mode: 'RTS' is not rts or burst");
}

TEST(Args, SetDestsErrors)
{
	EXPECT_EQ(usage_error({"set", "dests", "10.0.0.0/33"}),
		  "set: dests: '10.0.0.0/33': prefix length must be 0..32");
	EXPECT_EQ(usage_error({"set", "dests", "10.0.0.0/8,bogus"}),
		  "set: dests: 'bogus': 'bogus' is not an IPv4 or IPv6 address");
	EXPECT_EQ(usage_error({"set", "dests", "10.0.0.0/8,,fd00::/8"}),
		  "set: dests: empty entry in '10.0.0.0/8,,fd00::/8'");
	EXPECT_EQ(usage_error({"set", "dests", "10.0.0.0/8,"}),
		  "set: dests: empty entry in '10.0.0.0/8,'");
	EXPECT_EQ(usage_error({"set", "dests", ""}), "set: dests: empty list (use 'none' to clear it)");
	EXPECT_EQ(usage_error({"set", "dests", "none,10.0.0.0/8"}),
		  "set: dests: 'none': 'none' is not an IPv4 or IPv6 address");
	EXPECT_EQ(usage_error({"set", "dests", "10.0.0.1/24,10.0.0.2/24"}),
		  "set: dests: '10.0.0.2/24' repeats '10.0.0.1/24' (both are 10.0.0.0/24)");
}

TEST(Args, SetDestsLimit)
{
	std::string list;
	for (int i = 0; i < EQDS_MAX_DESTS; i++)
		list += (i ? "," : "") + std::string("10.0.") + std::to_string(i) + ".0/24";
	Request r = parse_args({"set", "dests", list});
	ASSERT_TRUE(r.config.dests);
	EXPECT_EQ(r.config.dests->size(), static_cast<size_t>(EQDS_MAX_DESTS));
	EXPECT_EQ(r.config.dests->back().family, AF_INET);

	list += ",fd00::/8";
	EXPECT_EQ(usage_error({"set", "dests", list}), "set: dests: more than 64 prefixes");
}

TEST(Args, Headroom)
{
	EXPECT_EQ(parse_args({"set", "headroom", "0"}).config.headroom, 0);
	EXPECT_EQ(parse_args({"set", "headroom", "50"}).config.headroom, 50);
	EXPECT_EQ(parse_args({"set", "headroom", "7%"}).config.headroom, 7);
	EXPECT_THROW(parse_args({"set", "headroom", "51"}), UsageError);
	EXPECT_THROW(parse_args({"set", "headroom", "-1"}), UsageError);
	EXPECT_THROW(parse_args({"set", "headroom", "5.5"}), UsageError);
	EXPECT_THROW(parse_args({"set", "headroom"}), UsageError);
}

// The ranges the help states are the uapi header's, the ones parse_args()
// and the kernel enforce: stated once.
TEST(Args, HelpStatesTheUapiRanges)
{
	auto range = [](long lo, long hi) { return std::to_string(lo) + ".." + std::to_string(hi); };
	std::string set = help_text(Topic::Set), pol = help_text(Topic::Policy);

	for (const std::string &r :
	     {range(EQDS_WINDOW_MIN, EQDS_WINDOW_MAX), range(EQDS_QUEUE_LIMIT_MIN, EQDS_QUEUE_LIMIT_MAX),
	      range(EQDS_IDLE_TIMEOUT_MIN, EQDS_IDLE_TIMEOUT_MAX), range(0, EQDS_HEADROOM_MAX),
	      range(0, EQDS_QUEUED_LIMIT_KB_MAX), range(EQDS_PORT_MIN, 65535),
	      "at most " + std::to_string(EQDS_MAX_DESTS)})
		EXPECT_NE(set.find(r), std::string::npos) << r;
	EXPECT_NE(pol.find(range(1, EQDS_WEIGHT_MAX)), std::string::npos);
	EXPECT_NE(pol.find(range(0, EQDS_PRIO_MAX)), std::string::npos);
}
