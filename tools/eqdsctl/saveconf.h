// SPDX-License-Identifier: GPL-2.0 OR MIT
// "eqdsctl save" and "eqdsctl restore": a namespace's configuration (the
// set parameters and the sharing policy) as a file of eqdsctl command lines,
// and that file applied again in one request (wg showconf/setconf).
#ifndef EQDSCTL_SAVECONF_H
#define EQDSCTL_SAVECONF_H

#include "instance.h"
#include "policy.h"

#include <istream>
#include <string>
#include <vector>

namespace eqdsctl {

// The file: "set ..." lines with every parameter the kernel reported, then
// "policy flush" and a "policy add ..." line per rule. Comments (#) and blank
// lines are allowed. The host's bound is not part of it (the host sets it).
std::string save_text(const Config &config, const std::vector<PolicyRule> &rules);

// What a file asks for: the parameters of all its set lines (a later line
// wins), and its policy lines in order.
struct Restore {
	Config config;
	std::vector<PolicyRequest> policy;	// ops Add, Change, Replace, Del, Flush
};

// Reads a file of "set" and "policy" lines (anything else is an error).
// Throws UsageError "NAME:LINE: message" for the first bad line.
Restore parse_restore(std::istream &in, const std::string &name);

// Applies the policy lines to rules (the kernel's, read just before), as
// the commands would one after another. Throws StateError as they would.
void apply_policy(std::vector<PolicyRule> &rules, const std::vector<PolicyRequest> &ops);

// Copies the parameters set in from over into.
void merge_config(Config &into, const Config &from);

} // namespace eqdsctl

#endif
