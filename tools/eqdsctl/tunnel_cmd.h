// SPDX-License-Identifier: GPL-2.0 OR MIT
// "tunnel list|show" and "monitor": the netlink exchanges and the output.
#ifndef EQDSCTL_TUNNEL_CMD_H
#define EQDSCTL_TUNNEL_CMD_H

#include "args.h"

#include <ostream>

namespace eqdsctl {

// Prints the tunnels req asks for to out. Throws what Socket throws;
// returns false (after printing why) for a failure that is not an exception.
bool tunnel_cmd(const Request &req, std::ostream &out);

// Prints tunnel events to out as they come, until the process is killed.
bool monitor_cmd(const Request &req, std::ostream &out);

} // namespace eqdsctl

#endif
