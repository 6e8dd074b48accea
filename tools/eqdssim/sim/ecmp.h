// SPDX-License-Identifier: GPL-2.0
// Equal-cost multipath choice, as a switch hashing the outer headers does.
//
// kPerFlow hashes addresses only: a TCP flow, or a tunnel with a fixed
// source port, takes one path.
//
// kPerPacket is spraying as EQDS intends it: consecutive path ids (the
// outer UDP source port) walk every path evenly. It models switches whose
// hash takes different bits of the source port at each tier, as operators
// configure against hash polarisation: a switch in tier t (0 = next to the
// hosts) picks port ((path_id + per-flow offset) >> (t * bits)) mod n, with
// bits = log2(n) rounded up. Over 256 consecutive packets every
// combination of uplinks gets its share, for every flow.
//
// kPerPacketHash is spraying through a hash that is not so kind: each
// switch maps the path byte through its own random function. Every flow
// then loads some links a little more than others, persistently; kept to
// show how sensitive spraying at a 95% pull rate is to the hash.
#pragma once

#include <array>
#include <cstdint>
#include <random>

namespace eqdssim {

enum class EcmpMode : uint8_t { kPerPacket, kPerPacketHash, kPerFlow };

inline uint64_t mix64(uint64_t x)
{
	// splitmix64's finaliser: every input bit affects every output bit.
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

class EcmpHash {
public:
	explicit EcmpHash(uint64_t salt) : salt_(salt)
	{
		std::mt19937_64 rng(salt);

		for (uint8_t &v : random_)
			v = (uint8_t)rng();
	}
	// Tier of the switch: 0 next to the hosts, 1 above, ...
	void set_tier(uint32_t tier) { tier_ = tier; }

	// Index among n equal-cost ports.
	uint32_t pick(EcmpMode mode, uint32_t src, uint32_t dst, uint8_t path_id, uint32_t n) const
	{
		uint64_t flow = mix64(((uint64_t)src << 32) | dst);

		switch (mode) {
		case EcmpMode::kPerFlow:
			return (uint32_t)(mix64(flow ^ salt_) % n);
		case EcmpMode::kPerPacketHash:
			return (uint32_t)((random_[(uint8_t)(path_id ^ flow)] ^ mix64(flow ^ salt_)) % n);
		case EcmpMode::kPerPacket:
		default:
			break;
		}
		uint32_t bits = 0;

		while ((1u << bits) < n)
			bits++;
		return (((uint32_t)(uint8_t)(path_id + flow)) >> (tier_ * bits)) % n;
	}

private:
	uint64_t salt_;
	uint32_t tier_ = 0;
	std::array<uint8_t, 256> random_;
};

}  // namespace eqdssim
