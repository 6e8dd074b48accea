// SPDX-License-Identifier: GPL-2.0
// Command-line options of eqdssim: --name=value pairs into a ScenarioConfig.
#pragma once

#include <string>
#include <vector>

#include "scenario.h"

namespace eqdssim {

struct Options {
	ScenarioConfig scenario;
	std::string out_dir;		// empty: print the summary only
	std::string label;
	bool fluid_baseline = false;	// also compute the per-flow ECMP fluid model
};

// Parse arguments (without argv[0]). Throws std::invalid_argument with a
// message naming the bad option.
Options parse_options(const std::vector<std::string> &args);
const char *usage();

}  // namespace eqdssim
