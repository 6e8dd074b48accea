// SPDX-License-Identifier: GPL-2.0
// The per-flow ECMP baseline, as an ideal fluid model: each flow follows
// the one path the switches' per-flow hash gives it (the same hash the
// packet-level switches use), and flows get max-min fair rates over link
// capacities (progressive filling). No packets, no transport: this is the
// best any congestion control can do with flow-level ECMP, an upper bound
// on TCP's figure, not a model of TCP.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace eqdssim {

class Network;

// Max-min fair rates (bits/s) of flows (src, dst) routed by per-flow ECMP.
std::vector<double> maxmin_per_flow_ecmp(const Network &net,
					 const std::vector<std::pair<uint32_t, uint32_t>> &flows);

}  // namespace eqdssim
