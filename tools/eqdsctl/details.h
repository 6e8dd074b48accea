// SPDX-License-Identifier: GPL-2.0 OR MIT
// What -d adds: the values the kernel applies, derived from what its replies
// carry (no attribute of their own): thresholds left on auto, the share a
// sender gets after the namespace's bound, the most its receiver pulls.
#ifndef EQDSCTL_DETAILS_H
#define EQDSCTL_DETAILS_H

#include "instance.h"
#include "json.h"
#include "policy.h"

#include <cstdint>
#include <optional>
#include <ostream>

namespace eqdsctl {

// A class's ECN thresholds as the sender applies them (kmod/tx_tunnel.c,
// admit()): min 0 is half the limit, rounded up; max is at least min.
struct Ecn {
	uint32_t min, max;
};
Ecn effective_ecn(uint32_t queue_limit, uint32_t ecn_min, uint32_t ecn_max);

// The most the namespace's receiver pulls at, Mbit/s (kmod/pull.c,
// update_rate()): the set rate under the host's bound; 0 when neither
// limits it (auto: the link speed less the headroom).
uint32_t pull_rate_max_mbit(uint32_t pull_rate_mbit, const Bound &bound);

// The share the receiver gives one sender (kmod/policy.c,
// eqds_policy_apply()): the rule of the longest prefix holding it (none:
// weight 1, the default level, no cap), its weight and level clamped to the
// bound. The cap is the rule's: the bound limits the receiver as a whole.
struct Share {
	std::optional<Prefix> rule;
	uint32_t weight = 1;
	uint8_t prio = EQDS_PRIO_DEFAULT;
	uint32_t rate_mbit = 0;
};
Share clamp_share(const PolicyRule &rule, const Bound &bound);
Share default_share(const Bound &bound);
Share share_for(const Policy &policy, const Prefix &peer);

// True if prefix holds addr (a host prefix of the same family).
bool prefix_holds(const Prefix &prefix, const Prefix &addr);

// show -d: "  effective: pull-rate ...  tcp-ecn-min N ..." and "  bound: ..."
// lines; JSON: a "details" key and its object.
void print_instance_details_text(std::ostream &out, const Config &c, const Bound &bound);
void write_instance_details_json(JsonWriter &w, const Config &c, const Bound &bound);

// tunnel -d (receiving side): "policy PREFIX|default weight W prio P [rate R]".
std::string share_text(const Share &s);
void write_share_json(JsonWriter &w, const Share &s);
// {"pull_rate_mbit", "max_weight", "min_prio"} of a bound.
void write_bound_json(JsonWriter &w, const Bound &b);
// {"weight", "prio"} of a share.
void write_weight_prio_json(JsonWriter &w, const Share &s);

} // namespace eqdsctl

#endif
