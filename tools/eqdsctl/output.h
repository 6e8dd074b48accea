// SPDX-License-Identifier: GPL-2.0 OR MIT
// Presenting an Instance: human-readable text or one JSON object.
#ifndef EQDSCTL_OUTPUT_H
#define EQDSCTL_OUTPUT_H

#include "instance.h"
#include "policy.h"

#include <ostream>

namespace eqdsctl {

// "eqds: version V" then indented settings, destinations and, with stats,
// the counters. Fields the kernel did not send are left out. With details
// (-d, the namespace's bound), the effective values of details.h too.
void print_text(std::ostream &out, const Instance &inst, bool stats,
		const Bound *details = nullptr);

// One JSON object and a newline. Keys (stable, see eqdsctl(8)): version,
// port, mode, pull_rate_mbit, headroom, window, queue_limit, idle_timeout_ms, dests,
// stats (every known counter), and with details a "details" object
// (details.h). A value the kernel did not send is null.
void print_json(std::ostream &out, const Instance &inst, bool pretty,
		const Bound *details = nullptr);

} // namespace eqdsctl

#endif
