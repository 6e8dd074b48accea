// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "tunnel.h"

#include "instance.h"
#include "nlattr_util.h"

#include <arpa/inet.h>
#include <linux/eqds.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <sys/socket.h>

#include <stdexcept>

namespace eqdsctl {

// A unit test checks these tables against the header.
const std::vector<TunnelField> kTunnelFields = {
	{EQDS_TUNNEL_A_ID, 4, "id"},
	{EQDS_TUNNEL_A_EPOCH, 4, "epoch"},
	{EQDS_TUNNEL_A_IDLE_MS, 4, "idle_ms"},
	{EQDS_TUNNEL_A_HEARD_MS, 4, "heard_ms"},
	{EQDS_TUNNEL_A_CREDIT, 4, "credit"},
	{EQDS_TUNNEL_A_WINDOW, 4, "window"},
	{EQDS_TUNNEL_A_QUANTUM, 4, "quantum"},
	{EQDS_TUNNEL_A_QUEUE_LEN, 4, "queue_len"},
	{EQDS_TUNNEL_A_QUEUE_BYTES, 8, "queue_bytes"},
	{EQDS_TUNNEL_A_INFLIGHT, 4, "inflight"},
	{EQDS_TUNNEL_A_SND_UNA, 4, "snd_una"},
	{EQDS_TUNNEL_A_SND_NXT, 4, "snd_nxt"},
	{EQDS_TUNNEL_A_RTX_QUEUED, 4, "rtx_queued"},
	{EQDS_TUNNEL_A_RTO_US, 4, "rto_us"},
	{EQDS_TUNNEL_A_PULL_HI, 4, "pull_hi"},
	{EQDS_TUNNEL_A_RCV_NXT, 4, "rcv_nxt"},
	{EQDS_TUNNEL_A_REORDER_HELD, 4, "reorder_held"},
	{EQDS_TUNNEL_A_SKEW_NS, 4, "skew_ns"},
	{EQDS_TUNNEL_A_PULLS_GRANTED, 4, "pulls_granted"},
	{EQDS_TUNNEL_A_PULLS_WANTED, 4, "pulls_wanted"},
};

const std::vector<TunnelField> kTunnelStats = {
	{EQDS_TUNNEL_STATS_A_PACKETS, 8, "packets"},
	{EQDS_TUNNEL_STATS_A_BYTES, 8, "bytes"},
	{EQDS_TUNNEL_STATS_A_RETRANSMITS, 8, "retransmits"},
	{EQDS_TUNNEL_STATS_A_NACKS, 8, "nacks"},
	{EQDS_TUNNEL_STATS_A_DROPS, 8, "drops"},
	{EQDS_TUNNEL_STATS_A_PULLS, 8, "pulls"},
	{EQDS_TUNNEL_STATS_A_RESTARTS, 8, "restarts"},
	{EQDS_TUNNEL_STATS_A_TIMEOUTS, 8, "timeouts"},
	{EQDS_TUNNEL_STATS_A_RTS, 8, "rts"},
	{EQDS_TUNNEL_STATS_A_REORDER_HELD, 8, "reorder_held"},
	{EQDS_TUNNEL_STATS_A_REORDER_SKIPPED, 8, "reorder_skipped"},
	{EQDS_TUNNEL_STATS_A_REORDER_LATE, 8, "reorder_late"},
	{EQDS_TUNNEL_STATS_A_PATHS_PENALISED, 8, "paths_penalised"},
	{EQDS_TUNNEL_STATS_A_PATH_PENALTIES, 8, "path_penalties"},
	{EQDS_TUNNEL_STATS_A_REPATHS, 8, "repaths"},
	{EQDS_TUNNEL_STATS_A_PATH_PENALTIES_IGNORED, 8, "path_penalties_ignored"},
};

namespace {

std::string unknown(unsigned v)
{
	return "unknown(" + std::to_string(v) + ")";
}

const TunnelField *find(const std::vector<TunnelField> &table, uint16_t attr)
{
	for (const TunnelField &f : table)
		if (f.attr == attr)
			return &f;
	return nullptr;
}

uint64_t get_number(const nlattr *nla, const TunnelField &f)
{
	nla::expect_len(nla, f.size, f.name);
	return f.size == 8 ? nla::get<uint64_t>(nla) : nla::get<uint32_t>(nla);
}

uint8_t get_u8(const nlattr *nla, const char *what)
{
	nla::expect_len(nla, 1, what);
	return nla::get<uint8_t>(nla);
}

Prefix get_addr(const nlattr *nla, uint16_t family, const char *what)
{
	if (!family)
		throw ReplyError(std::string(what) + " without an address family");
	try {
		return make_prefix(family, nla::payload(nla), nla::payload_len(nla),
				   Prefix::max_len(family));
	} catch (const PrefixError &e) {
		throw ReplyError(std::string(what) + ": " + e.what());
	}
}

} // namespace

std::string dir_string(uint8_t dir)
{
	switch (dir) {
	case EQDS_TUNNEL_DIR_TX:
		return "tx";
	case EQDS_TUNNEL_DIR_RX:
		return "rx";
	default:
		return unknown(dir);
	}
}

std::string state_string(uint8_t state)
{
	static const char *const names[] = {"syn", "confirmed", "new", "half-open", "open"};
	static_assert(sizeof(names) / sizeof(names[0]) == EQDS_TUNNEL_STATE_MAX + 1);
	return state <= EQDS_TUNNEL_STATE_MAX ? names[state] : unknown(state);
}

std::string del_reason_string(uint8_t reason)
{
	static const char *const names[] = {"idle", "peer-silent", "half-open", "shutdown"};
	static_assert(sizeof(names) / sizeof(names[0]) == EQDS_TUNNEL_DEL_MAX + 1);
	return reason <= EQDS_TUNNEL_DEL_MAX ? names[reason] : unknown(reason);
}

std::string event_string(uint8_t cmd)
{
	switch (cmd) {
	case EQDS_CMD_TUNNEL_NEW:
		return "new";
	case EQDS_CMD_TUNNEL_DEL:
		return "del";
	case EQDS_CMD_TUNNEL_RESTART:
		return "restart";
	default:
		return unknown(cmd);
	}
}

std::string format_addr(const Prefix &p)
{
	char buf[INET6_ADDRSTRLEN];

	if (!inet_ntop(p.family, p.addr.data(), buf, sizeof(buf)))
		return "?";
	return buf;
}

Prefix parse_peer(const std::string &text)
{
	Prefix p = parse_prefix(text);	// throws PrefixError
	if (p.len != Prefix::max_len(p.family))
		throw PrefixError("'" + text + "' is a prefix; a peer is one address");
	return p;
}

Tunnel parse_tunnel_attrs(const void *attrs, size_t len)
{
	const auto *head = static_cast<const uint8_t *>(attrs);
	const nlattr *peer = nullptr, *local = nullptr;
	uint16_t family = 0;
	Tunnel t;

	nla::for_each(head, len, "a tunnel", [&](const nlattr *a) {
		uint16_t type = nla::type(a);
		if (const TunnelField *f = find(kTunnelFields, type)) {
			t.fields[f->name] = get_number(a, *f);
			return;
		}
		switch (type) {
		case EQDS_TUNNEL_A_DIR:
			t.dir = get_u8(a, "direction");
			break;
		case EQDS_TUNNEL_A_FAMILY:
			nla::expect_len(a, 2, "family");
			family = nla::get<uint16_t>(a);
			break;
		case EQDS_TUNNEL_A_PEER:
			peer = a;
			break;
		case EQDS_TUNNEL_A_LOCAL:
			local = a;
			break;
		case EQDS_TUNNEL_A_STATE:
			t.state = get_u8(a, "state");
			break;
		case EQDS_TUNNEL_A_ACTIVE:
			t.active = get_u8(a, "active") != 0;
			break;
		case EQDS_TUNNEL_A_DEL_REASON:
			t.del_reason = get_u8(a, "removal reason");
			break;
		case EQDS_TUNNEL_A_STATS:
			nla::for_each(nla::payload(a), nla::payload_len(a), "tunnel counters",
				      [&](const nlattr *s) {
					      if (const TunnelField *f = find(kTunnelStats, nla::type(s)))
						      t.stats[f->name] = get_number(s, *f);
				      });
			break;
		default:
			break;	// a newer kernel's attribute
		}
	});
	if (peer)
		t.peer = get_addr(peer, family, "peer address");
	if (local)
		t.local = get_addr(local, family, "local address");
	return t;
}

std::vector<Tunnel> parse_tunnel_message(const void *msg, size_t len, int family_id, uint8_t *cmd)
{
	constexpr size_t hdrs = NLMSG_HDRLEN + GENL_HDRLEN;
	std::vector<Tunnel> tunnels;
	nlmsghdr nlh;
	genlmsghdr gh;

	if (len < hdrs)
		throw ReplyError("message of " + std::to_string(len) + " bytes");
	std::memcpy(&nlh, msg, sizeof(nlh));
	std::memcpy(&gh, static_cast<const uint8_t *>(msg) + NLMSG_HDRLEN, sizeof(gh));
	if (nlh.nlmsg_len != len)
		throw ReplyError("length field " + std::to_string(nlh.nlmsg_len) + " in a message of " +
				 std::to_string(len) + " bytes");
	if (nlh.nlmsg_type != family_id)
		throw ReplyError("message of type " + std::to_string(nlh.nlmsg_type) +
				 ", not of family eqds");
	if (cmd)
		*cmd = gh.cmd;
	nla::for_each(static_cast<const uint8_t *>(msg) + hdrs, len - hdrs, "the message",
		      [&](const nlattr *a) {
			      if (nla::type(a) == EQDS_A_TUNNEL)
				      tunnels.push_back(
					      parse_tunnel_attrs(nla::payload(a), nla::payload_len(a)));
		      });
	return tunnels;
}

void put_tunnel_request(nl_msg *msg, const std::optional<Prefix> &peer, uint8_t dir)
{
	auto check = [](int err) {
		if (err < 0)
			throw std::length_error("request does not fit in a netlink message");
	};
	nlattr *nest = nla_nest_start(msg, EQDS_A_TUNNEL | NLA_F_NESTED);
	if (!nest)
		throw std::length_error("request does not fit in a netlink message");
	if (peer) {
		check(nla_put_u16(msg, EQDS_TUNNEL_A_FAMILY, peer->family));
		check(nla_put(msg, EQDS_TUNNEL_A_PEER, static_cast<int>(Prefix::addr_len(peer->family)),
			      peer->addr.data()));
	}
	if (dir)
		check(nla_put_u8(msg, EQDS_TUNNEL_A_DIR, dir));
	check(nla_nest_end_keep_empty(msg, nest));
}

} // namespace eqdsctl
