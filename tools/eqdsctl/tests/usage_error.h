// SPDX-License-Identifier: GPL-2.0 OR MIT
// The message of the UsageError a command line draws, for tests of
// parse_args(); "(no error)" if it parses.
#ifndef EQDSCTL_TESTS_USAGE_ERROR_H
#define EQDSCTL_TESTS_USAGE_ERROR_H

#include "args.h"

#include <string>
#include <vector>

namespace eqdsctl::test {

inline std::string usage_error(const std::vector<std::string> &args)
{
	try {
		parse_args(args);
	} catch (const UsageError &e) {
		return e.what();
	}
	return "(no error)";
}

} // namespace eqdsctl::test

#endif
