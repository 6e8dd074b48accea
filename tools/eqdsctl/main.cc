// SPDX-License-Identifier: GPL-2.0 OR MIT
// eqdsctl: show and change the eqds instance of the current network namespace.
// Exit status (exit_status.h): 0 on success, 1 for a bad command line, 2
// for an error from the kernel.
#include "args.h"
#include "batch.h"
#include "exit_status.h"
#include "instance.h"
#include "netlink.h"
#include "netns.h"
#include "output.h"
#include "policy.h"
#include "policy_cmd.h"
#include "saveconf_cmd.h"
#include "tunnel_cmd.h"

#include <linux/eqds.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#ifndef EQDSCTL_VERSION
#define EQDSCTL_VERSION "0.0.0"
#endif

namespace eqdsctl {
namespace {

const char *command_name(Command c)
{
	switch (c) {
	case Command::Set:
		return "set";
	case Command::TunnelList:
		return "tunnel list";
	case Command::TunnelShow:
		return "tunnel show";
	case Command::Monitor:
		return "monitor";
	case Command::Policy:
		return "policy";
	case Command::Bound:
		return "bound";
	case Command::Save:
		return "save";
	case Command::Restore:
		return "restore";
	case Command::Batch:
		return "batch";
	default:
		return "show";
	}
}

int show(const Request &req)
{
	Socket sock(EQDS_GENL_NAME);
	Message msg = sock.request(EQDS_CMD_GET_INSTANCE);
	std::vector<Reply> replies = sock.transact(msg);

	if (replies.empty())
		throw ReplyError("no instance in the answer");
	const Reply &r = replies.front();
	Instance inst = parse_instance_reply(r.data(), r.size(), sock.family_id());
	// -d: the bound is in the same reply, among the policy's attributes.
	Bound bound;
	if (req.details) {
		constexpr size_t hdr = NLMSG_HDRLEN + GENL_HDRLEN;
		bound = parse_policy_attrs(r.data() + hdr, r.size() - hdr).bound;
	}
	const Bound *details = req.details ? &bound : nullptr;
	if (req.json)
		print_json(std::cout, inst, req.pretty, details);
	else
		print_text(std::cout, inst, req.stats, details);
	return kExitOk;
}

int set(const Request &req)
{
	Socket sock(EQDS_GENL_NAME);
	Message msg = sock.request(EQDS_CMD_SET_INSTANCE);
	std::string warning;

	put_config_attrs(msg.get(), req.config);
	sock.transact(msg, &warning);
	if (!warning.empty())
		std::cerr << "eqdsctl: set: warning: " << warning << "\n";
	return kExitOk;
}

int run(const Request &req, const std::string &where);

// -b FILE: each line as a command of its own (batch.h), in this process.
int batch(const Request &req)
{
	auto each = [](const Request &line, const std::string &where) {
		int rc = run(line, where);
		// Keep a line's output before the next line's messages.
		std::cout.flush();
		if (!std::cout)
			throw std::runtime_error("cannot write the output");
		return rc;
	};

	if (req.file == "-")
		return run_batch(std::cin, "<stdin>", req, true, each, std::cerr);
	std::ifstream in(req.file);
	if (!in)
		throw ArgumentError("cannot open " + req.file + ": " + std::strerror(errno));
	return run_batch(in, req.file, req, false, each, std::cerr);
}

// Runs one command and reports its failure on stderr, after where (a batch
// line's "FILE:LINE: ", or nothing).
int run(const Request &req, const std::string &where)
{
	const char *cmd = command_name(req.command);

	try {
		switch (req.command) {
		case Command::Help:
			std::cout << help_text(req.help_topic);
			return kExitOk;
		case Command::Version:
			std::cout << "eqdsctl " EQDSCTL_VERSION " (generic netlink family '"
				  << EQDS_GENL_NAME << "' version " << EQDS_GENL_VERSION << ")\n";
			return kExitOk;
		case Command::Set:
			return set(req);
		case Command::Show:
			return show(req);
		case Command::TunnelList:
		case Command::TunnelShow:
			return tunnel_cmd(req, std::cout) ? kExitOk : kExitKernel;
		case Command::Monitor:
			return monitor_cmd(req, std::cout) ? kExitOk : kExitKernel;
		case Command::Policy:
			policy_cmd(req, std::cout);
			return kExitOk;
		case Command::Bound:
			bound_cmd(req);
			return kExitOk;
		case Command::Save:
			save_cmd(std::cout);
			return kExitOk;
		case Command::Restore:
			restore_cmd(req.file);
			return kExitOk;
		case Command::Batch:
			return batch(req);
		}
	} catch (const FamilyNotFound &e) {
		std::cerr << "eqdsctl: " << where
			  << "eqds module not loaded (generic netlink family '" << e.family()
			  << "' not found)\n";
		return exit_status(e);
	} catch (const KernelError &e) {
		// A refusal that says why (an extack) is clearer than the guess.
		if (e.error() == EPERM && e.extack().empty())
			std::cerr << "eqdsctl: " << where
				  << "permission denied: need CAP_NET_ADMIN "
				     "(are you root in this network namespace?)\n";
		else
			std::cerr << "eqdsctl: " << where << cmd << ": " << e.what() << "\n";
		return exit_status(e);
	} catch (const std::exception &e) {
		std::cerr << "eqdsctl: " << where << cmd << ": " << e.what() << "\n";
		return exit_status(e);
	}
	return kExitKernel;
}

} // namespace
} // namespace eqdsctl

int main(int argc, char **argv)
{
	using namespace eqdsctl;
	Request req;

	try {
		req = parse_args(std::vector<std::string>(argv + (argc > 0 ? 1 : 0), argv + argc));
	} catch (const UsageError &e) {
		std::cerr << "eqdsctl: " << e.what() << "\n" << usage(e.topic());
		return kExitUsage;
	}

	// Before any socket: a netlink socket belongs to the namespace it was
	// opened in.
	if (!req.netns.empty() && req.command != Command::Help &&
	    req.command != Command::Version) {
		try {
			enter_netns(req.netns);
		} catch (const std::exception &e) {
			std::cerr << "eqdsctl: " << e.what() << "\n";
			return exit_status(e);
		}
	}

	int rc = run(req, {});
	std::cout.flush();
	if (!std::cout) {
		std::cerr << "eqdsctl: cannot write the output\n";
		return kExitUsage;
	}
	return rc;
}
