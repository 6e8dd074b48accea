// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "netns.h"

#include "exit_status.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace eqdsctl {

std::string netns_path(const std::string &netns)
{
	return netns.find('/') == std::string::npos ? "/var/run/netns/" + netns : netns;
}

void enter_netns(const std::string &netns)
{
	int fd = open(netns_path(netns).c_str(), O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		throw ArgumentError("Cannot open network namespace \"" + netns +
				    "\": " + std::strerror(errno));
	if (setns(fd, CLONE_NEWNET) < 0) {
		int err = errno;
		close(fd);
		throw StateError("setting the network namespace \"" + netns +
				 "\" failed: " + std::strerror(err));
	}
	close(fd);
}

} // namespace eqdsctl
