// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "details.h"

#include "rate.h"

#include <algorithm>

namespace eqdsctl {

Ecn effective_ecn(uint32_t queue_limit, uint32_t ecn_min, uint32_t ecn_max)
{
	uint32_t min = ecn_min ? ecn_min : queue_limit / 2 + queue_limit % 2;

	return {min, std::max(ecn_max, min)};
}

uint32_t pull_rate_max_mbit(uint32_t pull_rate_mbit, const Bound &bound)
{
	if (!pull_rate_mbit)
		return bound.pull_rate_mbit;
	if (!bound.pull_rate_mbit)
		return pull_rate_mbit;
	return std::min(pull_rate_mbit, bound.pull_rate_mbit);
}

Share clamp_share(const PolicyRule &rule, const Bound &bound)
{
	Share s;

	s.rule = rule.prefix;
	s.weight = bound.max_weight ? std::min(rule.weight, bound.max_weight) : rule.weight;
	s.prio = std::max(rule.prio, bound.min_prio);
	s.rate_mbit = rule.rate_mbit;
	return s;
}

Share default_share(const Bound &bound)
{
	PolicyRule none;
	Share s = clamp_share(none, bound);

	s.rule.reset();
	return s;
}

bool prefix_holds(const Prefix &prefix, const Prefix &addr)
{
	if (prefix.family != addr.family)
		return false;
	unsigned bytes = prefix.len / 8, bits = prefix.len % 8;
	if (!std::equal(prefix.addr.begin(), prefix.addr.begin() + bytes, addr.addr.begin()))
		return false;
	if (!bits)
		return true;
	uint8_t mask = static_cast<uint8_t>(0xff00 >> bits);
	return (prefix.addr[bytes] & mask) == (addr.addr[bytes] & mask);
}

Share share_for(const Policy &policy, const Prefix &peer)
{
	const PolicyRule *best = nullptr;

	for (const PolicyRule &r : policy.rules)
		if ((!best || r.prefix.len > best->prefix.len) && prefix_holds(r.prefix, peer))
			best = &r;
	return best ? clamp_share(*best, policy.bound) : default_share(policy.bound);
}

namespace {

std::string bound_text(const Bound &b)
{
	std::string s;

	if (b.pull_rate_mbit)
		s += " pull-rate " + format_rate_mbit(b.pull_rate_mbit);
	if (b.max_weight)
		s += " max-weight " + std::to_string(b.max_weight);
	if (b.min_prio)
		s += " min-prio " + std::to_string(b.min_prio);
	return s.empty() ? " none" : s;
}

} // namespace

void print_instance_details_text(std::ostream &out, const Config &c, const Bound &bound)
{
	std::string line;

	if (c.pull_rate_mbit) {
		uint32_t max = pull_rate_max_mbit(*c.pull_rate_mbit, bound);
		line += "  pull-rate ";
		if (*c.pull_rate_mbit)
			line += format_rate_mbit(max);
		else
			line += max ? "auto (at most " + format_rate_mbit(max) + ")" : "auto";
	}
	auto ecn = [&line](const char *cls, const std::optional<uint32_t> &limit,
			   const std::optional<uint32_t> &min, const std::optional<uint32_t> &max) {
		if (!limit || !min || !max)
			return;
		Ecn e = effective_ecn(*limit, *min, *max);
		line += std::string("  ") + cls + "-ecn-min " + std::to_string(e.min) + "  " + cls +
			"-ecn-max " + std::to_string(e.max);
	};
	ecn("tcp", c.queue_limit, c.tcp_ecn_min, c.tcp_ecn_max);
	ecn("ll", c.ll_queue_limit, c.ll_ecn_min, c.ll_ecn_max);
	if (!line.empty())
		out << "  effective:" << line.substr(1) << "\n";
	out << "  bound:" << bound_text(bound) << "\n";
}

void write_instance_details_json(JsonWriter &w, const Config &c, const Bound &bound)
{
	w.key("details");
	w.begin_object();
	w.key("pull_rate_max_mbit");
	if (c.pull_rate_mbit)
		w.u64(pull_rate_max_mbit(*c.pull_rate_mbit, bound));
	else
		w.null();
	auto ecn = [&w](const char *cls, const std::optional<uint32_t> &limit,
			const std::optional<uint32_t> &min, const std::optional<uint32_t> &max) {
		std::string k(cls);
		if (!limit || !min || !max) {
			w.key(k + "_ecn_min");
			w.null();
			w.key(k + "_ecn_max");
			w.null();
			return;
		}
		Ecn e = effective_ecn(*limit, *min, *max);
		w.key(k + "_ecn_min");
		w.u64(e.min);
		w.key(k + "_ecn_max");
		w.u64(e.max);
	};
	ecn("tcp", c.queue_limit, c.tcp_ecn_min, c.tcp_ecn_max);
	ecn("ll", c.ll_queue_limit, c.ll_ecn_min, c.ll_ecn_max);
	w.key("bound");
	write_bound_json(w, bound);
	w.end_object();
}

std::string share_text(const Share &s)
{
	std::string t = "policy " + (s.rule ? format_prefix(*s.rule) : std::string("default")) +
			" weight " + std::to_string(s.weight) + " prio " + std::to_string(s.prio);

	if (s.rate_mbit)
		t += " rate " + format_rate_mbit(s.rate_mbit);
	return t;
}

void write_bound_json(JsonWriter &w, const Bound &b)
{
	w.begin_object();
	w.key("pull_rate_mbit");
	w.u64(b.pull_rate_mbit);
	w.key("max_weight");
	w.u64(b.max_weight);
	w.key("min_prio");
	w.u64(b.min_prio);
	w.end_object();
}

void write_weight_prio_json(JsonWriter &w, const Share &s)
{
	w.begin_object();
	w.key("weight");
	w.u64(s.weight);
	w.key("prio");
	w.u64(s.prio);
	w.end_object();
}

void write_share_json(JsonWriter &w, const Share &s)
{
	w.begin_object();
	w.key("prefix");
	if (s.rule)
		w.string(format_prefix(*s.rule));
	else
		w.null();
	w.key("weight");
	w.u64(s.weight);
	w.key("prio");
	w.u64(s.prio);
	w.key("rate_mbit");
	w.u64(s.rate_mbit);
	w.end_object();
}

} // namespace eqdsctl
