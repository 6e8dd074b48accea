// SPDX-License-Identifier: GPL-2.0 OR MIT
// eqdsctl save/restore's file format: what save writes, restore reads back
// as the same configuration and policy.
#include "args.h"
#include "exit_status.h"
#include "saveconf.h"

#include <gtest/gtest.h>
#include <linux/eqds.h>

#include <fstream>
#include <sstream>

using namespace eqdsctl;

namespace {

Config full_config()
{
	Config c;
	c.port = 7777;
	c.dests = std::vector<Prefix>{parse_prefix("10.0.0.0/24"), parse_prefix("fd00::/64")};
	c.pull_rate_mbit = 25000;
	c.headroom = 7;
	c.mode = EQDS_MODE_BURST;
	c.window = 64;
	c.queue_limit = 200;
	c.idle_timeout_ms = 2500;
	c.tcp_ecn_min = 0;
	c.tcp_ecn_max = 80;
	c.tcp_tc_priority = 0x10010;
	c.ll_queue_limit = 8;
	c.ll_ecn_min = 2;
	c.ll_ecn_max = 0;
	c.ll_tc_priority = 6;
	c.ll_priority = 0;
	c.ll_mark = 0x100;
	c.ll_mark_mask = 0xff00;
	c.queued_limit_kb = 0;
	return c;
}

std::vector<PolicyRule> some_rules()
{
	return {{parse_prefix("10.0.1.0/24"), 3, 1, 0},
		{parse_prefix("fd00::1"), 1, 0, 1500},
		{parse_prefix("10.0.9.12"), 100, 3, 2000}};
}

Restore restore_text(const std::string &text)
{
	std::istringstream in(text);
	return parse_restore(in, "eqds.conf");
}

void expect_same(const Config &a, const Config &b)
{
	EXPECT_EQ(a.port, b.port);
	EXPECT_EQ(a.dests, b.dests);
	EXPECT_EQ(a.pull_rate_mbit, b.pull_rate_mbit);
	EXPECT_EQ(a.headroom, b.headroom);
	EXPECT_EQ(a.mode, b.mode);
	EXPECT_EQ(a.window, b.window);
	EXPECT_EQ(a.queue_limit, b.queue_limit);
	EXPECT_EQ(a.idle_timeout_ms, b.idle_timeout_ms);
	EXPECT_EQ(a.tcp_ecn_min, b.tcp_ecn_min);
	EXPECT_EQ(a.tcp_ecn_max, b.tcp_ecn_max);
	EXPECT_EQ(a.tcp_tc_priority, b.tcp_tc_priority);
	EXPECT_EQ(a.ll_queue_limit, b.ll_queue_limit);
	EXPECT_EQ(a.ll_ecn_min, b.ll_ecn_min);
	EXPECT_EQ(a.ll_ecn_max, b.ll_ecn_max);
	EXPECT_EQ(a.ll_tc_priority, b.ll_tc_priority);
	EXPECT_EQ(a.ll_priority, b.ll_priority);
	EXPECT_EQ(a.ll_mark, b.ll_mark);
	EXPECT_EQ(a.ll_mark_mask, b.ll_mark_mask);
	EXPECT_EQ(a.queued_limit_kb, b.queued_limit_kb);
}

} // namespace

TEST(SaveConf, RoundTripOfEveryParameterAndThePolicy)
{
	Config c = full_config();
	std::vector<PolicyRule> rules = some_rules();
	std::string text = save_text(c, rules);

	Restore r = restore_text(text);
	expect_same(r.config, c);
	// Restored over whatever rules there are, the policy becomes the file's.
	std::vector<PolicyRule> now = {{parse_prefix("192.168.0.0/16"), 5, 2, 0},
				       {parse_prefix("10.0.1.0/24"), 9, 0, 0}};
	apply_policy(now, r.policy);
	ASSERT_EQ(now.size(), rules.size()) << text;
	for (size_t i = 0; i < rules.size(); i++) {
		EXPECT_EQ(now[i].prefix, rules[i].prefix);
		EXPECT_EQ(now[i].weight, rules[i].weight);
		EXPECT_EQ(now[i].prio, rules[i].prio);
		EXPECT_EQ(now[i].rate_mbit, rules[i].rate_mbit);
	}
	// Saving what was restored gives the same file.
	EXPECT_EQ(save_text(r.config, now), text);
}

TEST(SaveConf, TheFileIsReadableCommandLines)
{
	std::string text = save_text(full_config(), some_rules());
	EXPECT_EQ(text,
		  "# eqds configuration: eqdsctl restore FILE applies it (eqdsctl(8))\n"
		  "set port 7777 mode burst pull-rate 25Gbit headroom 7\n"
		  "set window 64 queue-limit 200 idle-timeout 2500 queued-limit none\n"
		  "set tcp-ecn-min auto tcp-ecn-max 80 tcp-tc-priority 1:10\n"
		  "set ll-queue-limit 8 ll-ecn-min 2 ll-ecn-max auto ll-tc-priority 6 "
		  "ll-priority none ll-mark 0x100/0xff00\n"
		  "set dests 10.0.0.0/24,fd00::/64\n"
		  "policy flush\n"
		  "policy add 10.0.1.0/24 weight 3 prio 1\n"
		  "policy add fd00::1/128 weight 1 prio 0 rate 1500Mbit\n"
		  "policy add 10.0.9.12/32 weight 100 prio 3 rate 2Gbit\n");
	// Auto pull rate, no dests, no rules, no mark.
	Config c;
	c.pull_rate_mbit = 0;
	c.dests = std::vector<Prefix>{};
	c.ll_mark = 0;
	c.ll_mark_mask = 0;
	c.ll_priority = 6;
	text = save_text(c, {});
	EXPECT_EQ(text,
		  "# eqds configuration: eqdsctl restore FILE applies it (eqdsctl(8))\n"
		  "set pull-rate auto\n"
		  "set ll-priority 6 ll-mark none\n"
		  "set dests none\n"
		  "policy flush\n");
	Restore r = restore_text(text);
	expect_same(r.config, c);
	std::vector<PolicyRule> now = some_rules();
	apply_policy(now, r.policy);
	EXPECT_TRUE(now.empty());
}

TEST(SaveConf, HandWrittenFilesAndTheirErrors)
{
	Restore r = restore_text("# a comment\n"
				 "\n"
				 "   set port 1  # the port\n"
				 "se window 4\n"
				 "set port 2\n"
				 "pol rep 10.0.0.0/8 w 2\n");
	EXPECT_EQ(r.config.port, 2);	// the later line wins
	EXPECT_EQ(r.config.window, 4u);
	ASSERT_EQ(r.policy.size(), 1u);
	EXPECT_EQ(r.policy[0].op, PolicyRequest::Op::Replace);

	auto error = [](const std::string &text) {
		try {
			restore_text(text);
		} catch (const UsageError &e) {
			return std::string(e.what());
		}
		return std::string("(no error)");
	};
	EXPECT_EQ(error("set port 1\nset port 0\n"),
		  "eqds.conf:2: set: port: '0' is not in 1..65535");
	EXPECT_EQ(error("\n\ntunnel list\n"),
		  "eqds.conf:3: only set and policy (add, change, replace, del, flush) lines can "
		  "be restored");
	EXPECT_EQ(error("policy show\n"),
		  "eqds.conf:1: only set and policy (add, change, replace, del, flush) lines can "
		  "be restored");
	EXPECT_EQ(error("bound ns1 none\n").substr(0, 12), "eqds.conf:1:");
	EXPECT_EQ(error("set port 1 port 2\n"), "eqds.conf:1: set: 'port' given twice");

	// The policy lines act as the commands would, one after the other.
	std::vector<PolicyRule> rules = some_rules();
	r = restore_text("policy add 10.0.1.0/24 weight 2\n");
	EXPECT_THROW(apply_policy(rules, r.policy), StateError);
	r = restore_text("policy del 10.0.1.0/24\npolicy add 10.0.1.0/24 weight 2\n");
	apply_policy(rules, r.policy);
	EXPECT_EQ(rules.back().weight, 2u);
}

TEST(SaveConf, CommandLines)
{
	EXPECT_EQ(parse_args({"save"}).command, Command::Save);
	EXPECT_EQ(parse_args({"sa"}).command, Command::Save);
	Request r = parse_args({"-n", "ns1", "restore", "/etc/eqds/eqds.conf"});
	EXPECT_EQ(r.command, Command::Restore);
	EXPECT_EQ(r.file, "/etc/eqds/eqds.conf");
	EXPECT_EQ(parse_args({"rest", "-"}).file, "-");
	EXPECT_EQ(parse_args({"restore", "help"}).help_topic, Topic::Restore);
	EXPECT_EQ(parse_args({"save", "help"}).help_topic, Topic::Save);
	EXPECT_THROW(parse_args({"restore"}), UsageError);
	EXPECT_THROW(parse_args({"restore", "a", "b"}), UsageError);
	EXPECT_THROW(parse_args({"save", "x"}), UsageError);
}

// The shipped example is a file restore takes.
TEST(SaveConf, ExampleFileRestores)
{
	std::ifstream in(EQDSCTL_EXAMPLES_DIR "/eqds.conf");
	ASSERT_TRUE(in);
	Restore r = parse_restore(in, "eqds.conf");
	EXPECT_EQ(r.config.port, 6666);
	ASSERT_TRUE(r.config.dests);
	EXPECT_EQ(r.config.dests->size(), 2u);
	std::vector<PolicyRule> rules;
	apply_policy(rules, r.policy);
	ASSERT_EQ(rules.size(), 2u);
	EXPECT_EQ(rules[1].rate_mbit, 2000u);
}
