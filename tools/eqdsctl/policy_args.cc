// SPDX-License-Identifier: GPL-2.0 OR MIT
// Command lines of "policy" and "bound" (args.h).
#include "args.h"
#include "keyword.h"
#include "rate.h"

#include <linux/eqds.h>

namespace eqdsctl {

namespace {

Prefix prefix(const std::string &cmd, const std::string &word)
{
	try {
		return parse_prefix(word);
	} catch (const PrefixError &e) {
		throw UsageError(cmd + ": " + e.what());
	}
}

// KEYWORD VALUE pairs from args[i] on, each keyword at most once.
template <typename Fn>
void pairs(const std::string &cmd, const std::vector<std::string> &args, size_t i,
	   const std::vector<Keyword> &keywords, Fn &&fn)
{
	std::vector<std::string> seen;

	for (; i < args.size(); i += 2) {
		std::optional<std::string> name = match_keyword(cmd, args[i], keywords);
		if (!name)
			throw UsageError(cmd + ": unknown keyword " + quote(args[i]));
		const std::string &kw = *name;
		if (i + 1 >= args.size())
			throw UsageError(cmd + ": " + quote(kw) + " needs a value");
		for (const std::string &s : seen)
			if (s == kw)
				throw UsageError(cmd + ": " + quote(kw) + " given twice");
		seen.push_back(kw);
		if (!fn(kw, args[i + 1]))
			throw UsageError(cmd + ": unknown keyword " + quote(kw));
	}
}

} // namespace

void parse_policy_args(Request &req, const std::vector<std::string> &args, size_t i)
{
	static const std::vector<Keyword> subcommands = {
		{"show"},    {"list", "show"}, {"ls", "show"}, {"add"},   {"change"},
		{"replace"}, {"del"},	       {"delete", "del"}, {"flush"}, {"help"}};
	std::string sub = "show";
	PolicyRequest &p = req.policy;

	if (i < args.size()) {
		std::optional<std::string> name = match_keyword("policy", args[i], subcommands);
		sub = name ? *name : args[i];
		i++;
	}

	req.command = Command::Policy;
	if (sub == "help") {
		req.command = Command::Help;
	} else if (sub == "show") {
		p.op = PolicyRequest::Op::Show;
		if (i < args.size())
			throw UsageError("policy show: unexpected argument " + quote(args[i]));
	} else if (sub == "flush") {
		p.op = PolicyRequest::Op::Flush;
		if (i < args.size())
			throw UsageError("policy flush: unexpected argument " + quote(args[i]));
	} else if (sub == "add" || sub == "change" || sub == "replace") {
		std::string cmd = "policy " + sub;
		p.op = sub == "add"	 ? PolicyRequest::Op::Add
		       : sub == "change" ? PolicyRequest::Op::Change
					 : PolicyRequest::Op::Replace;
		if (i >= args.size())
			throw UsageError(cmd + ": which senders? (" + cmd + " PREFIX [weight N] "
					 "[prio P] [rate RATE])");
		p.rule.prefix = prefix(cmd, args[i]);
		pairs(cmd, args, i + 1, {{"weight"}, {"prio"}, {"rate"}},
		      [&](const std::string &kw, const std::string &v) {
			if (kw == "weight")
				p.rule.weight = parse_uint(cmd, kw, v, 1, EQDS_WEIGHT_MAX);
			else if (kw == "prio")
				p.rule.prio = static_cast<uint8_t>(
					parse_uint(cmd, kw, v, 0, EQDS_PRIO_MAX));
			else if (kw == "rate")
				p.rule.rate_mbit = v == "none" ? 0 :
					parse_rate_mbit(cmd, kw, v);
			else
				return false;
			return true;
		});
	} else if (sub == "del") {
		p.op = PolicyRequest::Op::Del;
		if (i >= args.size())
			throw UsageError("policy del: which prefix? (policy del PREFIX)");
		p.rule.prefix = prefix("policy del", args[i]);
		if (i + 1 < args.size())
			throw UsageError("policy del: unexpected argument " + quote(args[i + 1]));
	} else {
		throw UsageError("policy: unknown subcommand " + quote(sub) +
				 " (show, add, del or flush)");
	}
}

void parse_bound_args(Request &req, const std::vector<std::string> &args, size_t i)
{
	PolicyRequest &p = req.policy;

	req.command = Command::Bound;
	// Exactly "help": any other word may be a namespace's name.
	if (i < args.size() && args[i] == "help") {
		req.command = Command::Help;
		return;
	}
	if (i >= args.size())
		throw UsageError("bound: which namespace? (bound NETNS [pull-rate RATE] "
				 "[max-weight N] [min-prio P] | bound NETNS none)");
	p.netns = args[i++];
	if (p.netns.empty())
		throw UsageError("bound: empty namespace name");
	if (i < args.size() && args[i] == "none") {
		if (i + 1 < args.size())
			throw UsageError("bound: unexpected argument " + quote(args[i + 1]));
		return;
	}
	if (i >= args.size())
		throw UsageError("bound: nothing to bound (pull-rate, max-weight, min-prio "
				 "or none)");
	pairs("bound", args, i, {{"pull-rate"}, {"max-weight"}, {"min-prio"}},
	      [&](const std::string &kw, const std::string &v) {
		if (kw == "pull-rate")
			p.bound.pull_rate_mbit = v == "none" ? 0 : parse_rate_mbit("bound", kw, v);
		else if (kw == "max-weight")
			p.bound.max_weight = v == "none" ? 0 :
				parse_uint("bound", kw, v, 0, EQDS_WEIGHT_MAX);
		else if (kw == "min-prio")
			p.bound.min_prio = static_cast<uint8_t>(
				parse_uint("bound", kw, v, 0, EQDS_PRIO_MAX));
		else
			return false;
		return true;
	});
}

} // namespace eqdsctl
