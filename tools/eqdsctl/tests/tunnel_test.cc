// SPDX-License-Identifier: GPL-2.0 OR MIT
// Tunnels: parsing GET_TUNNEL replies and notifications, the request nest,
// the command line of "tunnel" and "monitor", and text and JSON output.
#include "tunnel.h"

#include "args.h"
#include "attr_builder.h"
#include "instance.h"
#include "tunnel_output.h"
#include "usage_error.h"

#include <gtest/gtest.h>
#include <linux/eqds.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <sys/socket.h>

#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <sstream>

using namespace eqdsctl;
using eqdsctl::test::Attrs;
using eqdsctl::test::usage_error;

namespace {

Attrs tx_stats()
{
	Attrs s;
	uint64_t v = 1;
	for (uint16_t a : {EQDS_TUNNEL_STATS_A_PACKETS, EQDS_TUNNEL_STATS_A_BYTES,
			   EQDS_TUNNEL_STATS_A_RETRANSMITS, EQDS_TUNNEL_STATS_A_NACKS,
			   EQDS_TUNNEL_STATS_A_DROPS, EQDS_TUNNEL_STATS_A_PULLS,
			   EQDS_TUNNEL_STATS_A_RESTARTS, EQDS_TUNNEL_STATS_A_TIMEOUTS,
			   EQDS_TUNNEL_STATS_A_RTS, EQDS_TUNNEL_STATS_A_PATHS_PENALISED,
			   EQDS_TUNNEL_STATS_A_PATH_PENALTIES, EQDS_TUNNEL_STATS_A_REPATHS,
			   EQDS_TUNNEL_STATS_A_PATH_PENALTIES_IGNORED}) {
		s.raw_attr(EQDS_TUNNEL_STATS_A_PAD, nullptr, 0);	// as nla_put_u64_64bit may
		s.u64(a, v++);
	}
	return s;
}

// A sending tunnel as the kernel reports it.
Attrs tx_tunnel()
{
	Attrs t;
	t.u32(EQDS_TUNNEL_A_ID, 7)
		.u8(EQDS_TUNNEL_A_DIR, EQDS_TUNNEL_DIR_TX)
		.u16(EQDS_TUNNEL_A_FAMILY, AF_INET)
		.bin(EQDS_TUNNEL_A_PEER, {10, 0, 0, 2})
		.u32(EQDS_TUNNEL_A_EPOCH, 4000000000u)
		.u8(EQDS_TUNNEL_A_STATE, EQDS_TUNNEL_STATE_CONFIRMED)
		.u32(EQDS_TUNNEL_A_IDLE_MS, 20)
		.u32(EQDS_TUNNEL_A_WINDOW, 230400)
		.u32(EQDS_TUNNEL_A_QUANTUM, 1536)
		.u32(EQDS_TUNNEL_A_HEARD_MS, 5)
		.u32(EQDS_TUNNEL_A_CREDIT, 3072)
		.u32(EQDS_TUNNEL_A_QUEUE_LEN, 1)
		.u64(EQDS_TUNNEL_A_QUEUE_BYTES, 1514)
		.u32(EQDS_TUNNEL_A_INFLIGHT, 2)
		.u32(EQDS_TUNNEL_A_SND_UNA, 100)
		.u32(EQDS_TUNNEL_A_SND_NXT, 102)
		.u32(EQDS_TUNNEL_A_RTX_QUEUED, 0)
		.u32(EQDS_TUNNEL_A_RTO_US, 10000)
		.u32(EQDS_TUNNEL_A_PULL_HI, 55)
		.nest(EQDS_TUNNEL_A_STATS, tx_stats());
	return t;
}

Attrs rx_tunnel()
{
	Attrs s;
	s.u64(EQDS_TUNNEL_STATS_A_PACKETS, 9).u64(EQDS_TUNNEL_STATS_A_REORDER_HELD, 3);
	Attrs t;
	std::vector<uint8_t> v6(16, 0);
	v6[0] = 0xfd;
	v6[15] = 1;
	t.u32(EQDS_TUNNEL_A_ID, 3)
		.u8(EQDS_TUNNEL_A_DIR, EQDS_TUNNEL_DIR_RX)
		.u16(EQDS_TUNNEL_A_FAMILY, AF_INET6)
		.bin(EQDS_TUNNEL_A_PEER, v6)
		.bin(EQDS_TUNNEL_A_LOCAL, std::vector<uint8_t>{0xfd, 0, 0, 0, 0, 0, 0, 0,
							   0, 0, 0, 0, 0, 0, 0, 2})
		.u32(EQDS_TUNNEL_A_EPOCH, 5)
		.u8(EQDS_TUNNEL_A_STATE, EQDS_TUNNEL_STATE_OPEN)
		.u32(EQDS_TUNNEL_A_IDLE_MS, 3)
		.u32(EQDS_TUNNEL_A_RCV_NXT, 4000)
		.u32(EQDS_TUNNEL_A_REORDER_HELD, 0)
		.u32(EQDS_TUNNEL_A_SKEW_NS, 120000)
		.u32(EQDS_TUNNEL_A_PULLS_GRANTED, 8)
		.u32(EQDS_TUNNEL_A_PULLS_WANTED, 2)
		.u8(EQDS_TUNNEL_A_ACTIVE, 1)
		.nest(EQDS_TUNNEL_A_STATS, s);
	return t;
}

constexpr int kFamily = 0x1c;

// A whole message: netlink and genl headers, then attrs.
std::vector<uint8_t> message(uint8_t cmd, const Attrs &attrs, int type = kFamily)
{
	std::vector<uint8_t> m(NLMSG_HDRLEN + GENL_HDRLEN + attrs.bytes.size(), 0);
	if (!attrs.bytes.empty())
		std::memcpy(m.data() + NLMSG_HDRLEN + GENL_HDRLEN, attrs.bytes.data(),
			    attrs.bytes.size());
	nlmsghdr h{};
	h.nlmsg_len = static_cast<uint32_t>(m.size());
	h.nlmsg_type = static_cast<uint16_t>(type);
	genlmsghdr g{};
	g.cmd = cmd;
	g.version = EQDS_GENL_VERSION;
	std::memcpy(m.data(), &h, sizeof(h));
	std::memcpy(m.data() + NLMSG_HDRLEN, &g, sizeof(g));
	return m;
}

// Parses an exactly-sized heap copy, so ASan sees any read past the end.
std::vector<Tunnel> parse(const std::vector<uint8_t> &m, uint8_t *cmd = nullptr)
{
	std::unique_ptr<uint8_t[]> copy(new uint8_t[m.size() ? m.size() : 1]);
	if (!m.empty())
		std::memcpy(copy.get(), m.data(), m.size());
	return parse_tunnel_message(copy.get(), m.size(), kFamily, cmd);
}

std::string text(const Tunnel &t, bool stats)
{
	std::ostringstream out;
	print_tunnel_text(out, t, stats);
	return out.str();
}

std::string json(const Tunnel &t)
{
	std::ostringstream out;
	JsonWriter w(out);
	write_tunnel_json(w, t, true);
	return out.str();
}

Request args(std::vector<std::string> a)
{
	return parse_args(a);
}

} // namespace

TEST(Tunnel, TablesMatchTheHeader)
{
	std::set<uint16_t> attrs;
	std::set<std::string> names;
	for (const TunnelField &f : kTunnelFields) {
		EXPECT_TRUE(attrs.insert(f.attr).second) << f.name;
		EXPECT_TRUE(names.insert(f.name).second) << f.name;
		EXPECT_LE(f.attr, EQDS_TUNNEL_A_MAX);
		EXPECT_TRUE(f.size == 4 || f.size == 8) << f.name;
	}
	// Every per-tunnel counter of the header, in order.
	ASSERT_EQ(kTunnelStats.size(),
		  static_cast<size_t>(EQDS_TUNNEL_STATS_A_MAX - EQDS_TUNNEL_STATS_A_PAD));
	for (size_t k = 0; k < kTunnelStats.size(); k++)
		EXPECT_EQ(kTunnelStats[k].attr, EQDS_TUNNEL_STATS_A_PAD + 1 + k) << kTunnelStats[k].name;
}

TEST(Tunnel, ParsesBothSidesOfAReply)
{
	Attrs a;
	a.nest(EQDS_A_TUNNEL, tx_tunnel()).nest(EQDS_A_TUNNEL, rx_tunnel());
	uint8_t cmd = 0;
	auto ts = parse(message(EQDS_CMD_GET_TUNNEL, a), &cmd);
	EXPECT_EQ(cmd, EQDS_CMD_GET_TUNNEL);
	ASSERT_EQ(ts.size(), 2u);
	const Tunnel &tx = ts[0], &rx = ts[1];
	EXPECT_EQ(tx.dir, EQDS_TUNNEL_DIR_TX);
	ASSERT_TRUE(tx.peer);
	EXPECT_EQ(format_addr(*tx.peer), "10.0.0.2");
	EXPECT_EQ(tx.fields.at("epoch"), 4000000000u);
	EXPECT_EQ(tx.fields.at("queue_bytes"), 1514u);
	EXPECT_EQ(tx.state, EQDS_TUNNEL_STATE_CONFIRMED);
	EXPECT_FALSE(tx.local);
	EXPECT_EQ(tx.stats.size(), 13u);
	EXPECT_EQ(tx.stats.at("rts"), 9u);
	EXPECT_EQ(tx.stats.at("paths_penalised"), 10u);
	EXPECT_EQ(tx.stats.at("path_penalties_ignored"), 13u);
	EXPECT_EQ(rx.dir, EQDS_TUNNEL_DIR_RX);
	EXPECT_EQ(format_addr(*rx.peer), "fd00::1");
	EXPECT_EQ(format_addr(*rx.local), "fd00::2");
	EXPECT_EQ(rx.active, true);
	EXPECT_EQ(rx.stats.at("reorder_held"), 3u);
}

TEST(Tunnel, IgnoresUnknownAttributes)
{
	Attrs t = tx_tunnel();
	t.u32(EQDS_TUNNEL_A_MAX + 5, 1);
	Attrs a;
	a.u32(EQDS_A_MAX + 3, 9).nest(EQDS_A_TUNNEL, t);
	auto ts = parse(message(EQDS_CMD_GET_TUNNEL, a));
	ASSERT_EQ(ts.size(), 1u);
	EXPECT_EQ(ts[0].fields.at("id"), 7u);
}

TEST(Tunnel, RejectsMalformedReplies)
{
	auto error = [](const std::vector<uint8_t> &m) -> std::string {
		try {
			parse(m);
		} catch (const ReplyError &e) {
			return e.what();
		}
		return "(no error)";
	};
	Attrs short_id;
	short_id.u16(EQDS_TUNNEL_A_ID, 7);
	Attrs a1;
	a1.nest(EQDS_A_TUNNEL, short_id);
	EXPECT_NE(error(message(EQDS_CMD_GET_TUNNEL, a1)).find("id of 2 bytes, not 4"),
		  std::string::npos);

	Attrs bad_peer;
	bad_peer.u16(EQDS_TUNNEL_A_FAMILY, AF_INET).bin(EQDS_TUNNEL_A_PEER, {1, 2, 3});
	Attrs a2;
	a2.nest(EQDS_A_TUNNEL, bad_peer);
	EXPECT_NE(error(message(EQDS_CMD_GET_TUNNEL, a2)).find("peer address"), std::string::npos);

	Attrs no_family;
	no_family.bin(EQDS_TUNNEL_A_PEER, {1, 2, 3, 4});
	Attrs a3;
	a3.nest(EQDS_A_TUNNEL, no_family);
	EXPECT_NE(error(message(EQDS_CMD_GET_TUNNEL, a3)).find("without an address family"),
		  std::string::npos);

	Attrs a4;
	a4.nest(EQDS_A_TUNNEL, tx_tunnel());
	auto m = message(EQDS_CMD_GET_TUNNEL, a4);
	EXPECT_NE(error(std::vector<uint8_t>(m.begin(), m.end() - 3)).find("length field"),
		  std::string::npos);
	EXPECT_NE(error(message(EQDS_CMD_GET_TUNNEL, a4, kFamily + 1)).find("not of family eqds"),
		  std::string::npos);
}

TEST(Tunnel, GarbageNeverEscapesAsAnythingButReplyError)
{
	std::mt19937 rng(4);
	Attrs a;
	a.nest(EQDS_A_TUNNEL, tx_tunnel()).nest(EQDS_A_TUNNEL, rx_tunnel());
	const auto good = message(EQDS_CMD_GET_TUNNEL, a);
	for (int i = 0; i < 20000; i++) {
		auto m = good;
		int flips = 1 + static_cast<int>(rng() % 8);
		for (int k = 0; k < flips; k++)
			m[NLMSG_HDRLEN + GENL_HDRLEN + rng() % (m.size() - NLMSG_HDRLEN - GENL_HDRLEN)] =
				static_cast<uint8_t>(rng());
		try {
			parse(m);
		} catch (const ReplyError &) {
		}
	}
}

TEST(Tunnel, EventsCarryTheirCommandAndReason)
{
	Attrs t;
	t.u32(EQDS_TUNNEL_A_ID, 2)
		.u8(EQDS_TUNNEL_A_DIR, EQDS_TUNNEL_DIR_RX)
		.u16(EQDS_TUNNEL_A_FAMILY, AF_INET)
		.bin(EQDS_TUNNEL_A_PEER, {10, 0, 0, 1})
		.u32(EQDS_TUNNEL_A_EPOCH, 99)
		.u8(EQDS_TUNNEL_A_DEL_REASON, EQDS_TUNNEL_DEL_HALF_OPEN);
	Attrs a;
	a.nest(EQDS_A_TUNNEL, t);
	TunnelEvent e;
	auto ts = parse(message(EQDS_CMD_TUNNEL_DEL, a), &e.cmd);
	ASSERT_EQ(ts.size(), 1u);
	e.tunnel = ts[0];
	std::ostringstream out, js;
	print_event_text(out, e);
	print_event_json(js, e);
	EXPECT_EQ(out.str(), "del rx 10.0.0.1 id 2 epoch 99 reason half-open\n");
	EXPECT_EQ(js.str(), "{\"event\":\"del\",\"dir\":\"rx\",\"id\":2,\"peer\":\"10.0.0.1\","
			    "\"epoch\":99,\"reason\":\"half-open\"}\n");
	e.cmd = EQDS_CMD_TUNNEL_NEW;
	e.tunnel.del_reason.reset();
	std::ostringstream out2;
	print_event_text(out2, e);
	EXPECT_EQ(out2.str(), "new rx 10.0.0.1 id 2 epoch 99\n");
}

TEST(Tunnel, TextOutput)
{
	Attrs a;
	a.nest(EQDS_A_TUNNEL, tx_tunnel()).nest(EQDS_A_TUNNEL, rx_tunnel());
	auto ts = parse(message(EQDS_CMD_GET_TUNNEL, a));
	EXPECT_EQ(text(ts[0], false),
		  "tx 10.0.0.2 id 7 epoch 4000000000 confirmed idle 20ms heard 5ms\n"
		  "    credit 3072  window 230400  quantum 1536  queue 1p  queue-bytes 1514  "
		  "inflight 2  snd-una 100  snd-nxt 102  rtx 0  rto 10000us  pull-hi 55\n");
	EXPECT_EQ(text(ts[1], true),
		  "rx fd00::1 id 3 epoch 5 open active idle 3ms local fd00::2\n"
		  "    rcv-nxt 4000  held 0p  skew 120000ns  pulls-granted 8  pulls-wanted 2\n"
		  "    packets 9  reorder-held 3\n");
	EXPECT_NE(text(ts[0], true).find("\n    packets 1  bytes 2  retransmits 3  nacks 4  drops 5  "
					 "pulls 6  restarts 7  timeouts 8  rts 9  paths-penalised 10  "
					 "path-penalties 11  repaths 12  path-penalties-ignored 13\n"),
		  std::string::npos);
}

// Each counter eqdsctl knows has a label in the text output.
TEST(Tunnel, TextShowsEveryCounter)
{
	Tunnel t;
	t.dir = EQDS_TUNNEL_DIR_TX;
	for (const TunnelField &f : kTunnelStats)
		t.stats[f.name] = 12345;
	std::string s = text(t, true);
	size_t n = 0;
	for (size_t p = s.find(" 12345"); p != std::string::npos; p = s.find(" 12345", p + 1))
		n++;
	EXPECT_EQ(n, kTunnelStats.size()) << s;
}

TEST(Tunnel, JsonKeysAreStableAndSideSpecific)
{
	Attrs a;
	a.nest(EQDS_A_TUNNEL, tx_tunnel()).nest(EQDS_A_TUNNEL, rx_tunnel());
	auto ts = parse(message(EQDS_CMD_GET_TUNNEL, a));
	EXPECT_EQ(json(ts[0]),
		  "{\"dir\":\"tx\",\"id\":7,\"peer\":\"10.0.0.2\",\"epoch\":4000000000,"
		  "\"state\":\"confirmed\",\"idle_ms\":20,\"heard_ms\":5,\"credit\":3072,"
		  "\"window\":230400,\"quantum\":1536,\"queue_len\":1,\"queue_bytes\":1514,"
		  "\"inflight\":2,\"snd_una\":100,\"snd_nxt\":102,\"rtx_queued\":0,\"rto_us\":10000,"
		  "\"pull_hi\":55,\"stats\":{\"packets\":1,\"bytes\":2,\"retransmits\":3,\"nacks\":4,"
		  "\"drops\":5,\"pulls\":6,\"restarts\":7,\"timeouts\":8,\"rts\":9,"
		  "\"paths_penalised\":10,\"path_penalties\":11,\"repaths\":12,"
		  "\"path_penalties_ignored\":13}}");
	EXPECT_EQ(json(ts[1]),
		  "{\"dir\":\"rx\",\"id\":3,\"peer\":\"fd00::1\",\"local\":\"fd00::2\",\"epoch\":5,"
		  "\"state\":\"open\",\"idle_ms\":3,\"rcv_nxt\":4000,\"reorder_held\":0,"
		  "\"skew_ns\":120000,\"pulls_granted\":8,\"pulls_wanted\":2,\"active\":true,"
		  "\"stats\":{\"packets\":9,\"reorder_held\":3}}");
}

TEST(Tunnel, EnumNames)
{
	EXPECT_EQ(state_string(EQDS_TUNNEL_STATE_SYN), "syn");
	EXPECT_EQ(state_string(EQDS_TUNNEL_STATE_HALF_OPEN), "half-open");
	EXPECT_EQ(state_string(200), "unknown(200)");
	EXPECT_EQ(del_reason_string(EQDS_TUNNEL_DEL_PEER_SILENT), "peer-silent");
	EXPECT_EQ(dir_string(9), "unknown(9)");
	EXPECT_EQ(event_string(EQDS_CMD_TUNNEL_RESTART), "restart");
}

TEST(Tunnel, RequestNest)
{
	std::unique_ptr<nl_msg, void (*)(nl_msg *)> msg(nlmsg_alloc(), nlmsg_free);
	put_tunnel_request(msg.get(), parse_peer("fd00::1"), EQDS_TUNNEL_DIR_RX);
	nlmsghdr *h = nlmsg_hdr(msg.get());
	auto *nest = static_cast<nlattr *>(nlmsg_data(h));
	ASSERT_EQ(nla_type(nest), EQDS_A_TUNNEL);
	EXPECT_TRUE(nest->nla_type & NLA_F_NESTED);
	nlattr *tb[EQDS_TUNNEL_A_MAX + 1];
	ASSERT_EQ(nla_parse_nested(tb, EQDS_TUNNEL_A_MAX, nest, nullptr), 0);
	ASSERT_TRUE(tb[EQDS_TUNNEL_A_FAMILY] && tb[EQDS_TUNNEL_A_PEER] && tb[EQDS_TUNNEL_A_DIR]);
	EXPECT_EQ(nla_get_u16(tb[EQDS_TUNNEL_A_FAMILY]), AF_INET6);
	EXPECT_EQ(nla_len(tb[EQDS_TUNNEL_A_PEER]), 16);
	EXPECT_EQ(nla_get_u8(tb[EQDS_TUNNEL_A_DIR]), EQDS_TUNNEL_DIR_RX);
}

TEST(TunnelArgs, ListAndShow)
{
	EXPECT_EQ(args({"tunnel"}).command, Command::TunnelList);
	EXPECT_EQ(args({"tunnels", "ls"}).command, Command::TunnelList);
	Request r = args({"-s", "-j", "tunnel", "list", "rx"});
	EXPECT_EQ(r.command, Command::TunnelList);
	EXPECT_TRUE(r.stats && r.json);
	EXPECT_EQ(r.dir, EQDS_TUNNEL_DIR_RX);
	r = args({"tunnel", "show", "10.0.0.2", "tx"});
	EXPECT_EQ(r.command, Command::TunnelShow);
	ASSERT_TRUE(r.peer);
	EXPECT_EQ(format_addr(*r.peer), "10.0.0.2");
	EXPECT_EQ(r.dir, EQDS_TUNNEL_DIR_TX);
	EXPECT_EQ(args({"tunnel", "show", "fd00::1/128"}).dir, 0);
	EXPECT_EQ(args({"tunnel", "help"}).command, Command::Help);
}

TEST(TunnelArgs, ErrorsSayWhatWasWrong)
{
	EXPECT_EQ(usage_error({"tunnel", "show"}),
		  "tunnel show: which peer? (tunnel show ADDRESS [tx|rx])");
	EXPECT_EQ(usage_error({"tunnel", "show", "10.0.0.0/24"}),
		  "tunnel show: '10.0.0.0/24' is a prefix; a peer is one address");
	EXPECT_NE(usage_error({"tunnel", "show", "bogus"}).find("not an IPv4 or IPv6 address"),
		  std::string::npos);
	EXPECT_EQ(usage_error({"tunnel", "list", "up"}), "tunnel list: 'up' is not tx or rx");
	EXPECT_EQ(usage_error({"tunnel", "list", "tx", "rx"}),
		  "tunnel list: unexpected argument 'rx'");
	EXPECT_EQ(usage_error({"tunnel", "delete"}),
		  "tunnel: unknown subcommand 'delete' (list or show)");
	EXPECT_EQ(usage_error({"tunnel", "show", "10.0.0.1", "-s"}),
		  "tunnel show: '-s' is not tx or rx");
}

TEST(TunnelArgs, Monitor)
{
	EXPECT_EQ(args({"monitor"}).command, Command::Monitor);
	EXPECT_EQ(args({"-j", "monitor", "tunnels"}).command, Command::Monitor);
	EXPECT_EQ(usage_error({"monitor", "links"}),
		  "monitor: unexpected argument 'links' (only tunnel events exist: monitor [tunnels])");
}
