// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "instance.h"

#include "nlattr_util.h"

#include <linux/eqds.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <sys/socket.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <iterator>

namespace eqdsctl {

// JSON names are the enum names' suffixes in lower case. A counter missing
// here is ignored in replies (a unit test checks this table against the header).
const std::vector<StatInfo> kStats = {
	{EQDS_STATS_A_TX_PACKETS, "tx_packets"},
	{EQDS_STATS_A_TX_BYTES, "tx_bytes"},
	{EQDS_STATS_A_RX_PACKETS, "rx_packets"},
	{EQDS_STATS_A_RX_BYTES, "rx_bytes"},
	{EQDS_STATS_A_PULLS_SENT, "pulls_sent"},
	{EQDS_STATS_A_PULLS_RCVD, "pulls_rcvd"},
	{EQDS_STATS_A_TUNNELS, "tunnels"},
	{EQDS_STATS_A_RX_DROPS, "rx_drops"},
	{EQDS_STATS_A_TX_DROPS, "tx_drops"},
	{EQDS_STATS_A_TUNNELS_CREATED, "tunnels_created"},
	{EQDS_STATS_A_TUNNELS_REAPED, "tunnels_reaped"},
	{EQDS_STATS_A_RX_CTRL, "rx_ctrl"},
	{EQDS_STATS_A_TX_CTRL, "tx_ctrl"},
	{EQDS_STATS_A_ACKS_SENT, "acks_sent"},
	{EQDS_STATS_A_NACKS_SENT, "nacks_sent"},
	{EQDS_STATS_A_NACKS_RCVD, "nacks_rcvd"},
	{EQDS_STATS_A_RSTS_SENT, "rsts_sent"},
	{EQDS_STATS_A_RSTS_RCVD, "rsts_rcvd"},
	{EQDS_STATS_A_RESTARTS, "restarts"},
	{EQDS_STATS_A_RETRANSMITS, "retransmits"},
	{EQDS_STATS_A_TIMEOUTS, "timeouts"},
	{EQDS_STATS_A_RTS_SENT, "rts_sent"},
	{EQDS_STATS_A_SYNS_SENT, "syns_sent"},
	{EQDS_STATS_A_REORDER_HELD, "reorder_held"},
	{EQDS_STATS_A_REORDER_LATE, "reorder_late"},
	{EQDS_STATS_A_REORDER_SKIPPED, "reorder_skipped"},
	{EQDS_STATS_A_MSS_CLAMPED, "mss_clamped"},
	{EQDS_STATS_A_CREDIT_REFUSED, "credit_refused"},
	{EQDS_STATS_A_DROP_QUEUE_FULL, "drop_queue_full"},
	{EQDS_STATS_A_DROP_NOMEM, "drop_nomem"},
	{EQDS_STATS_A_DROP_NOROUTE, "drop_noroute"},
	{EQDS_STATS_A_DROP_DECODE, "drop_decode"},
	{EQDS_STATS_A_DROP_INNER, "drop_inner"},
	{EQDS_STATS_A_DROP_UNKNOWN, "drop_unknown"},
	{EQDS_STATS_A_DROP_DUP, "drop_dup"},
	{EQDS_STATS_A_DROP_WINDOW, "drop_window"},
	{EQDS_STATS_A_DROP_STALE, "drop_stale"},
	{EQDS_STATS_A_DROP_SEGS, "drop_segs"},
	{EQDS_STATS_A_DROP_TUNNEL_LIMIT, "drop_tunnel_limit"},
	{EQDS_STATS_A_DROP_NO_SOCKET, "drop_no_socket"},
	{EQDS_STATS_A_DROP_XMIT, "drop_xmit"},
	{EQDS_STATS_A_DROP_PEER, "drop_peer"},
	{EQDS_STATS_A_DROP_CTRL, "drop_ctrl"},
	{EQDS_STATS_A_DROP_TUNNEL_RATE, "drop_tunnel_rate"},
	{EQDS_STATS_A_DROP_EPOCH, "drop_epoch"},
	{EQDS_STATS_A_CHALLENGES_SENT, "challenges_sent"},
	{EQDS_STATS_A_FINS_SENT, "fins_sent"},
	{EQDS_STATS_A_FINS_RCVD, "fins_rcvd"},
	{EQDS_STATS_A_LL_QUEUED, "ll_queued"},
	{EQDS_STATS_A_ECN_MARKED, "ecn_marked"},
	{EQDS_STATS_A_DROP_QUEUED_LIMIT, "drop_queued_limit"},
	{EQDS_STATS_A_QUEUED_BYTES, "queued_bytes"},
	{EQDS_STATS_A_PACER_RUNS, "pacer_runs"},
	{EQDS_STATS_A_PACER_LATE_BYTES, "pacer_late_bytes"},
	{EQDS_STATS_A_DROP_DELIVER, "drop_deliver"},
	{EQDS_STATS_A_DROP_LOCAL_PORT, "drop_local_port"},
	{EQDS_STATS_A_OUTER_ID_REWRITTEN, "outer_id_rewritten"},
	{EQDS_STATS_A_OUTER_ID_FALLBACK, "outer_id_fallback"},
	{EQDS_STATS_A_ICMP_RCVD, "icmp_rcvd"},
	{EQDS_STATS_A_MTU_SPLIT, "mtu_split"},
	{EQDS_STATS_A_MTU_FRAGMENTED, "mtu_fragmented"},
	{EQDS_STATS_A_SMALL_BORROWED, "small_borrowed"},
	{EQDS_STATS_A_RX_ARRIVED_BYTES, "rx_arrived_bytes"},
	{EQDS_STATS_A_RX_CE_BYTES, "rx_ce_bytes"},
	{EQDS_STATS_A_PULL_RATE, "pull_rate"},
};

// The header calls EQDS_A_DESTS a "nest of EQDS_A_DEST" but defines no such
// type: each element is a nest of EQDS_DEST_A_*. The module numbers the
// elements 1..n in replies and ignores their type in requests; we number
// them the same way and accept any type in replies (as wg does for peers).

const char *mode_name(uint8_t mode)
{
	switch (mode) {
	case EQDS_MODE_RTS:
		return "rts";
	case EQDS_MODE_BURST:
		return "burst";
	default:
		return nullptr;
	}
}

std::optional<uint8_t> mode_from_name(std::string_view name)
{
	for (unsigned m = 0; m <= EQDS_MODE_MAX; m++)
		if (name == mode_name(static_cast<uint8_t>(m)))
			return static_cast<uint8_t>(m);
	return std::nullopt;
}

std::string format_tc_priority(uint32_t prio)
{
	char buf[32];

	if (prio >> 16)
		snprintf(buf, sizeof(buf), "%x:%x", prio >> 16, prio & 0xffff);
	else
		snprintf(buf, sizeof(buf), "%u", prio);
	return buf;
}

std::string mode_string(uint8_t mode)
{
	const char *name = mode_name(mode);
	return name ? name : "unknown(" + std::to_string(mode) + ")";
}

namespace {

nla_policy fixed(uint16_t type, uint16_t len)
{
	nla_policy p{};
	p.type = type;
	p.minlen = len;
	p.maxlen = len;
	return p;
}

nla_policy of_type(uint16_t type)
{
	nla_policy p{};
	p.type = type;
	return p;
}

// The fields of class id by EQDS_CLASS_A_*; nullptr where the class has
// none (the selectors are the ll class's) or for a class eqdsctl does not know.
using ClassFields = std::array<std::optional<uint32_t> *, EQDS_CLASS_A_MAX + 1>;

ClassFields class_fields(Config &c, uint8_t id)
{
	ClassFields f{};

	if (id == EQDS_CLASS_ID_TCP) {
		f[EQDS_CLASS_A_QUEUE_LIMIT] = &c.queue_limit;
		f[EQDS_CLASS_A_ECN_MIN] = &c.tcp_ecn_min;
		f[EQDS_CLASS_A_ECN_MAX] = &c.tcp_ecn_max;
		f[EQDS_CLASS_A_TC_PRIORITY] = &c.tcp_tc_priority;
	} else if (id == EQDS_CLASS_ID_LL) {
		f[EQDS_CLASS_A_QUEUE_LIMIT] = &c.ll_queue_limit;
		f[EQDS_CLASS_A_ECN_MIN] = &c.ll_ecn_min;
		f[EQDS_CLASS_A_ECN_MAX] = &c.ll_ecn_max;
		f[EQDS_CLASS_A_TC_PRIORITY] = &c.ll_tc_priority;
		f[EQDS_CLASS_A_PRIORITY] = &c.ll_priority;
		f[EQDS_CLASS_A_MARK] = &c.ll_mark;
		f[EQDS_CLASS_A_MARK_MASK] = &c.ll_mark_mask;
	}
	return f;
}

struct Policies {
	nla_policy top[EQDS_A_MAX + 1] = {};
	nla_policy dest[EQDS_DEST_A_MAX + 1] = {};
	nla_policy stats[EQDS_STATS_A_MAX + 1] = {};
	nla_policy cls[EQDS_CLASS_A_MAX + 1] = {};

	Policies()
	{
		top[EQDS_A_VERSION] = of_type(NLA_STRING);
		top[EQDS_A_PORT] = fixed(NLA_U16, 2);
		top[EQDS_A_DESTS] = of_type(NLA_NESTED);
		top[EQDS_A_PULL_RATE] = fixed(NLA_U32, 4);
		top[EQDS_A_MODE] = fixed(NLA_U8, 1);
		top[EQDS_A_WINDOW] = fixed(NLA_U32, 4);
		top[EQDS_A_IDLE_TIMEOUT] = fixed(NLA_U32, 4);
		top[EQDS_A_STATS] = of_type(NLA_NESTED);
		top[EQDS_A_HEADROOM] = fixed(NLA_U8, 1);
		top[EQDS_A_CLASS] = of_type(NLA_NESTED);
		top[EQDS_A_QUEUED_LIMIT] = fixed(NLA_U32, 4);

		cls[EQDS_CLASS_A_ID] = fixed(NLA_U8, 1);
		for (int a = EQDS_CLASS_A_ID + 1; a <= EQDS_CLASS_A_MAX; a++)
			cls[a] = fixed(NLA_U32, 4);

		dest[EQDS_DEST_A_FAMILY] = fixed(NLA_U16, 2);
		dest[EQDS_DEST_A_ADDR] = of_type(NLA_UNSPEC);
		dest[EQDS_DEST_A_ADDR].minlen = 4;
		dest[EQDS_DEST_A_ADDR].maxlen = 16;
		dest[EQDS_DEST_A_PREFIXLEN] = fixed(NLA_U8, 1);

		for (const StatInfo &s : kStats)
			stats[s.attr] = fixed(NLA_U64, 8);
	}
};

const Policies &policies()
{
	static const Policies p;
	return p;
}

using nla::get;	// the policies fixed the lengths
using nla::payload;
using nla::payload_len;

// Every attribute in [head, head + len) must lie wholly inside it: nla_parse
// stops quietly at a truncated one, we do not.
void check_layout(const uint8_t *head, size_t len, const char *what)
{
	nla::for_each(head, len, what, [](const nlattr *) {});
}

// nla_parse with a policy, plus the layout check. tb gets maxtype + 1 entries.
void parse(std::vector<nlattr *> &tb, int maxtype, const uint8_t *head, size_t len,
	   const nla_policy *policy, const char *what)
{
	if (len > INT_MAX)
		throw ReplyError(std::string(what) + " too long");
	check_layout(head, len, what);
	tb.assign(static_cast<size_t>(maxtype) + 1, nullptr);
	int err = nla_parse(tb.data(), maxtype,
			    reinterpret_cast<nlattr *>(const_cast<uint8_t *>(head)),
			    static_cast<int>(len), const_cast<nla_policy *>(policy));
	if (err < 0)
		throw ReplyError(std::string("bad attribute type or length in ") + what);
}

Prefix parse_dest(const nlattr *nla)
{
	std::vector<nlattr *> tb;
	parse(tb, EQDS_DEST_A_MAX, payload(nla), payload_len(nla), policies().dest,
	      "a destination");
	if (!tb[EQDS_DEST_A_FAMILY] || !tb[EQDS_DEST_A_ADDR] || !tb[EQDS_DEST_A_PREFIXLEN])
		throw ReplyError("destination without family, address or prefix length");
	try {
		return make_prefix(get<uint16_t>(tb[EQDS_DEST_A_FAMILY]),
				   payload(tb[EQDS_DEST_A_ADDR]),
				   payload_len(tb[EQDS_DEST_A_ADDR]),
				   get<uint8_t>(tb[EQDS_DEST_A_PREFIXLEN]));
	} catch (const PrefixError &e) {
		throw ReplyError(std::string("destination: ") + e.what());
	}
}

std::vector<Prefix> parse_dests(const nlattr *nest)
{
	const uint8_t *p = payload(nest);
	size_t rem = payload_len(nest);
	std::vector<Prefix> dests;

	check_layout(p, rem, "the destination list");
	while (rem >= NLA_HDRLEN) {
		const auto *nla = reinterpret_cast<const nlattr *>(p);
		dests.push_back(parse_dest(nla));
		size_t step = NLA_ALIGN(payload_len(nla) + NLA_HDRLEN);
		if (step >= rem)
			break;
		p += step;
		rem -= step;
	}
	return dests;
}

// One EQDS_A_CLASS nest into c. A class this eqdsctl does not know (a newer
// kernel) is skipped.
void parse_class(const nlattr *nest, Config &c)
{
	std::vector<nlattr *> tb;
	parse(tb, EQDS_CLASS_A_MAX, payload(nest), payload_len(nest), policies().cls, "a class");
	if (!tb[EQDS_CLASS_A_ID])
		throw ReplyError("class without its id");
	ClassFields f = class_fields(c, get<uint8_t>(tb[EQDS_CLASS_A_ID]));
	for (int a = EQDS_CLASS_A_ID + 1; a <= EQDS_CLASS_A_MAX; a++)
		if (tb[a] && f[a])
			*f[a] = get<uint32_t>(tb[a]);
}

} // namespace

Instance parse_instance_attrs(const void *attrs, size_t len)
{
	const auto *head = static_cast<const uint8_t *>(attrs);
	std::vector<nlattr *> tb;
	Instance inst;
	Config &c = inst.config;

	parse(tb, EQDS_A_MAX, head, len, policies().top, "the reply");
	if (tb[EQDS_A_VERSION]) {
		const char *s = reinterpret_cast<const char *>(payload(tb[EQDS_A_VERSION]));
		inst.version = std::string(s, strnlen(s, payload_len(tb[EQDS_A_VERSION])));
	}
	if (tb[EQDS_A_PORT])
		c.port = get<uint16_t>(tb[EQDS_A_PORT]);
	if (tb[EQDS_A_DESTS])
		c.dests = parse_dests(tb[EQDS_A_DESTS]);
	if (tb[EQDS_A_PULL_RATE])
		c.pull_rate_mbit = get<uint32_t>(tb[EQDS_A_PULL_RATE]);
	if (tb[EQDS_A_HEADROOM])
		c.headroom = get<uint8_t>(tb[EQDS_A_HEADROOM]);
	if (tb[EQDS_A_MODE])
		c.mode = get<uint8_t>(tb[EQDS_A_MODE]);
	if (tb[EQDS_A_WINDOW])
		c.window = get<uint32_t>(tb[EQDS_A_WINDOW]);
	if (tb[EQDS_A_IDLE_TIMEOUT])
		c.idle_timeout_ms = get<uint32_t>(tb[EQDS_A_IDLE_TIMEOUT]);
	if (tb[EQDS_A_QUEUED_LIMIT])
		c.queued_limit_kb = get<uint32_t>(tb[EQDS_A_QUEUED_LIMIT]);
	// One nest per class: nla_parse kept only the last.
	nla::for_each(head, len, "the reply", [&c](const nlattr *a) {
		if (nla::type(a) == EQDS_A_CLASS)
			parse_class(a, c);
	});
	if (tb[EQDS_A_STATS]) {
		std::vector<nlattr *> st;
		parse(st, EQDS_STATS_A_MAX, payload(tb[EQDS_A_STATS]),
		      payload_len(tb[EQDS_A_STATS]), policies().stats, "the counters");
		for (const StatInfo &s : kStats)
			if (st[s.attr])
				inst.stats[s.name] = get<uint64_t>(st[s.attr]);
	}
	return inst;
}

Instance parse_instance_reply(const void *msg, size_t len, int family_id)
{
	constexpr size_t hdrs = NLMSG_HDRLEN + GENL_HDRLEN;
	nlmsghdr nlh;

	if (len < hdrs)
		throw ReplyError("message of " + std::to_string(len) + " bytes");
	std::memcpy(&nlh, msg, sizeof(nlh));
	if (nlh.nlmsg_len != len)
		throw ReplyError("length field " + std::to_string(nlh.nlmsg_len) + " in a message of " +
				 std::to_string(len) + " bytes");
	if (nlh.nlmsg_type != family_id)
		throw ReplyError("message of type " + std::to_string(nlh.nlmsg_type) +
				 ", not of family eqds");
	return parse_instance_attrs(static_cast<const uint8_t *>(msg) + hdrs, len - hdrs);
}

namespace {

void check(int err)
{
	if (err < 0)
		throw std::length_error("request does not fit in a netlink message");
}

nlattr *nest_start(nl_msg *msg, int type)
{
	// Strict kernel validation wants NLA_F_NESTED on every nest.
	nlattr *nest = nla_nest_start(msg, type | NLA_F_NESTED);
	if (!nest)
		throw std::length_error("request does not fit in a netlink message");
	return nest;
}

} // namespace

void put_config_attrs(nl_msg *msg, const Config &cfg)
{
	if (cfg.port)
		check(nla_put_u16(msg, EQDS_A_PORT, *cfg.port));
	if (cfg.dests) {
		nlattr *list = nest_start(msg, EQDS_A_DESTS);
		int index = 0;
		for (const Prefix &p : *cfg.dests) {
			nlattr *d = nest_start(msg, ++index);
			check(nla_put_u16(msg, EQDS_DEST_A_FAMILY, p.family));
			check(nla_put(msg, EQDS_DEST_A_ADDR, static_cast<int>(Prefix::addr_len(p.family)),
				      p.addr.data()));
			check(nla_put_u8(msg, EQDS_DEST_A_PREFIXLEN, p.len));
			check(nla_nest_end(msg, d));
		}
		// nla_nest_end() would drop an empty nest, but "none" is one.
		check(nla_nest_end_keep_empty(msg, list));
	}
	if (cfg.pull_rate_mbit)
		check(nla_put_u32(msg, EQDS_A_PULL_RATE, *cfg.pull_rate_mbit));
	if (cfg.headroom)
		check(nla_put_u8(msg, EQDS_A_HEADROOM, *cfg.headroom));
	if (cfg.mode)
		check(nla_put_u8(msg, EQDS_A_MODE, *cfg.mode));
	if (cfg.window)
		check(nla_put_u32(msg, EQDS_A_WINDOW, *cfg.window));
	if (cfg.idle_timeout_ms)
		check(nla_put_u32(msg, EQDS_A_IDLE_TIMEOUT, *cfg.idle_timeout_ms));
	if (cfg.queued_limit_kb)
		check(nla_put_u32(msg, EQDS_A_QUEUED_LIMIT, *cfg.queued_limit_kb));
	// A nest for each class with something to change, with only that.
	Config copy = cfg;
	for (uint8_t id = 0; id <= EQDS_CLASS_ID_MAX; id++) {
		ClassFields f = class_fields(copy, id);
		if (std::none_of(f.begin(), f.end(), [](const auto *v) { return v && *v; }))
			continue;
		nlattr *nest = nest_start(msg, EQDS_A_CLASS);
		check(nla_put_u8(msg, EQDS_CLASS_A_ID, id));
		for (int a = EQDS_CLASS_A_ID + 1; a <= EQDS_CLASS_A_MAX; a++)
			if (f[a] && *f[a])
				check(nla_put_u32(msg, a, **f[a]));
		check(nla_nest_end(msg, nest));
	}
}

} // namespace eqdsctl
