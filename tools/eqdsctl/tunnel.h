// SPDX-License-Identifier: GPL-2.0 OR MIT
// Tunnels as eqdsctl sees them: parsed from GET_TUNNEL replies and from the
// notifications of the "tunnels" multicast group; and the EQDS_A_TUNNEL nest
// of a request.
#ifndef EQDSCTL_TUNNEL_H
#define EQDSCTL_TUNNEL_H

#include "prefix.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

struct nl_msg;

namespace eqdsctl {

// A scalar attribute of EQDS_A_TUNNEL or of its STATS nest, by JSON key.
struct TunnelField {
	uint16_t attr;		// EQDS_TUNNEL_A_* or EQDS_TUNNEL_STATS_A_*
	uint16_t size;		// 4 or 8 bytes
	const char *name;	// stable JSON key: the enum suffix in lower case
};
// The plain numbers of a tunnel, in output order; the rest (dir, peer,
// local, state, active, reason, stats) have their own members.
extern const std::vector<TunnelField> kTunnelFields;
// The per-tunnel counters, in output order.
extern const std::vector<TunnelField> kTunnelStats;

struct Tunnel {
	uint8_t dir = 0;				// enum eqds_tunnel_dir; 0 if absent
	std::optional<Prefix> peer;			// a host: /32 or /128
	std::optional<Prefix> local;
	std::optional<uint8_t> state;			// enum eqds_tunnel_state
	std::optional<bool> active;
	std::optional<uint8_t> del_reason;		// enum eqds_tunnel_del_reason
	std::map<std::string, uint64_t> fields;		// kTunnelFields the kernel sent
	std::map<std::string, uint64_t> stats;		// kTunnelStats the kernel sent
};

// A notification: EQDS_CMD_TUNNEL_NEW, _DEL or _RESTART about one tunnel.
struct TunnelEvent {
	uint8_t cmd = 0;
	Tunnel tunnel;
};

// Names for the enums; "unknown(N)" for values this eqdsctl does not know.
std::string dir_string(uint8_t dir);			// "tx", "rx"
std::string state_string(uint8_t state);		// "syn", "confirmed", ...
std::string del_reason_string(uint8_t reason);	// "idle", "peer-silent", ...
std::string event_string(uint8_t cmd);			// "new", "del", "restart"

// The address of a host prefix, without the length ("10.0.0.1").
std::string format_addr(const Prefix &p);
// A peer given on the command line: an IPv4 or IPv6 address, no prefix
// length other than the full one. Throws PrefixError.
Prefix parse_peer(const std::string &text);

// Every EQDS_A_TUNNEL nest of one whole reply or notification message
// (netlink header included) of len bytes, of family family_id. *cmd gets
// the message's genl command when given. Unknown attributes are ignored;
// anything malformed throws ReplyError (instance.h).
std::vector<Tunnel> parse_tunnel_message(const void *msg, size_t len, int family_id,
					 uint8_t *cmd = nullptr);

// The attributes of one EQDS_A_TUNNEL nest's payload.
Tunnel parse_tunnel_attrs(const void *attrs, size_t len);

// Appends an EQDS_A_TUNNEL nest naming peer (when given) and dir (when
// nonzero) to msg. Throws std::length_error if msg is too small.
void put_tunnel_request(nl_msg *msg, const std::optional<Prefix> &peer, uint8_t dir);

} // namespace eqdsctl

#endif
