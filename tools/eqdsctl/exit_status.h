// SPDX-License-Identifier: GPL-2.0 OR MIT
// Exit status as ip(8) has it: 0 success, 1 a bad command line, 2 an error
// reported by the kernel (or met while talking to it).
#ifndef EQDSCTL_EXIT_STATUS_H
#define EQDSCTL_EXIT_STATUS_H

#include <exception>
#include <stdexcept>

namespace eqdsctl {

constexpr int kExitOk = 0;
constexpr int kExitUsage = 1;
constexpr int kExitKernel = 2;

// A word of the command line names something that does not exist outside
// the kernel (a namespace, a file): exit 1, as a usage error.
class ArgumentError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

// The kernel's state refuses what was asked, found out by reading it (no
// rule for that prefix, a rule that exists already): exit 2, as the same
// refusal by the kernel would.
class StateError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

// The exit status of a command that failed with e: 2 for anything from or
// about the kernel (KernelError, FamilyNotFound, NetlinkError, ReplyError,
// StateError), 1 for everything else.
int exit_status(const std::exception &e);

} // namespace eqdsctl

#endif
