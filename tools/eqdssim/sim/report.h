// SPDX-License-Identifier: GPL-2.0
// Writing a run's results: summary.json (every figure of Results plus the
// configuration that produced it), flows.csv and samples.csv.
#pragma once

#include <ostream>
#include <string>

#include "results.h"

namespace eqdssim {

class Scenario;

void write_summary_json(std::ostream &out, const Scenario &s, const Results &r,
			const std::string &label);
void write_flows_csv(std::ostream &out, const Scenario &s);
void write_samples_csv(std::ostream &out, const Scenario &s);
// Write all three into dir (created if missing).
void write_outputs(const std::string &dir, const Scenario &s, const Results &r,
		   const std::string &label);

}  // namespace eqdssim
