// SPDX-License-Identifier: GPL-2.0 OR MIT
// "policy" and "bound" commands (policy_cmd.h).
#include "policy_cmd.h"
#include "exit_status.h"
#include "instance.h"
#include "netlink.h"
#include "netns.h"
#include "policy.h"

#include <linux/eqds.h>
#include <linux/genetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <stdexcept>

namespace eqdsctl {

Policy get_policy(Socket &sock)
{
	Message msg = sock.request(EQDS_CMD_GET_INSTANCE);
	std::vector<Reply> replies = sock.transact(msg);
	size_t hdr = NLMSG_HDRLEN + GENL_HDRLEN;

	if (replies.empty() || replies.front().size() < hdr)
		throw ReplyError("no instance in the answer");
	const Reply &r = replies.front();
	return parse_policy_attrs(r.data() + hdr, r.size() - hdr);
}

namespace {

void set_policy(Socket &sock, const std::vector<PolicyRule> &rules)
{
	Message msg = sock.request(EQDS_CMD_SET_INSTANCE);

	put_policy_attr(msg.get(), rules);
	sock.transact(msg);
}

// An open descriptor of the namespace: a name under /var/run/netns (as ip
// netns names them) or a path such as /proc/PID/ns/net.
int open_netns(const std::string &netns)
{
	std::string path = netns_path(netns);
	int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		throw ArgumentError("cannot open network namespace " + path + ": " +
					 std::strerror(errno));
	return fd;
}

} // namespace

void policy_cmd(const Request &req, std::ostream &out)
{
	Socket sock(EQDS_GENL_NAME);
	const PolicyRequest &p = req.policy;

	switch (p.op) {
	case PolicyRequest::Op::Show: {
		Policy pol = get_policy(sock);
		if (req.json)
			print_policy_json(out, pol, req.pretty, req.details);
		else
			print_policy_text(out, pol, req.details);
		return;
	}
	case PolicyRequest::Op::Flush:
		set_policy(sock, {});
		return;
	case PolicyRequest::Op::Add:
	case PolicyRequest::Op::Change:
	case PolicyRequest::Op::Replace: {
		// Read, change, write the whole list: the kernel replaces it as
		// one, so a reader never sees half of a change.
		Policy pol = get_policy(sock);
		if (!policy_apply(pol.rules, p.op, p.rule))
			return;
		if (pol.rules.size() > EQDS_MAX_POLICIES)
			throw StateError("too many rules (at most " +
						 std::to_string(EQDS_MAX_POLICIES) + ")");
		set_policy(sock, pol.rules);
		return;
	}
	case PolicyRequest::Op::Del: {
		Policy pol = get_policy(sock);
		if (!policy_del(pol.rules, p.rule.prefix))
			throw StateError("no rule for " + format_prefix(p.rule.prefix));
		set_policy(sock, pol.rules);
		return;
	}
	}
}

void bound_cmd(const Request &req)
{
	Socket sock(EQDS_GENL_NAME);
	Message msg = sock.request(EQDS_CMD_SET_BOUND);
	int fd = open_netns(req.policy.netns);

	try {
		if (nla_put_u32(msg.get(), EQDS_A_NETNS_FD, static_cast<uint32_t>(fd)) < 0)
			throw std::length_error("netlink message too small");
		put_bound_attr(msg.get(), req.policy.bound);
		sock.transact(msg);
	} catch (...) {
		close(fd);
		throw;
	}
	close(fd);
}

} // namespace eqdsctl
