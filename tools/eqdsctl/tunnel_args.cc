// SPDX-License-Identifier: GPL-2.0 OR MIT
// Command lines of "tunnel" and "monitor" (args.h).
#include "args.h"
#include "keyword.h"
#include "tunnel.h"

#include <linux/eqds.h>

namespace eqdsctl {

namespace {

// An optional trailing "tx" or "rx" at args[i]; nothing may follow it.
uint8_t parse_dir(const std::string &cmd, const std::vector<std::string> &args, size_t i)
{
	if (i >= args.size())
		return 0;
	std::optional<std::string> name = match_keyword(cmd, args[i], {{"tx"}, {"rx"}});
	uint8_t dir = name == "tx" ? EQDS_TUNNEL_DIR_TX : name == "rx" ? EQDS_TUNNEL_DIR_RX : 0;
	if (!dir)
		throw UsageError(cmd + ": " + quote(args[i]) + " is not tx or rx");
	if (i + 1 < args.size())
		throw UsageError(cmd + ": unexpected argument " + quote(args[i + 1]));
	return dir;
}

} // namespace

void parse_tunnel_args(Request &req, const std::vector<std::string> &args, size_t i)
{
	std::string sub = "list";

	if (i < args.size()) {
		std::optional<std::string> name = match_keyword(
			"tunnel", args[i], {{"list"}, {"ls", "list"}, {"show"}, {"help"}});
		sub = name ? *name : args[i];
		i++;
	}

	if (sub == "help") {
		req.command = Command::Help;
	} else if (sub == "list") {
		req.command = Command::TunnelList;
		req.dir = parse_dir("tunnel list", args, i);
	} else if (sub == "show") {
		req.command = Command::TunnelShow;
		if (i >= args.size())
			throw UsageError("tunnel show: which peer? (tunnel show ADDRESS [tx|rx])");
		try {
			req.peer = parse_peer(args[i]);
		} catch (const PrefixError &e) {
			throw UsageError(std::string("tunnel show: ") + e.what());
		}
		req.dir = parse_dir("tunnel show", args, i + 1);
	} else {
		throw UsageError("tunnel: unknown subcommand " + quote(sub) + " (list or show)");
	}
}

void parse_monitor_args(Request &req, const std::vector<std::string> &args, size_t i)
{
	req.command = Command::Monitor;
	if (i < args.size() && is_prefix_of(args[i], "help")) {
		req.command = Command::Help;
		return;
	}
	if (i < args.size() &&
	    match_keyword("monitor", args[i], {{"tunnels"}, {"all", "tunnels"}}))
		i++;
	if (i < args.size())
		throw UsageError("monitor: unexpected argument " + quote(args[i]) +
				 " (only tunnel events exist: monitor [tunnels])");
}

} // namespace eqdsctl
