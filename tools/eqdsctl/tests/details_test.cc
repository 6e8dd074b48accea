// SPDX-License-Identifier: GPL-2.0 OR MIT
// eqdsctl -d: the values the kernel applies, derived from its replies, as
// text and JSON; the derivations are the kernel's (details.h names where).
#include "details.h"
#include "output.h"
#include "policy.h"
#include "tunnel_output.h"

#include <gtest/gtest.h>
#include <linux/eqds.h>

#include <sstream>

using namespace eqdsctl;

namespace {

bool has(const std::string &text, const std::string &what)
{
	return text.find(what) != std::string::npos;
}

Instance instance()
{
	Instance inst;
	Config &c = inst.config;
	inst.version = "0.1.0";
	c.port = 6666;
	c.pull_rate_mbit = 0;
	c.queue_limit = 101;
	c.tcp_ecn_min = 0;
	c.tcp_ecn_max = 0;
	c.ll_queue_limit = 16;
	c.ll_ecn_min = 4;
	c.ll_ecn_max = 2;
	return inst;
}

Policy policy()
{
	Policy p;
	p.rules.push_back({parse_prefix("10.0.0.0/8"), 2, 1, 0});
	p.rules.push_back({parse_prefix("10.0.1.0/24"), 8, 0, 300});
	p.rules.push_back({parse_prefix("fd00::/64"), 5, 3, 0});
	p.bound = {2000, 4, 1};
	return p;
}

} // namespace

// tx_tunnel.c admit(): min = ecn_min ?: DIV_ROUND_UP(limit, 2); max = max(ecn_max, min).
TEST(Details, EcnThresholdsAsTheSenderAppliesThem)
{
	EXPECT_EQ(effective_ecn(100, 0, 0).min, 50u);
	EXPECT_EQ(effective_ecn(100, 0, 0).max, 50u);
	EXPECT_EQ(effective_ecn(101, 0, 0).min, 51u);
	EXPECT_EQ(effective_ecn(101, 0, 80).max, 80u);
	EXPECT_EQ(effective_ecn(16, 4, 2).max, 4u);
	EXPECT_EQ(effective_ecn(1, 0, 0).min, 1u);
}

// pull.c update_rate(): the set rate (or auto) under the bound.
TEST(Details, PullRateUnderTheBound)
{
	EXPECT_EQ(pull_rate_max_mbit(0, {}), 0u);
	EXPECT_EQ(pull_rate_max_mbit(0, {2000, 0, 0}), 2000u);
	EXPECT_EQ(pull_rate_max_mbit(5000, {2000, 0, 0}), 2000u);
	EXPECT_EQ(pull_rate_max_mbit(1000, {2000, 0, 0}), 1000u);
	EXPECT_EQ(pull_rate_max_mbit(1000, {}), 1000u);
}

// policy.c: the longest prefix holding the sender, its weight and level
// clamped to the bound; no rule: weight 1, the default level.
TEST(Details, ShareOfASenderIsTheLongestPrefixsClampedToTheBound)
{
	Policy p = policy();
	Share s = share_for(p, parse_prefix("10.0.1.7"));
	ASSERT_TRUE(s.rule);
	EXPECT_EQ(format_prefix(*s.rule), "10.0.1.0/24");
	EXPECT_EQ(s.weight, 4u);	// 8 under max-weight 4
	EXPECT_EQ(s.prio, 1);		// 0 under min-prio 1
	EXPECT_EQ(s.rate_mbit, 300u);
	s = share_for(p, parse_prefix("10.9.0.1"));
	EXPECT_EQ(format_prefix(*s.rule), "10.0.0.0/8");
	EXPECT_EQ(s.weight, 2u);
	s = share_for(p, parse_prefix("fd00::1"));
	EXPECT_EQ(format_prefix(*s.rule), "fd00::/64");
	EXPECT_EQ(s.prio, 3);
	s = share_for(p, parse_prefix("11.0.0.1"));
	EXPECT_FALSE(s.rule);
	EXPECT_EQ(s.weight, 1u);
	EXPECT_EQ(s.prio, EQDS_PRIO_DEFAULT);
	// An IPv4 rule never holds an IPv6 sender, whatever its bytes.
	Policy v4;
	v4.rules.push_back({parse_prefix("0.0.0.0/0"), 7, 2, 0});
	EXPECT_FALSE(share_for(v4, parse_prefix("::1")).rule);
	EXPECT_TRUE(share_for(v4, parse_prefix("1.2.3.4")).rule);
	// Prefix lengths that end inside a byte.
	EXPECT_TRUE(prefix_holds(parse_prefix("10.0.0.0/9"), parse_prefix("10.127.0.1")));
	EXPECT_FALSE(prefix_holds(parse_prefix("10.0.0.0/9"), parse_prefix("10.128.0.1")));
	Bound b;
	b.min_prio = 2;
	EXPECT_EQ(default_share(b).prio, 2);
}

TEST(Details, ShowDetailsText)
{
	Instance inst = instance();
	std::ostringstream plain, d;
	Bound bound{2000, 4, 1};
	print_text(plain, inst, false);
	print_text(d, inst, false, &bound);
	EXPECT_FALSE(has(plain.str(), "effective"));
	EXPECT_FALSE(has(plain.str(), "bound"));
	EXPECT_TRUE(has(d.str(), "  effective: pull-rate auto (at most 2Gbit)  tcp-ecn-min 51  "
				 "tcp-ecn-max 51  ll-ecn-min 4  ll-ecn-max 4\n"))
		<< d.str();
	EXPECT_TRUE(has(d.str(), "  bound: pull-rate 2Gbit max-weight 4 min-prio 1\n")) << d.str();
	EXPECT_EQ(d.str().compare(0, plain.str().size(), plain.str()), 0);

	std::ostringstream none;
	Bound no_bound;
	print_text(none, inst, false, &no_bound);
	EXPECT_TRUE(has(none.str(), "  effective: pull-rate auto  tcp-ecn-min 51")) << none.str();
	EXPECT_TRUE(has(none.str(), "  bound: none\n"));
}

TEST(Details, ShowDetailsJsonAddsOneKeyAtTheEnd)
{
	Instance inst = instance();
	std::ostringstream plain, d;
	Bound bound{2000, 4, 1};
	print_json(plain, inst, false);
	print_json(d, inst, false, &bound);
	std::string p = plain.str(), j = d.str();
	ASSERT_GT(p.size(), 2u);
	// The same object, with "details" after "stats".
	EXPECT_EQ(j.compare(0, p.size() - 2, p, 0, p.size() - 2), 0) << j;
	EXPECT_TRUE(has(j, ",\"details\":{\"pull_rate_max_mbit\":2000,\"tcp_ecn_min\":51,"
			   "\"tcp_ecn_max\":51,\"ll_ecn_min\":4,\"ll_ecn_max\":4,\"bound\":"
			   "{\"pull_rate_mbit\":2000,\"max_weight\":4,\"min_prio\":1}}}\n"))
		<< j;
}

TEST(Details, PolicyShowDetails)
{
	Policy p = policy();
	std::ostringstream plain, d, j, jd;
	print_policy_text(plain, p);
	print_policy_text(d, p, true);
	EXPECT_FALSE(has(plain.str(), "effective"));
	EXPECT_TRUE(has(d.str(), "10.0.1.0/24 weight 8 prio 0 rate 300Mbit effective weight 4 "
				 "prio 1\n"))
		<< d.str();
	EXPECT_TRUE(has(d.str(), "10.0.0.0/8 weight 2 prio 1 effective weight 2 prio 1\n"));
	EXPECT_TRUE(has(d.str(), "default: weight 1 prio 1\nbound: pull-rate 2Gbit"));
	print_policy_json(j, p, false);
	print_policy_json(jd, p, false, true);
	EXPECT_FALSE(has(j.str(), "effective"));
	EXPECT_TRUE(has(jd.str(), "{\"prefix\":\"10.0.1.0/24\",\"weight\":8,\"prio\":0,"
				  "\"rate_mbit\":300,\"effective\":{\"weight\":4,\"prio\":1}}"))
		<< jd.str();
	EXPECT_TRUE(has(jd.str(), "\"default\":{\"weight\":1,\"prio\":1}}\n")) << jd.str();
}

TEST(Details, ReceivingTunnelShowsItsSendersShare)
{
	Policy p = policy();
	Tunnel rx;
	rx.dir = EQDS_TUNNEL_DIR_RX;
	rx.peer = parse_prefix("10.0.1.2");
	rx.fields["id"] = 3;
	Tunnel tx = rx;
	tx.dir = EQDS_TUNNEL_DIR_TX;

	std::ostringstream plain, d, txd;
	print_tunnel_text(plain, rx, false);
	print_tunnel_text(d, rx, false, &p);
	print_tunnel_text(txd, tx, false, &p);
	EXPECT_FALSE(has(plain.str(), "policy"));
	EXPECT_TRUE(has(d.str(), "\n    policy 10.0.1.0/24 weight 4 prio 1 rate 300Mbit\n"))
		<< d.str();
	EXPECT_FALSE(has(txd.str(), "policy"));	// a sender's share is its receiver's to say

	rx.peer = parse_prefix("192.168.0.1");
	std::ostringstream def;
	print_tunnel_text(def, rx, false, &p);
	EXPECT_TRUE(has(def.str(), "\n    policy default weight 1 prio 1\n")) << def.str();

	std::ostringstream js;
	JsonWriter w(js);
	write_tunnel_json(w, rx, false, &p);
	EXPECT_TRUE(has(js.str(), ",\"policy\":{\"prefix\":null,\"weight\":1,\"prio\":1,"
				  "\"rate_mbit\":0}}"))
		<< js.str();
}
