// SPDX-License-Identifier: GPL-2.0 OR MIT
// -n NETNS: run in another network namespace, as ip -n does.
#ifndef EQDSCTL_NETNS_H
#define EQDSCTL_NETNS_H

#include <string>

namespace eqdsctl {

// A namespace's file: a name is looked up under /var/run/netns, where
// "ip netns add" puts it; a word with a '/' is a path (/proc/PID/ns/net).
std::string netns_path(const std::string &netns);

// Moves this thread into the namespace (setns), before any netlink socket
// is opened. Throws ArgumentError if it cannot be opened ("Cannot open
// network namespace "NAME": ...", ip's words) and StateError if the kernel
// refuses the move (exit_status.h).
void enter_netns(const std::string &netns);

} // namespace eqdsctl

#endif
