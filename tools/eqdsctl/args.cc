// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "args.h"
#include "keyword.h"
#include "rate.h"

#include <linux/eqds.h>

#include <algorithm>
#include <set>
#include <string_view>

namespace eqdsctl {

std::string quote(std::string_view s)
{
	return "'" + std::string(s) + "'";
}

namespace {

uint32_t parse_number(std::string_view kw, std::string_view word, uint64_t min, uint64_t max,
		      std::string_view suffix = {})
{
	return parse_uint("set", kw, word, min, max, suffix);
}

// A hex digit's value, or -1.
int hex_digit(char ch)
{
	return ch >= '0' && ch <= '9' ? ch - '0'
	       : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
	       : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

std::vector<Prefix> parse_dests(std::string_view word)
{
	std::vector<Prefix> dests;
	std::vector<std::string> spelled;

	if (word == "none")
		return dests;
	if (word.empty())
		throw UsageError("set: dests: empty list (use 'none' to clear it)");
	size_t start = 0;
	for (;;) {
		size_t comma = word.find(',', start);
		std::string_view item = word.substr(start, comma == std::string_view::npos
								   ? std::string_view::npos
								   : comma - start);
		if (item.empty())
			throw UsageError("set: dests: empty entry in " + quote(word));
		Prefix p;
		try {
			p = parse_prefix(item);
		} catch (const PrefixError &e) {
			throw UsageError(std::string("set: dests: ") + e.what());
		}
		auto dup = std::find(dests.begin(), dests.end(), p);
		if (dup != dests.end()) {
			std::string first = spelled[static_cast<size_t>(dup - dests.begin())];
			throw UsageError("set: dests: " + quote(item) + " repeats " + quote(first) +
					 " (both are " + format_prefix(p) + ")");
		}
		dests.push_back(p);
		spelled.emplace_back(item);
		if (dests.size() > EQDS_MAX_DESTS)
			throw UsageError("set: dests: more than " + std::to_string(EQDS_MAX_DESTS) +
					 " prefixes");
		if (comma == std::string_view::npos)
			break;
		start = comma + 1;
	}
	return dests;
}

bool is_global_option(std::string_view w)
{
	return w == "-j" || w == "--json" || w == "-s" || w == "--stats" || w == "-p" ||
	       w == "--pretty" || w == "-h" || w == "--help" || w == "-V" || w == "--version" ||
	       w == "-d" || w == "--details" || w == "-force" || w == "--force" || w == "-b" ||
	       w == "--batch";
}

[[noreturn]] void unexpected(std::string_view cmd, std::string_view word)
{
	std::string msg = std::string(cmd) + ": unexpected argument " + quote(word);
	if (is_global_option(word))
		msg += " (options go before the command)";
	throw UsageError(msg);
}

// A priority as SO_PRIORITY and tc write it: decimal, or "MAJ:MIN" in hex
// (a tc class id, 16 bits each).
uint32_t parse_priority(std::string_view kw, std::string_view word)
{
	size_t colon = word.find(':');
	if (colon == std::string_view::npos)
		return parse_number(kw, word, 0, UINT32_MAX);
	auto hex16 = [&](std::string_view h) {
		uint32_t v = 0;
		if (h.empty() || h.size() > 4)
			throw UsageError("set: " + std::string(kw) + ": " + quote(word) +
					 " is not a number or a MAJ:MIN class id");
		for (char ch : h) {
			int d = hex_digit(ch);
			if (d < 0)
				throw UsageError("set: " + std::string(kw) + ": " + quote(word) +
						 " is not a number or a MAJ:MIN class id");
			v = v * 16 + static_cast<uint32_t>(d);
		}
		return v;
	};
	return hex16(word.substr(0, colon)) << 16 | hex16(word.substr(colon + 1));
}

// A mark: decimal or 0x-prefixed hex, 32 bits.
uint32_t parse_mark(std::string_view kw, std::string_view word)
{
	if (word.size() > 2 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) {
		std::string_view h = word.substr(2);
		uint64_t v = 0;
		bool ok = h.size() <= 8;
		for (char ch : h) {
			int d = hex_digit(ch);
			if (d < 0)
				ok = false;
			v = v * 16 + static_cast<uint64_t>(d < 0 ? 0 : d);
		}
		if (!ok)
			throw UsageError("set: " + std::string(kw) + ": " + quote(word) +
					 " is not a 32-bit mark");
		return static_cast<uint32_t>(v);
	}
	return parse_number(kw, word, 0, UINT32_MAX);
}

// "ll-mark MARK[/MASK]|none": the mask defaults to all ones.
void parse_ll_mark(Config &c, std::string_view v)
{
	if (v == "none") {
		c.ll_mark = 0;
		c.ll_mark_mask = 0;
		return;
	}
	size_t slash = v.find('/');
	c.ll_mark = parse_mark("ll-mark", v.substr(0, slash));
	c.ll_mark_mask = slash == std::string_view::npos ? UINT32_MAX
							 : parse_mark("ll-mark", v.substr(slash + 1));
	if (*c.ll_mark & ~*c.ll_mark_mask)
		throw UsageError("set: ll-mark: " + quote(v) + " has bits outside its mask");
}

void parse_set(Request &req, const std::vector<std::string> &args, size_t i)
{
	Config &c = req.config;
	std::set<std::string> seen;

	static const std::vector<Keyword> keywords = {
		{"port"},	 {"dests"},	  {"pull-rate"},       {"headroom"},
		{"mode"},	 {"window"},	  {"queue-limit"},     {"idle-timeout"},
		{"tcp-ecn-min"}, {"tcp-ecn-max"}, {"tcp-tc-priority"}, {"ll-queue-limit"},
		{"ll-ecn-min"},	 {"ll-ecn-max"},  {"ll-tc-priority"},  {"ll-priority"},
		{"ll-mark"},	 {"queued-limit"},  {"help"}};

	for (size_t first = i; i < args.size(); i += 2) {
		std::optional<std::string> name = match_keyword("set", args[i], keywords);
		if (name == "help" && i == first) {
			req.command = Command::Help;
			return;
		}
		if (!name || name == "help")
			unexpected("set", args[i]);
		const std::string &kw = *name;
		if (!seen.insert(kw).second)
			throw UsageError("set: " + quote(kw) + " given twice");
		if (i + 1 >= args.size())
			throw UsageError("set: " + quote(kw) + " needs a value");
		const std::string &v = args[i + 1];

		if (kw == "port") {
			c.port = static_cast<uint16_t>(
				parse_number(kw, v, EQDS_PORT_MIN, UINT16_MAX));
		} else if (kw == "dests") {
			c.dests = parse_dests(v);
		} else if (kw == "pull-rate") {
			c.pull_rate_mbit = v == "auto" ? 0 : parse_rate_mbit("set", kw, v);
		} else if (kw == "headroom") {
			c.headroom = static_cast<uint8_t>(
				parse_number(kw, v, 0, EQDS_HEADROOM_MAX, "%"));
		} else if (kw == "mode") {
			std::optional<std::string> m =
				match_keyword("set: mode", v, {{"rts"}, {"burst"}});
			c.mode = mode_from_name(m ? *m : v);
			if (!c.mode)
				throw UsageError("set: mode: " + quote(v) + " is not rts or burst");
		} else if (kw == "window") {
			c.window = parse_number(kw, v, EQDS_WINDOW_MIN, EQDS_WINDOW_MAX);
		} else if (kw == "queue-limit") {
			c.queue_limit =
				parse_number(kw, v, EQDS_QUEUE_LIMIT_MIN, EQDS_QUEUE_LIMIT_MAX);
		} else if (kw == "ll-queue-limit") {
			c.ll_queue_limit =
				parse_number(kw, v, EQDS_QUEUE_LIMIT_MIN, EQDS_QUEUE_LIMIT_MAX);
		} else if (kw == "tcp-ecn-min" || kw == "tcp-ecn-max" || kw == "ll-ecn-min" ||
			   kw == "ll-ecn-max") {
			uint32_t n = v == "auto" ? 0 : parse_number(kw, v, 0, EQDS_ECN_THRESHOLD_MAX);
			(kw == "tcp-ecn-min"   ? c.tcp_ecn_min
			 : kw == "tcp-ecn-max" ? c.tcp_ecn_max
			 : kw == "ll-ecn-min"  ? c.ll_ecn_min
					       : c.ll_ecn_max) = n;
		} else if (kw == "tcp-tc-priority") {
			c.tcp_tc_priority = parse_priority(kw, v);
		} else if (kw == "ll-tc-priority") {
			c.ll_tc_priority = parse_priority(kw, v);
		} else if (kw == "ll-priority") {
			c.ll_priority = v == "none" ? 0 : parse_priority(kw, v);
		} else if (kw == "ll-mark") {
			parse_ll_mark(c, v);
		} else if (kw == "queued-limit") {
			c.queued_limit_kb = v == "none" ? 0
				: parse_number(kw, v, 0, EQDS_QUEUED_LIMIT_KB_MAX, "kb");
		} else {
			c.idle_timeout_ms = parse_number(kw, v, EQDS_IDLE_TIMEOUT_MIN,
							 EQDS_IDLE_TIMEOUT_MAX, "ms");
		}
	}
	if (c.empty())
		throw UsageError("set: nothing to set");
}

// One option word; "-js" style clusters of short options are accepted, and
// ip's single-dash spellings of the options it has in long form only
// (-force, -details, -batch). Returns the word with a long option's name
// completed ("--netns", "--batch": their value is the next word).
std::string parse_option(Request &req, const std::string &word)
{
	static const std::vector<Keyword> long_options = {
		{"--json"},	{"--stats"}, {"--pretty"}, {"--help"},	{"--version"},
		{"--netns"},	{"--details"}, {"--batch"}, {"--force"}};
	std::optional<std::string> name;

	if (word.size() > 2 && word[0] == '-' && word[1] == '-')
		name = match_keyword("", word, long_options);
	else if (word == "-force" || word == "-details" || word == "-batch")
		name = "-" + word;
	const std::string &w = name ? *name : word;
	if (w == "--json") {
		req.json = true;
	} else if (w == "--stats") {
		req.stats = true;
	} else if (w == "--pretty") {
		req.pretty = req.json = true;
	} else if (w == "--help") {
		req.command = Command::Help;
	} else if (w == "--version") {
		req.command = Command::Version;
	} else if (w == "--details") {
		req.details = true;
	} else if (w == "--force") {
		req.force = true;
	} else if (w == "--netns" || w == "--batch") {
		// Its value is the next word (parse_args).
	} else if (w.size() >= 2 && w[0] == '-' && w[1] != '-') {
		for (size_t k = 1; k < w.size(); k++) {
			switch (w[k]) {
			case 'j':
				req.json = true;
				break;
			case 's':
				req.stats = true;
				break;
			case 'p':
				req.pretty = req.json = true;
				break;
			case 'h':
				req.command = Command::Help;
				break;
			case 'V':
				req.command = Command::Version;
				break;
			case 'd':
				req.details = true;
				break;
			case 'n':
				// Its value is the next word (parse_args): last in a cluster.
				if (k + 1 != w.size())
					throw UsageError("option '-n' needs a namespace name");
				break;
			case 'b':
				if (k + 1 != w.size())
					throw UsageError("option '-b' needs a file name ('-': standard "
							 "input)");
				break;
			default:
				throw UsageError("unknown option " + quote(w.size() == 2
									? w
									: std::string("-") + w[k]));
			}
		}
	} else {
		throw UsageError("unknown option " + quote(w));
	}
	return w;
}

} // namespace

uint32_t parse_uint(std::string_view cmd, std::string_view kw, std::string_view word,
		    uint64_t min, uint64_t max, std::string_view suffix)
{
	std::string_view digits = word;
	if (!suffix.empty() && digits.size() > suffix.size() &&
	    digits.substr(digits.size() - suffix.size()) == suffix)
		digits.remove_suffix(suffix.size());

	bool ok = !digits.empty() && digits.size() <= 10;
	uint64_t v = 0;
	for (char c : digits) {
		if (c < '0' || c > '9') {
			ok = false;
			break;
		}
		v = v * 10 + static_cast<uint64_t>(c - '0');
	}
	std::string range = std::to_string(min) + ".." + std::to_string(max);
	if (!ok)
		throw UsageError(std::string(cmd) + ": " + std::string(kw) + ": " + quote(word) +
				 " is not a number in " + range);
	if (v < min || v > max)
		throw UsageError(std::string(cmd) + ": " + std::string(kw) + ": " + quote(word) +
				 " is not in " + range);
	return static_cast<uint32_t>(v);
}

Request parse_args(const std::vector<std::string> &args)
{
	Request req;
	size_t i = 0;

	for (; i < args.size() && args[i].size() > 1 && args[i][0] == '-'; i++) {
		if (args[i] == "--") {
			i++;
			break;
		}
		std::string opt = parse_option(req, args[i]);
		if (opt == "--netns" || (opt[1] != '-' && opt.back() == 'n')) {
			if (++i == args.size() || args[i].empty())
				throw UsageError("option '-n' needs a namespace name");
			req.netns = args[i];
		}
		if (opt == "--batch" || (opt[1] != '-' && opt.back() == 'b')) {
			if (++i == args.size() || args[i].empty())
				throw UsageError("option '-b' needs a file name ('-': standard input)");
			req.command = Command::Batch;
			req.file = args[i];
		}
		// -h and --version win over whatever follows, as in most tools.
		if (req.command == Command::Help || req.command == Command::Version)
			return req;
	}
	if (req.command == Command::Batch) {
		// The rest of the options may follow -b FILE; a command may not.
		if (i < args.size())
			throw UsageError("unexpected argument " + quote(args[i]) +
					 " (with -b, the commands are in the file)");
		return req;
	}
	if (i == args.size())
		return req;

	static const std::vector<Keyword> commands = {
		{"show"},    {"set"},	 {"tunnel"}, {"tunnels", "tunnel"}, {"monitor"},
		{"policy"},  {"bound"},	 {"save"},   {"restore"},	     {"help"}};
	static const std::pair<const char *, Topic> topics[] = {
		{"show", Topic::Show},	     {"set", Topic::Set},	{"tunnel", Topic::Tunnel},
		{"monitor", Topic::Monitor}, {"policy", Topic::Policy}, {"bound", Topic::Bound},
		{"save", Topic::Save},	     {"restore", Topic::Restore}};
	std::optional<std::string> name = match_keyword("", args[i], commands, "show");
	std::string cmd = name ? *name : args[i];
	Topic topic = Topic::All;

	i++;
	// "help COMMAND" is "COMMAND help", as in ip.
	if (cmd == "help" && i < args.size()) {
		name = match_keyword("help", args[i], commands, "show");
		if (name && *name != "help") {
			req.command = Command::Help;
			cmd = *name;
			i = args.size();
		}
	}
	for (const auto &t : topics)
		if (cmd == t.first)
			topic = t.second;
	if (req.command == Command::Help) {
		req.help_topic = topic;
		return req;
	}
	try {
		if (cmd == "show") {
			if (i < args.size() && is_prefix_of(args[i], "help"))
				req.command = Command::Help;
			else if (i < args.size())
				unexpected("show", args[i]);
		} else if (cmd == "set") {
			req.command = Command::Set;
			parse_set(req, args, i);
		} else if (cmd == "tunnel") {
			parse_tunnel_args(req, args, i);
		} else if (cmd == "monitor") {
			parse_monitor_args(req, args, i);
		} else if (cmd == "policy") {
			parse_policy_args(req, args, i);
		} else if (cmd == "bound") {
			parse_bound_args(req, args, i);
		} else if (cmd == "save") {
			req.command = Command::Save;
			if (i < args.size() && is_prefix_of(args[i], "help"))
				req.command = Command::Help;
			else if (i < args.size())
				unexpected("save", args[i]);
		} else if (cmd == "restore") {
			req.command = Command::Restore;
			if (i < args.size() && args[i] == "help")
				req.command = Command::Help;
			else if (i >= args.size())
				throw UsageError("restore: which file? (restore FILE, - for standard "
						 "input)");
			else if (i + 1 < args.size())
				unexpected("restore", args[i + 1]);
			else
				req.file = args[i];
		} else if (cmd == "help") {
			req.command = Command::Help;
		} else {
			throw UsageError("unknown command " + quote(cmd));
		}
	} catch (UsageError &e) {
		e.set_topic(topic);
		throw;
	}
	if (req.command == Command::Help)
		req.help_topic = topic;
	return req;
}

} // namespace eqdsctl
