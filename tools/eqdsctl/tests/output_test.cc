// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "output.h"

#include <gtest/gtest.h>
#include <linux/eqds.h>

#include <sstream>

using namespace eqdsctl;

namespace {

Instance defaults()
{
	Instance i;
	i.version = "0.1.0";
	i.config.port = 6666;
	i.config.mode = EQDS_MODE_RTS;
	i.config.pull_rate_mbit = 0;
	i.config.headroom = 5;
	i.config.window = 150;
	i.config.queue_limit = 100;
	i.config.idle_timeout_ms = 10000;
	i.config.dests = std::vector<Prefix>{parse_prefix("10.0.0.0/24"), parse_prefix("fd00::/64")};
	uint64_t v = 0;
	for (const StatInfo &s : kStats)
		i.stats[s.name] = v++;
	return i;
}

std::string text(const Instance &i, bool stats)
{
	std::ostringstream out;
	print_text(out, i, stats);
	return out.str();
}

std::string json(const Instance &i, bool pretty = false)
{
	std::ostringstream out;
	print_json(out, i, pretty);
	return out.str();
}

} // namespace

TEST(Text, Defaults)
{
	EXPECT_EQ(text(defaults(), false),
		  "eqds: version 0.1.0\n"
		  "  port 6666  mode rts  pull-rate auto  headroom 5%\n"
		  "  window 150  queue-limit 100  idle-timeout 10000ms\n"
		  "  dests 10.0.0.0/24 fd00::/64\n");
}

TEST(Text, WithStats)
{
	Instance i = defaults();
	i.config.pull_rate_mbit = 25000;
	i.config.mode = EQDS_MODE_BURST;
	i.config.dests = std::vector<Prefix>{};
	EXPECT_EQ(text(i, true),
		  "eqds: version 0.1.0\n"
		  "  port 6666  mode burst  pull-rate 25Gbit  headroom 5%\n"
		  "  window 150  queue-limit 100  idle-timeout 10000ms\n"
		  "  dests none\n"
		  "  tx: packets 0  bytes 1  drops 8  ctrl 12\n"
		  "  rx: packets 2  bytes 3  drops 7  ctrl 11  arrived-bytes 62  ce-bytes 63\n"
		  "  pulls: sent 4  rcvd 5  credit-refused 27  pacer-runs 52  pacer-late-bytes 53\n"
		  "         rate 64\n"
		  "  tunnels: alive 6  created 9  reaped 10  restarts 18\n"
		  "  ctrl: acks-sent 13  nacks-sent 14  nacks-rcvd 15  rsts-sent 16  rsts-rcvd 17\n"
		  "        challenges-sent 45  fins-sent 46  fins-rcvd 47\n"
		  "  sender: rts-sent 21  syns-sent 22  retransmits 19  timeouts 20  mss-clamped 26\n"
		  "          outer-id-fallback 57  icmp-rcvd 58  mtu-split 59  mtu-fragmented 60\n"
		  "          small-borrowed 61\n"
		  "  reorder: held 23  late 24  skipped 25  outer-id-rewritten 56\n"
		  "  drops: queue-full 28  nomem 29  noroute 30  tunnel-limit 38  no-socket 39\n"
		  "         xmit 40  decode 31  inner 32  unknown 33  dup 34  window 35  stale 36\n"
		"         segs 37  peer 41  ctrl 42  tunnel-rate 43  epoch 44  queued-limit 50\n"
		"         deliver 54  local-port 55\n"
		"  classes: ll-queued 48  ecn-marked 49  queued-bytes 51\n");
}

TEST(Text, EveryCounterIsShownOnce)
{
	Instance i;
	uint64_t v = 100000;
	for (const StatInfo &s : kStats)
		i.stats[s.name] = v++;
	std::string out = text(i, true);
	for (const StatInfo &s : kStats) {
		std::string value = " " + std::to_string(i.stats[s.name]);
		size_t at = out.find(value);
		ASSERT_NE(at, std::string::npos) << s.name << " not shown";
		EXPECT_EQ(out.find(value, at + 1), std::string::npos) << s.name << " shown twice";
	}
	std::istringstream lines(out);
	for (std::string l; std::getline(lines, l);)
		EXPECT_LE(l.size(), 80u) << l;
	EXPECT_EQ(text(i, false), "eqds: version unknown\n");
}

TEST(Text, MissingFieldsAreLeftOut)
{
	Instance i;
	i.config.window = 3;
	i.stats["pulls_rcvd"] = 9;
	i.stats["drop_segs"] = 4;
	EXPECT_EQ(text(i, true), "eqds: version unknown\n"
				 "  window 3\n"
				 "  pulls: rcvd 9\n"
				 "  drops: segs 4\n");
	EXPECT_EQ(text(Instance{}, true), "eqds: version unknown\n");
}

TEST(Text, ControlCharactersInTheVersionAreMasked)
{
	Instance i;
	i.version = "1.0\x1b[31m\n";
	EXPECT_EQ(text(i, false), "eqds: version 1.0?[31m?\n");
}

TEST(Text, UnknownMode)
{
	Instance i;
	i.config.mode = 9;
	EXPECT_EQ(text(i, false), "eqds: version unknown\n  mode unknown(9)\n");
}

TEST(Json, Defaults)
{
	std::string s = json(defaults());
	const std::string head =
		"{\"version\":\"0.1.0\",\"port\":6666,\"mode\":\"rts\",\"pull_rate_mbit\":0,"
		"\"headroom\":5,\"window\":150,\"queue_limit\":100,\"idle_timeout_ms\":10000,"
		"\"dests\":[\"10.0.0.0/24\",\"fd00::/64\"],"
		"\"classes\":{\"tcp\":{\"queue_limit\":100,\"ecn_min\":null,\"ecn_max\":null,"
		"\"tc_priority\":null},\"ll\":{\"queue_limit\":null,\"ecn_min\":null,"
		"\"ecn_max\":null,\"tc_priority\":null,\"priority\":null,\"mark\":null,"
		"\"mark_mask\":null}},\"queued_limit_kb\":null,"
		"\"stats\":{\"tx_packets\":0,\"tx_bytes\":1,\"rx_packets\":2,\"rx_bytes\":3,"
		"\"pulls_sent\":4,\"pulls_rcvd\":5,\"tunnels\":6,\"rx_drops\":7,\"tx_drops\":8,"
		"\"tunnels_created\":9,";
	const std::string tail = ",\"drop_xmit\":40,\"drop_peer\":41,\"drop_ctrl\":42,"
				 "\"drop_tunnel_rate\":43,\"drop_epoch\":44,\"challenges_sent\":45,"
				 "\"fins_sent\":46,\"fins_rcvd\":47,\"ll_queued\":48,"
				 "\"ecn_marked\":49,\"drop_queued_limit\":50,\"queued_bytes\":51,"
				 "\"pacer_runs\":52,\"pacer_late_bytes\":53,"
				 "\"drop_deliver\":54,\"drop_local_port\":55,"
				 "\"outer_id_rewritten\":56,\"outer_id_fallback\":57,\"icmp_rcvd\":58,"
				 "\"mtu_split\":59,\"mtu_fragmented\":60,\"small_borrowed\":61,"
				 "\"rx_arrived_bytes\":62,\"rx_ce_bytes\":63,\"pull_rate\":64}}\n";
	EXPECT_EQ(s.substr(0, head.size()), head);
	ASSERT_GE(s.size(), tail.size());
	EXPECT_EQ(s.substr(s.size() - tail.size()), tail);
	uint64_t v = 0;
	for (const StatInfo &st : kStats) {
		std::string kv = "\"" + std::string(st.name) + "\":" + std::to_string(v++);
		EXPECT_TRUE(s.find(kv + ",") != std::string::npos ||
			    s.find(kv + "}") != std::string::npos)
			<< kv;
	}
}

TEST(Json, MissingValuesAreNullAndStatsAlwaysPresent)
{
	Instance i;
	i.version = "v\"1";
	i.config.dests = std::vector<Prefix>{};
	std::string s = json(i);
	const std::string head =
		"{\"version\":\"v\\\"1\",\"port\":null,\"mode\":null,\"pull_rate_mbit\":null,"
		"\"headroom\":null,\"window\":null,\"queue_limit\":null,\"idle_timeout_ms\":null,\"dests\":[],"
		"\"classes\":{\"tcp\":{\"queue_limit\":null,";
	EXPECT_EQ(s.substr(0, head.size()), head);
	size_t nulls = 0;
	for (size_t at = s.find(":null"); at != std::string::npos; at = s.find(":null", at + 1))
		nulls++;
	EXPECT_EQ(nulls, 7 + 12 + kStats.size());	// 12: the classes' settings
	EXPECT_NE(json(Instance{}).find("\"version\":null,"), std::string::npos);
	EXPECT_NE(json(Instance{}).find("\"dests\":null,"), std::string::npos);
}

TEST(Text, Classes)
{
	Instance i;
	i.config.tcp_ecn_min = 0;
	i.config.tcp_ecn_max = 80;
	i.config.tcp_tc_priority = 0x10010;
	i.config.ll_queue_limit = 16;
	i.config.ll_ecn_min = 4;
	i.config.ll_ecn_max = 0;
	i.config.ll_tc_priority = 6;
	i.config.ll_priority = 0;
	i.config.ll_mark = 1;
	i.config.ll_mark_mask = 0xff;
	i.config.queued_limit_kb = 65536;
	EXPECT_EQ(text(i, false),
		  "eqds: version unknown\n"
		  "  class tcp:  ecn-min auto  ecn-max 80  tc-priority 1:10\n"
		  "  class ll:  queue-limit 16  ecn-min 4  ecn-max auto  tc-priority 6  priority none"
		  "  mark 0x1/0xff\n"
		  "  queued-limit 65536kb\n");
	i.config.ll_mark_mask = 0;
	i.config.queued_limit_kb = 0;
	EXPECT_NE(text(i, false).find("mark none\n  queued-limit none\n"), std::string::npos);
}

TEST(Json, LargeCountersAreExact)
{
	Instance i;
	i.stats["tx_bytes"] = 18446744073709551615ull;
	EXPECT_NE(json(i).find("\"tx_bytes\":18446744073709551615,"), std::string::npos);
}

TEST(Json, Pretty)
{
	std::string s = json(defaults(), true);
	EXPECT_EQ(s.substr(0, 30), "{\n  \"version\": \"0.1.0\",\n  \"por");
	EXPECT_NE(s.find("  \"dests\": [\n    \"10.0.0.0/24\",\n    \"fd00::/64\"\n  ],\n"),
		  std::string::npos);
	const std::string tail = "    \"pull_rate\": 64\n  }\n}\n";
	ASSERT_GE(s.size(), tail.size());
	EXPECT_EQ(s.substr(s.size() - tail.size()), tail);
}
