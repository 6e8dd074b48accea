// SPDX-License-Identifier: GPL-2.0 OR MIT
// Presenting tunnels and tunnel events: text in the style of `ip -s link`
// and `wg show`, or JSON with stable keys (eqdsctl(8)).
#ifndef EQDSCTL_TUNNEL_OUTPUT_H
#define EQDSCTL_TUNNEL_OUTPUT_H

#include "json.h"
#include "policy.h"
#include "tunnel.h"

#include <ostream>

namespace eqdsctl {

// One tunnel: a header line "tx 10.0.0.2 id 3 epoch E confirmed idle 5ms
// ...", an indented line of its state and, with stats, one of its
// counters. Values the kernel did not send are left out. With details (-d,
// the namespace's policy), a receiving tunnel gets a line of the share its
// sender gets (details.h).
void print_tunnel_text(std::ostream &out, const Tunnel &t, bool stats,
		       const Policy *details = nullptr);

// One tunnel as a JSON object: dir, id, peer, local (rx), epoch, state,
// the other kTunnelFields the kernel sent, active (rx), and stats (every
// counter of its side) when stats is true, and for a receiving tunnel with
// details a "policy" object (prefix or null, weight, prio, rate_mbit).
void write_tunnel_json(JsonWriter &w, const Tunnel &t, bool stats,
		       const Policy *details = nullptr);

// One event: "new tx 10.0.0.2 id 3 epoch E", "del ... reason idle".
void print_event_text(std::ostream &out, const TunnelEvent &e);
// One event as one JSON object on one line: event, dir, id, peer, epoch,
// and reason for "del".
void print_event_json(std::ostream &out, const TunnelEvent &e);

} // namespace eqdsctl

#endif
