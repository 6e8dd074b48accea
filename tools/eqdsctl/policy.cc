// SPDX-License-Identifier: GPL-2.0 OR MIT
// Policy and bound attributes (policy.h).
#include "policy.h"

#include "details.h"
#include "exit_status.h"
#include "instance.h"
#include "json.h"
#include "nlattr_util.h"
#include "rate.h"

#include <netlink/attr.h>
#include <netlink/msg.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace eqdsctl {

namespace {

PolicyRule parse_rule(const nlattr *nest)
{
	PolicyRule r;
	std::optional<uint16_t> family;
	std::vector<uint8_t> addr;
	std::optional<uint8_t> len;

	nla::for_each(nla::payload(nest), nla::payload_len(nest), "policy rule",
		      [&](const nlattr *a) {
		switch (nla::type(a)) {
		case EQDS_POLICY_A_FAMILY:
			nla::expect_len(a, 2, "policy rule family");
			family = nla::get<uint16_t>(a);
			break;
		case EQDS_POLICY_A_ADDR:
			addr.assign(nla::payload(a), nla::payload(a) + nla::payload_len(a));
			break;
		case EQDS_POLICY_A_PREFIXLEN:
			nla::expect_len(a, 1, "policy rule prefix length");
			len = nla::get<uint8_t>(a);
			break;
		case EQDS_POLICY_A_WEIGHT:
			nla::expect_len(a, 4, "policy rule weight");
			r.weight = nla::get<uint32_t>(a);
			break;
		case EQDS_POLICY_A_PRIO:
			nla::expect_len(a, 1, "policy rule prio");
			r.prio = nla::get<uint8_t>(a);
			break;
		case EQDS_POLICY_A_RATE:
			nla::expect_len(a, 4, "policy rule rate");
			r.rate_mbit = nla::get<uint32_t>(a);
			break;
		}
	});
	if (!family || !len)
		throw ReplyError("policy rule without family or prefix length");
	try {
		r.prefix = make_prefix(*family, addr.data(), addr.size(), *len);
	} catch (const PrefixError &e) {
		throw ReplyError(std::string("policy rule: ") + e.what());
	}
	return r;
}

Bound parse_bound(const nlattr *nest)
{
	Bound b;

	nla::for_each(nla::payload(nest), nla::payload_len(nest), "bound",
		      [&](const nlattr *a) {
		switch (nla::type(a)) {
		case EQDS_BOUND_A_PULL_RATE:
			nla::expect_len(a, 4, "bound pull rate");
			b.pull_rate_mbit = nla::get<uint32_t>(a);
			break;
		case EQDS_BOUND_A_MAX_WEIGHT:
			nla::expect_len(a, 4, "bound max weight");
			b.max_weight = nla::get<uint32_t>(a);
			break;
		case EQDS_BOUND_A_MIN_PRIO:
			nla::expect_len(a, 1, "bound min prio");
			b.min_prio = nla::get<uint8_t>(a);
			break;
		}
	});
	return b;
}

// Empty nests are kept: an empty policy list is "no rules", an empty bound
// "no bound" (nla_nest_end() would drop them, and the request with them).
void nest_end_or_throw(nl_msg *msg, nlattr *nest)
{
	if (!nest || nla_nest_end_keep_empty(msg, nest) < 0)
		throw std::length_error("netlink message too small for the policy");
}

void check(int err)
{
	if (err < 0)
		throw std::length_error("netlink message too small for the policy");
}

} // namespace

Policy parse_policy_attrs(const void *attrs, size_t len)
{
	Policy p;

	nla::for_each(static_cast<const uint8_t *>(attrs), len, "instance",
		      [&](const nlattr *a) {
		if (nla::type(a) == EQDS_A_POLICY)
			nla::for_each(nla::payload(a), nla::payload_len(a), "policy",
				      [&](const nlattr *r) { p.rules.push_back(parse_rule(r)); });
		else if (nla::type(a) == EQDS_A_BOUND)
			p.bound = parse_bound(a);
	});
	return p;
}

void put_policy_attr(nl_msg *msg, const std::vector<PolicyRule> &rules)
{
	nlattr *list = nla_nest_start(msg, EQDS_A_POLICY);

	if (!list)
		check(-1);
	for (size_t i = 0; i < rules.size(); i++) {
		const PolicyRule &r = rules[i];
		nlattr *nest = nla_nest_start(msg, static_cast<int>(i + 1));

		if (!nest)
			check(-1);
		check(nla_put_u16(msg, EQDS_POLICY_A_FAMILY, r.prefix.family));
		check(nla_put(msg, EQDS_POLICY_A_ADDR,
			      static_cast<int>(Prefix::addr_len(r.prefix.family)),
			      r.prefix.addr.data()));
		check(nla_put_u8(msg, EQDS_POLICY_A_PREFIXLEN, r.prefix.len));
		check(nla_put_u32(msg, EQDS_POLICY_A_WEIGHT, r.weight));
		check(nla_put_u8(msg, EQDS_POLICY_A_PRIO, r.prio));
		check(nla_put_u32(msg, EQDS_POLICY_A_RATE, r.rate_mbit));
		nest_end_or_throw(msg, nest);
	}
	nest_end_or_throw(msg, list);
}

void put_bound_attr(nl_msg *msg, const Bound &b)
{
	nlattr *nest = nla_nest_start(msg, EQDS_A_BOUND);

	if (!nest)
		check(-1);
	if (b.pull_rate_mbit)
		check(nla_put_u32(msg, EQDS_BOUND_A_PULL_RATE, b.pull_rate_mbit));
	if (b.max_weight)
		check(nla_put_u32(msg, EQDS_BOUND_A_MAX_WEIGHT, b.max_weight));
	if (b.min_prio)
		check(nla_put_u8(msg, EQDS_BOUND_A_MIN_PRIO, b.min_prio));
	nest_end_or_throw(msg, nest);
}

bool policy_add(std::vector<PolicyRule> &rules, const PolicyRule &rule)
{
	for (PolicyRule &r : rules) {
		if (r.prefix != rule.prefix)
			continue;
		bool same = r.weight == rule.weight && r.prio == rule.prio &&
			    r.rate_mbit == rule.rate_mbit;
		r = rule;
		return !same;
	}
	rules.push_back(rule);
	return true;
}

bool policy_apply(std::vector<PolicyRule> &rules, PolicyRequest::Op op, const PolicyRule &rule)
{
	bool exists = std::any_of(rules.begin(), rules.end(),
				  [&](const PolicyRule &r) { return r.prefix == rule.prefix; });

	if (exists && op == PolicyRequest::Op::Add)
		throw StateError("a rule for " + format_prefix(rule.prefix) +
				 " exists (File exists): 'policy replace' or 'policy change' "
				 "updates it");
	if (!exists && op == PolicyRequest::Op::Change)
		throw StateError("no rule for " + format_prefix(rule.prefix) +
				 " (No such file or directory): 'policy add' or 'policy replace' "
				 "creates it");
	return policy_add(rules, rule);
}

bool policy_del(std::vector<PolicyRule> &rules, const Prefix &prefix)
{
	auto it = std::find_if(rules.begin(), rules.end(),
			       [&](const PolicyRule &r) { return r.prefix == prefix; });

	if (it == rules.end())
		return false;
	rules.erase(it);
	return true;
}

void print_policy_text(std::ostream &out, const Policy &p, bool details)
{
	if (p.rules.empty())
		out << "policy: none (every sender weight 1 prio " << int(EQDS_PRIO_DEFAULT)
		    << ")\n";
	for (const PolicyRule &r : p.rules) {
		out << format_prefix(r.prefix) << " weight " << r.weight << " prio "
		    << int(r.prio);
		if (r.rate_mbit)
			out << " rate " << format_rate_mbit(r.rate_mbit);
		if (details) {
			Share s = clamp_share(r, p.bound);
			out << " effective weight " << s.weight << " prio " << int(s.prio);
		}
		out << "\n";
	}
	if (details) {
		Share s = default_share(p.bound);
		out << "default: weight " << s.weight << " prio " << int(s.prio) << "\n";
	}
	if (p.bound.empty())
		return;
	out << "bound:";
	if (p.bound.pull_rate_mbit)
		out << " pull-rate " << format_rate_mbit(p.bound.pull_rate_mbit);
	if (p.bound.max_weight)
		out << " max-weight " << p.bound.max_weight;
	if (p.bound.min_prio)
		out << " min-prio " << int(p.bound.min_prio);
	out << "\n";
}

namespace {

void policy_fields(JsonWriter &w, const Policy &p, bool details = false)
{
	w.key("policy");
	w.begin_array();
	for (const PolicyRule &r : p.rules) {
		w.begin_object();
		w.key("prefix");
		w.string(format_prefix(r.prefix));
		w.key("weight");
		w.u64(r.weight);
		w.key("prio");
		w.u64(r.prio);
		w.key("rate_mbit");
		w.u64(r.rate_mbit);
		if (details) {
			w.key("effective");
			write_weight_prio_json(w, clamp_share(r, p.bound));
		}
		w.end_object();
	}
	w.end_array();
	w.key("bound");
	write_bound_json(w, p.bound);
	if (details) {
		w.key("default");
		write_weight_prio_json(w, default_share(p.bound));
	}
}

} // namespace

void print_policy_json(std::ostream &out, const Policy &p, bool pretty, bool details)
{
	JsonWriter w(out, pretty);

	w.begin_object();
	policy_fields(w, p, details);
	w.end_object();
	out << "\n";
}

void print_policy_event_text(std::ostream &out, const Policy &p)
{
	std::ostringstream s;

	print_policy_text(s, p);
	std::string text = s.str();
	// One line per event, as the tunnel events: rules joined by "; ".
	while (!text.empty() && text.back() == '\n')
		text.pop_back();
	for (char &c : text)
		if (c == '\n')
			c = ';';
	out << "policy " << text << "\n";
}

void print_policy_event_json(std::ostream &out, const Policy &p)
{
	JsonWriter w(out);

	w.begin_object();
	w.key("event");
	w.string("policy");
	policy_fields(w, p);
	w.end_object();
	out << "\n";
}

} // namespace eqdsctl
