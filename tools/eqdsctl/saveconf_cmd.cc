// SPDX-License-Identifier: GPL-2.0 OR MIT
// "save" and "restore" (saveconf_cmd.h): the netlink side of saveconf.h.
#include "saveconf_cmd.h"

#include "exit_status.h"
#include "instance.h"
#include "netlink.h"
#include "policy.h"
#include "saveconf.h"

#include <linux/eqds.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

namespace eqdsctl {

namespace {

// The configuration and the policy, from one GET_INSTANCE reply.
void get_all(Socket &sock, Config &config, std::vector<PolicyRule> &rules)
{
	constexpr size_t hdr = NLMSG_HDRLEN + GENL_HDRLEN;
	Message msg = sock.request(EQDS_CMD_GET_INSTANCE);
	std::vector<Reply> replies = sock.transact(msg);

	if (replies.empty() || replies.front().size() < hdr)
		throw ReplyError("no instance in the answer");
	const Reply &r = replies.front();
	config = parse_instance_reply(r.data(), r.size(), sock.family_id()).config;
	rules = parse_policy_attrs(r.data() + hdr, r.size() - hdr).rules;
}

} // namespace

void save_cmd(std::ostream &out)
{
	Socket sock(EQDS_GENL_NAME);
	Config config;
	std::vector<PolicyRule> rules;

	get_all(sock, config, rules);
	out << save_text(config, rules);
}

void restore_cmd(const std::string &file)
{
	Restore r;

	if (file == "-") {
		r = parse_restore(std::cin, "<stdin>");
	} else {
		std::ifstream in(file);
		if (!in)
			throw ArgumentError("cannot open " + file + ": " + std::strerror(errno));
		r = parse_restore(in, file);
	}

	Socket sock(EQDS_GENL_NAME);
	Message msg = sock.request(EQDS_CMD_SET_INSTANCE);
	std::string warning;

	if (r.config.empty() && r.policy.empty())
		return;
	put_config_attrs(msg.get(), r.config);
	if (!r.policy.empty()) {
		Config now;
		std::vector<PolicyRule> rules;
		get_all(sock, now, rules);
		apply_policy(rules, r.policy);
		if (rules.size() > EQDS_MAX_POLICIES)
			throw StateError("too many rules (at most " +
					 std::to_string(EQDS_MAX_POLICIES) + ")");
		put_policy_attr(msg.get(), rules);
	}
	// One request: the kernel applies all of it or none of it.
	sock.transact(msg, &warning);
	if (!warning.empty())
		std::cerr << "eqdsctl: restore: warning: " << warning << "\n";
}

} // namespace eqdsctl
