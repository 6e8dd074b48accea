// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "tunnel_cmd.h"

#include "exit_status.h"

#include "instance.h"
#include "json.h"
#include "netlink.h"
#include "policy.h"
#include "policy_cmd.h"
#include "tunnel.h"
#include "tunnel_output.h"

#include <linux/eqds.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <cerrno>
#include <iostream>

namespace eqdsctl {

namespace {

// The kernel's "no such tunnel" as the user's words.
[[noreturn]] void no_tunnel(const Request &req)
{
	std::string side = req.dir == EQDS_TUNNEL_DIR_TX   ? "sending tunnel to "
			   : req.dir == EQDS_TUNNEL_DIR_RX ? "receiving tunnel from "
							   : "tunnel to or from ";
	throw StateError("no " + side + format_addr(*req.peer) +
				 " (tunnels exist only while traffic flows; see 'eqdsctl tunnel list')");
}

} // namespace

bool tunnel_cmd(const Request &req, std::ostream &out)
{
	Socket sock(EQDS_GENL_NAME);
	bool show = req.command == Command::TunnelShow;
	Policy policy;

	// -d: the policy the receiving tunnels' shares come from, read first.
	if (req.details)
		policy = get_policy(sock);
	Message msg = sock.request(EQDS_CMD_GET_TUNNEL, show ? 0 : NLM_F_DUMP);
	JsonWriter w(out, req.pretty);
	size_t n = 0;

	if (show || req.dir)
		put_tunnel_request(msg.get(), req.peer, req.dir);
	if (req.json)
		w.begin_array();
	auto print = [&](const Reply &r) {
		for (const Tunnel &t : parse_tunnel_message(r.data(), r.size(), sock.family_id())) {
			if (req.json)
				write_tunnel_json(w, t, true, req.details ? &policy : nullptr);
			else
				print_tunnel_text(out, t, req.stats, req.details ? &policy : nullptr);
			n++;
		}
	};
	try {
		sock.transact_each(msg, print);
	} catch (const KernelError &e) {
		if (show && e.error() == ENOENT)
			no_tunnel(req);
		throw;
	}
	if (req.json) {
		w.end_array();
		out << "\n";
	}
	return true;
}

bool monitor_cmd(const Request &req, std::ostream &out)
{
	Socket sock(EQDS_GENL_NAME);

	sock.listen(EQDS_MCGRP_TUNNELS, [&](const Reply &r) {
		constexpr size_t hdr = NLMSG_HDRLEN + GENL_HDRLEN;
		TunnelEvent e;

		if (r.size() >= hdr &&
		    reinterpret_cast<const genlmsghdr *>(r.data() + NLMSG_HDRLEN)->cmd ==
			    EQDS_CMD_POLICY_CHANGED) {
			Policy p = parse_policy_attrs(r.data() + hdr, r.size() - hdr);
			if (req.json)
				print_policy_event_json(out, p);
			else
				print_policy_event_text(out, p);
			out.flush();
			return static_cast<bool>(out);
		}
		auto tunnels = parse_tunnel_message(r.data(), r.size(), sock.family_id(), &e.cmd);
		for (Tunnel &t : tunnels) {
			e.tunnel = std::move(t);
			if (req.json)
				print_event_json(out, e);
			else
				print_event_text(out, e);
		}
		out.flush();	// one event at a time, even into a pipe
		return static_cast<bool>(out);
	}, [] {
		std::cerr << "eqdsctl: monitor: events lost (receive buffer overrun)\n";
	});
	if (!out)
		throw std::runtime_error("cannot write the output");
	return true;
}

} // namespace eqdsctl
