// SPDX-License-Identifier: GPL-2.0 OR MIT
// "policy" and "bound": read-modify-write of the sharing policy, and the
// host's bound on another namespace. Documentation/policy.rst.
#ifndef EQDSCTL_POLICY_CMD_H
#define EQDSCTL_POLICY_CMD_H

#include "args.h"
#include "policy.h"

#include <ostream>

namespace eqdsctl {

// Both throw what Socket throws, ArgumentError for a namespace that cannot
// be opened and StateError for a rule that does not exist (exit_status.h).
void policy_cmd(const Request &req, std::ostream &out);
void bound_cmd(const Request &req);

class Socket;
// The policy and bound of the socket's namespace (one GET_INSTANCE).
Policy get_policy(Socket &sock);

} // namespace eqdsctl

#endif
