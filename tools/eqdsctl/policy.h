// SPDX-License-Identifier: GPL-2.0 OR MIT
// The receiver sharing policy (EQDS_A_POLICY) and the host's bound on a
// namespace (EQDS_A_BOUND): parsed from a GET_INSTANCE reply, printed, and
// turned into request attributes. Documentation/policy.rst.
#ifndef EQDSCTL_POLICY_H
#define EQDSCTL_POLICY_H

#include "prefix.h"

#include <linux/eqds.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

struct nl_msg;

namespace eqdsctl {

struct PolicyRule {
	Prefix prefix;
	uint32_t weight = 1;			// 1..EQDS_WEIGHT_MAX
	uint8_t prio = EQDS_PRIO_DEFAULT;	// 0..EQDS_PRIO_MAX, 0 the highest
	uint32_t rate_mbit = 0;			// cap per sender; 0: none
};

// 0 in a field: no bound on it.
struct Bound {
	uint32_t pull_rate_mbit = 0;
	uint32_t max_weight = 0;
	uint8_t min_prio = 0;

	bool empty() const { return !pull_rate_mbit && !max_weight && !min_prio; }
};

struct Policy {
	std::vector<PolicyRule> rules;
	Bound bound;
};

// What "policy ..." and "bound ..." on the command line asked for.
struct PolicyRequest {
	enum class Op { Show, Add, Change, Replace, Del, Flush } op = Op::Show;
	PolicyRule rule;			// add...: the rule; del: its prefix
	std::string netns;			// bound: a name in /run/netns or a path
	Bound bound;				// bound: the new bound
};

// The policy and bound among a GET_INSTANCE reply's attributes (the bytes
// after the genl header); other attributes are skipped. Throws ReplyError.
Policy parse_policy_attrs(const void *attrs, size_t len);

// rules as EQDS_A_POLICY (the whole list), bound as EQDS_A_BOUND.
void put_policy_attr(nl_msg *msg, const std::vector<PolicyRule> &rules);
void put_bound_attr(nl_msg *msg, const Bound &bound);

// Adds rule, replacing the rule of the same prefix; false if that rule was
// the same already.
bool policy_add(std::vector<PolicyRule> &rules, const PolicyRule &rule);
// add (Op::Add: fails if PREFIX has a rule), change (Op::Change: fails if
// it has none) or replace (Op::Replace: either) rule in rules, as ip's
// add/change/replace. False if the rule was there already, the same. Throws
// StateError (exit 2, as the kernel's EEXIST or ENOENT would be).
bool policy_apply(std::vector<PolicyRule> &rules, PolicyRequest::Op op, const PolicyRule &rule);
// Removes the rule of prefix; false if there is none.
bool policy_del(std::vector<PolicyRule> &rules, const Prefix &prefix);

// Text, one rule per line, then the bound if there is one:
//   10.0.1.0/24 weight 3 prio 1
//   10.0.3.1/32 weight 1 prio 0 rate 100Mbit
//   bound: pull-rate 100Mbit max-weight 4 min-prio 1
// With details (-d), each rule line ends with the weight and level it gets
// under the bound ("effective weight 4 prio 1"), and a last line gives what
// senders no rule holds get ("default: weight 1 prio 1").
void print_policy_text(std::ostream &out, const Policy &p, bool details = false);
// JSON: {"policy":[{"prefix":...,"weight":...,"prio":...,"rate_mbit":...}],
//        "bound":{"pull_rate_mbit":...,"max_weight":...,"min_prio":...}}
// With details: each rule an "effective" object (weight, prio), and a last
// "default" object.
void print_policy_json(std::ostream &out, const Policy &p, bool pretty, bool details = false);
// eqdsctl monitor's lines for EQDS_CMD_POLICY_CHANGED: the text above on one
// line ("policy 10.0.1.0/24 weight 3 prio 1;bound: ..."), or the JSON above
// with "event":"policy" first.
void print_policy_event_text(std::ostream &out, const Policy &p);
void print_policy_event_json(std::ostream &out, const Policy &p);

} // namespace eqdsctl

#endif
