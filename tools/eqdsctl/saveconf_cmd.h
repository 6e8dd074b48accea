// SPDX-License-Identifier: GPL-2.0 OR MIT
// "save" and "restore": the configuration to a file and back (saveconf.h).
#ifndef EQDSCTL_SAVECONF_CMD_H
#define EQDSCTL_SAVECONF_CMD_H

#include <ostream>
#include <string>

namespace eqdsctl {

// Writes the namespace's configuration and policy to out. Throws what
// Socket throws.
void save_cmd(std::ostream &out);

// Applies FILE ("-": standard input) in one SET_INSTANCE. Throws UsageError
// for a bad line (nothing is sent), ArgumentError if FILE cannot be read,
// StateError if a policy line does not fit the rules there are, and what
// Socket throws.
void restore_cmd(const std::string &file);

} // namespace eqdsctl

#endif
