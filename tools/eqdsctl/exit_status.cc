// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "exit_status.h"

#include "instance.h"
#include "netlink.h"

namespace eqdsctl {

int exit_status(const std::exception &e)
{
	if (dynamic_cast<const KernelError *>(&e) || dynamic_cast<const FamilyNotFound *>(&e) ||
	    dynamic_cast<const NetlinkError *>(&e) || dynamic_cast<const ReplyError *>(&e) ||
	    dynamic_cast<const StateError *>(&e))
		return kExitKernel;
	return kExitUsage;
}

} // namespace eqdsctl
