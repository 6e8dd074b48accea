// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "saveconf.h"

#include "args.h"
#include "exit_status.h"
#include "rate.h"

#include <cstdio>
#include <sstream>

namespace eqdsctl {

namespace {

std::string auto_or(uint32_t v)
{
	return v ? std::to_string(v) : "auto";
}

// word for 0 (auto, none), else text.
std::string word_or(uint32_t v, const char *word, const std::string &text)
{
	return v ? text : word;
}

std::string hex(uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "0x%x", v);
	return buf;
}

// "set" and the items, one line; nothing if there are none.
void set_line(std::ostream &out, const std::vector<std::string> &items)
{
	if (items.empty())
		return;
	out << "set";
	for (const std::string &s : items)
		out << " " << s;
	out << "\n";
}

} // namespace

std::string save_text(const Config &c, const std::vector<PolicyRule> &rules)
{
	std::ostringstream out;
	std::vector<std::string> items;
	auto num = [&items](const char *kw, const std::optional<uint32_t> &v) {
		if (v)
			items.push_back(std::string(kw) + " " + std::to_string(*v));
	};

	out << "# eqds configuration: eqdsctl restore FILE applies it (eqdsctl(8))\n";
	if (c.port)
		items.push_back("port " + std::to_string(*c.port));
	if (c.mode)
		items.push_back("mode " + mode_string(*c.mode));
	if (c.pull_rate_mbit)
		items.push_back("pull-rate " + word_or(*c.pull_rate_mbit, "auto",
						       format_rate_mbit(*c.pull_rate_mbit)));
	if (c.headroom)
		items.push_back("headroom " + std::to_string(*c.headroom));
	set_line(out, items);
	items.clear();
	num("window", c.window);
	num("queue-limit", c.queue_limit);
	num("idle-timeout", c.idle_timeout_ms);
	if (c.queued_limit_kb)
		items.push_back("queued-limit " + word_or(*c.queued_limit_kb, "none",
							  std::to_string(*c.queued_limit_kb)));
	set_line(out, items);
	items.clear();
	if (c.tcp_ecn_min)
		items.push_back("tcp-ecn-min " + auto_or(*c.tcp_ecn_min));
	if (c.tcp_ecn_max)
		items.push_back("tcp-ecn-max " + auto_or(*c.tcp_ecn_max));
	if (c.tcp_tc_priority)
		items.push_back("tcp-tc-priority " + format_tc_priority(*c.tcp_tc_priority));
	set_line(out, items);
	items.clear();
	num("ll-queue-limit", c.ll_queue_limit);
	if (c.ll_ecn_min)
		items.push_back("ll-ecn-min " + auto_or(*c.ll_ecn_min));
	if (c.ll_ecn_max)
		items.push_back("ll-ecn-max " + auto_or(*c.ll_ecn_max));
	if (c.ll_tc_priority)
		items.push_back("ll-tc-priority " + format_tc_priority(*c.ll_tc_priority));
	if (c.ll_priority)
		items.push_back("ll-priority " + word_or(*c.ll_priority, "none",
							 format_tc_priority(*c.ll_priority)));
	if (c.ll_mark && c.ll_mark_mask)
		items.push_back("ll-mark " + (*c.ll_mark_mask ? hex(*c.ll_mark) + "/" +
									hex(*c.ll_mark_mask)
							      : std::string("none")));
	set_line(out, items);
	items.clear();
	if (c.dests) {
		std::string list;
		for (const Prefix &p : *c.dests)
			list += (list.empty() ? "" : ",") + format_prefix(p);
		items.push_back("dests " + (list.empty() ? std::string("none") : list));
	}
	set_line(out, items);

	out << "policy flush\n";
	for (const PolicyRule &r : rules) {
		out << "policy add " << format_prefix(r.prefix) << " weight " << r.weight
		    << " prio " << int(r.prio);
		if (r.rate_mbit)
			out << " rate " << format_rate_mbit(r.rate_mbit);
		out << "\n";
	}
	return out.str();
}

void merge_config(Config &into, const Config &from)
{
	auto take = [](auto &to, const auto &v) {
		if (v)
			to = v;
	};
	take(into.port, from.port);
	take(into.dests, from.dests);
	take(into.pull_rate_mbit, from.pull_rate_mbit);
	take(into.headroom, from.headroom);
	take(into.mode, from.mode);
	take(into.window, from.window);
	take(into.queue_limit, from.queue_limit);
	take(into.idle_timeout_ms, from.idle_timeout_ms);
	take(into.tcp_ecn_min, from.tcp_ecn_min);
	take(into.tcp_ecn_max, from.tcp_ecn_max);
	take(into.tcp_tc_priority, from.tcp_tc_priority);
	take(into.ll_queue_limit, from.ll_queue_limit);
	take(into.ll_ecn_min, from.ll_ecn_min);
	take(into.ll_ecn_max, from.ll_ecn_max);
	take(into.ll_tc_priority, from.ll_tc_priority);
	take(into.ll_priority, from.ll_priority);
	take(into.ll_mark, from.ll_mark);
	take(into.ll_mark_mask, from.ll_mark_mask);
	take(into.queued_limit_kb, from.queued_limit_kb);
}

Restore parse_restore(std::istream &in, const std::string &name)
{
	Restore r;
	std::string line;

	for (size_t n = 1; std::getline(in, line); n++) {
		std::istringstream ws(line.substr(0, line.find('#')));
		std::vector<std::string> words;
		for (std::string w; ws >> w;)
			words.push_back(w);
		if (words.empty())
			continue;
		std::string where = name + ":" + std::to_string(n) + ": ";
		Request req;
		try {
			req = parse_args(words);
		} catch (const UsageError &e) {
			throw UsageError(where + e.what());
		}
		if (req.command == Command::Set)
			merge_config(r.config, req.config);
		else if (req.command == Command::Policy && req.policy.op != PolicyRequest::Op::Show)
			r.policy.push_back(req.policy);
		else
			throw UsageError(where + "only set and policy (add, change, replace, del, "
						 "flush) lines can be restored");
	}
	if (in.bad())
		throw ArgumentError("cannot read " + name);
	return r;
}

void apply_policy(std::vector<PolicyRule> &rules, const std::vector<PolicyRequest> &ops)
{
	for (const PolicyRequest &p : ops) {
		switch (p.op) {
		case PolicyRequest::Op::Flush:
			rules.clear();
			break;
		case PolicyRequest::Op::Del:
			if (!policy_del(rules, p.rule.prefix))
				throw StateError("no rule for " + format_prefix(p.rule.prefix));
			break;
		default:
			policy_apply(rules, p.op, p.rule);
			break;
		}
	}
}

} // namespace eqdsctl
