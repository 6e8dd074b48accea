// SPDX-License-Identifier: GPL-2.0 OR MIT
// Command line -> Request, with no netlink involved (unit-testable).
#ifndef EQDSCTL_ARGS_H
#define EQDSCTL_ARGS_H

#include "instance.h"
#include "policy.h"
#include "prefix.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace eqdsctl {

enum class Command {
	Show, Set, Help, Version, TunnelList, TunnelShow, Monitor, Policy, Bound, Save, Restore,
	Batch
};

// What a help text or a usage is about: everything, or one command.
enum class Topic { All, Show, Set, Tunnel, Monitor, Policy, Bound, Save, Restore };

struct Request {
	Command command = Command::Show;	// no command word: show
	bool json = false;			// -j
	bool pretty = false;			// -p (implies json)
	bool stats = false;			// -s
	bool details = false;			// -d: derived values too
	Config config;				// set: the attributes to send
	std::optional<Prefix> peer;		// tunnel show: the peer (a host)
	uint8_t dir = 0;			// tunnel: one side only (EQDS_TUNNEL_DIR_*)
	PolicyRequest policy;			// policy, bound
	Topic help_topic = Topic::All;		// help: about what
	std::string netns;			// -n: run in this namespace
	std::string file;			// restore, batch: the file ("-": stdin)
	bool force = false;			// -force: a batch goes on after errors
};

// A bad command line. what() is the message without the "eqdsctl: " prefix;
// the caller prints it and usage(topic()), and exits 1.
class UsageError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
	Topic topic() const { return topic_; }
	void set_topic(Topic t) { topic_ = t; }

private:
	Topic topic_ = Topic::All;
};

// A command-line word as error messages show it: 'word'.
std::string quote(std::string_view s);

// Strict unsigned decimal: digits only (no sign, space, hex), optionally
// followed by exactly suffix ("mbit"), in [min, max]; else a UsageError
// naming cmd ("set", "policy add"), kw and the range.
uint32_t parse_uint(std::string_view cmd, std::string_view kw, std::string_view word,
		    uint64_t min, uint64_t max, std::string_view suffix = {});

// args: the words after the program name. Throws UsageError.
Request parse_args(const std::vector<std::string> &args);

// The words after "tunnel" (at args[i]) and after "monitor" (tunnel_args.cc).
void parse_tunnel_args(Request &req, const std::vector<std::string> &args, size_t i);
void parse_monitor_args(Request &req, const std::vector<std::string> &args, size_t i);
// The words after "policy" and "bound" (policy_args.cc).
void parse_policy_args(Request &req, const std::vector<std::string> &args, size_t i);
void parse_bound_args(Request &req, const std::vector<std::string> &args, size_t i);

// What a usage error prints after its message: the synopsis of the command
// (Topic::All: the list of commands). Ends with a newline.
std::string usage(Topic t);
// "eqdsctl help" (Topic::All), "eqdsctl COMMAND help": the synopsis and the
// keywords explained. Ends with a newline (help.cc).
std::string help_text(Topic t = Topic::All);

} // namespace eqdsctl

#endif
