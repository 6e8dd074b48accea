// SPDX-License-Identifier: GPL-2.0
#include "fluid.h"

#include <limits>
#include <unordered_map>

#include "network.h"

namespace eqdssim {

std::vector<double> maxmin_per_flow_ecmp(const Network &net,
					 const std::vector<std::pair<uint32_t, uint32_t>> &flows)
{
	std::unordered_map<const Port *, uint32_t> index;
	std::vector<double> capacity;
	std::vector<std::vector<uint32_t>> links_of(flows.size());

	for (size_t f = 0; f < flows.size(); f++) {
		for (Port *p : net.path(flows[f].first, flows[f].second, 0, EcmpMode::kPerFlow)) {
			auto [it, added] = index.try_emplace(p, (uint32_t)capacity.size());

			if (added)
				capacity.push_back((double)p->config().rate_bps);
			links_of[f].push_back(it->second);
		}
	}

	std::vector<double> rate(flows.size(), 0);
	std::vector<bool> frozen(flows.size(), false);
	size_t left = flows.size();

	while (left) {
		std::vector<uint32_t> users(capacity.size(), 0);

		for (size_t f = 0; f < flows.size(); f++)
			if (!frozen[f])
				for (uint32_t l : links_of[f])
					users[l]++;
		// Raise every unfrozen flow until the first link fills.
		double step = std::numeric_limits<double>::infinity();

		for (size_t l = 0; l < capacity.size(); l++)
			if (users[l])
				step = std::min(step, capacity[l] / users[l]);
		for (size_t l = 0; l < capacity.size(); l++)
			capacity[l] -= step * users[l];
		for (size_t f = 0; f < flows.size(); f++) {
			if (frozen[f])
				continue;
			rate[f] += step;
			for (uint32_t l : links_of[f]) {
				if (capacity[l] <= 1e-6 * step) {
					frozen[f] = true;
					left--;
					break;
				}
			}
		}
	}
	return rate;
}

}  // namespace eqdssim
