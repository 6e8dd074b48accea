// SPDX-License-Identifier: GPL-2.0
// Injected faults: each kind of packet can be lost with its own
// probability as it leaves a host (before any queue), so tests can take
// away exactly one kind of control packet and see what the protocol does.
#pragma once

#include <array>
#include <cstdint>
#include <random>

#include "packet.h"

namespace eqdssim {

class FaultInjector {
public:
	explicit FaultInjector(uint64_t seed) : rng_(seed ^ 0x5eed0fa17ull) {}

	void set_loss(PacketKind k, double p) { loss_[(size_t)k] = p; }
	double loss(PacketKind k) const { return loss_[(size_t)k]; }
	bool any() const
	{
		for (double p : loss_)
			if (p > 0)
				return true;
		return false;
	}
	// Should this packet be lost? Counts what it drops.
	bool drop(PacketKind k)
	{
		double p = loss_[(size_t)k];

		if (p <= 0 || std::uniform_real_distribution<double>(0, 1)(rng_) >= p)
			return false;
		dropped_[(size_t)k]++;
		return true;
	}
	uint64_t dropped(PacketKind k) const { return dropped_[(size_t)k]; }

private:
	std::mt19937_64 rng_;
	std::array<double, (size_t)PacketKind::kCount> loss_{};
	std::array<uint64_t, (size_t)PacketKind::kCount> dropped_{};
};

}  // namespace eqdssim
