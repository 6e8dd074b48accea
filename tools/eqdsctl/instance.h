// SPDX-License-Identifier: GPL-2.0 OR MIT
// The eqds instance of a network namespace as eqdsctl sees it: parsed from a
// GET_INSTANCE reply, or (its configuration part) turned into SET_INSTANCE
// attributes.
#ifndef EQDSCTL_INSTANCE_H
#define EQDSCTL_INSTANCE_H

#include "prefix.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct nl_msg;

namespace eqdsctl {

// The configurable part. In a reply, a field is empty if the kernel did not
// send it; in a set request, only the fields that are set are sent.
struct Config {
	std::optional<uint16_t> port;
	std::optional<std::vector<Prefix>> dests;	// set but empty: "none"
	std::optional<uint32_t> pull_rate_mbit;		// 0: link speed ("auto")
	std::optional<uint8_t> headroom;		// percent of the link speed
	std::optional<uint8_t> mode;			// enum eqds_start_mode
	std::optional<uint32_t> window;
	std::optional<uint32_t> queue_limit;
	std::optional<uint32_t> idle_timeout_ms;
	// Sending EQIF classes, one EQDS_A_CLASS nest each on the wire
	// (queue_limit above is the TCP class's limit; the ll_priority and
	// ll_mark selectors are the ll class's). ECN thresholds: 0 = automatic
	// (min: half the limit; max: min).
	std::optional<uint32_t> tcp_ecn_min, tcp_ecn_max, tcp_tc_priority;
	std::optional<uint32_t> ll_queue_limit, ll_ecn_min, ll_ecn_max, ll_tc_priority;
	std::optional<uint32_t> ll_priority;		// 0: none
	std::optional<uint32_t> ll_mark, ll_mark_mask;	// mask 0: none
	std::optional<uint32_t> queued_limit_kb;	// 0: no limit

	bool classes_empty() const
	{
		return !tcp_ecn_min && !tcp_ecn_max && !tcp_tc_priority && !ll_queue_limit &&
		       !ll_ecn_min && !ll_ecn_max && !ll_tc_priority && !ll_priority &&
		       !ll_mark && !ll_mark_mask && !queued_limit_kb;
	}

	bool empty() const
	{
		return !port && !dests && !pull_rate_mbit && !headroom && !mode &&
		       !window && !queue_limit && !idle_timeout_ms && classes_empty();
	}
};

struct Instance {
	std::optional<std::string> version;
	Config config;
	std::map<std::string, uint64_t> stats;	// counters the kernel sent, by name
};

// The counters eqdsctl knows, in the order of enum eqds_stats_attr. The
// names are JSON keys: stable.
struct StatInfo {
	uint16_t attr;		// EQDS_STATS_A_*
	const char *name;	// "tx_packets"
};
extern const std::vector<StatInfo> kStats;

// A tc priority (skb->priority) as tc writes class ids: "MAJ:MIN" in hex
// when the major is set, else decimal.
std::string format_tc_priority(uint32_t prio);

// Start modes by name: "rts", "burst".
const char *mode_name(uint8_t mode);			// nullptr if unknown
std::optional<uint8_t> mode_from_name(std::string_view name);
std::string mode_string(uint8_t mode);			// name, or "unknown(N)"

// A reply the kernel should never have sent: truncated, wrong types or lengths.
class ReplyError : public std::runtime_error {
public:
	explicit ReplyError(const std::string &what)
		: std::runtime_error("malformed reply from the kernel: " + what) {}
};

// Parses the attributes of a GET_INSTANCE reply (the bytes after the genl
// header). Unknown attribute types are ignored (a newer kernel); anything
// malformed throws ReplyError. Never reads outside [attrs, attrs + len).
Instance parse_instance_attrs(const void *attrs, size_t len);

// Parses one whole reply message (netlink header included) of len bytes,
// which must belong to the generic netlink family family_id.
Instance parse_instance_reply(const void *msg, size_t len, int family_id);

// Appends cfg's fields as SET_INSTANCE attributes to msg. Throws
// std::length_error if msg is too small.
void put_config_attrs(nl_msg *msg, const Config &cfg);

} // namespace eqdsctl

#endif
