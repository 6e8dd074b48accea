// SPDX-License-Identifier: GPL-2.0
// Equal-cost multipath choice, as a switch hashing the outer headers does.
// Per-flow mode hashes addresses only, as for a TCP flow or a tunnel with a
// fixed source port. Per-packet mode also hashes the outer UDP source port
// (EQDS's path id). Switch hashes are CRCs, which are affine over GF(2):
// the bits that select a port are fixed linear combinations of the header
// bits, differently seeded at each switch. So 256 consecutive source ports
// spread exactly evenly over a power-of-two group, and two tiers that use
// independent combinations are jointly even too. A random 64-bit hash
// would not be, and would overload links that real switches keep balanced.
// The path byte goes through a per-switch random invertible 8x8 bit matrix,
// then a per-flow constant is added (XOR), which is the same structure.
#pragma once

#include <array>
#include <cstdint>
#include <random>

namespace eqdssim {

enum class EcmpMode : uint8_t { kPerPacket, kPerFlow };

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

		// Random rows until they are linearly independent (invertible).
		for (;;) {
			for (uint8_t &row : rows_)
				row = (uint8_t)rng();
			if (full_rank())
				break;
		}
	}

	// Index among n equal-cost ports.
	uint32_t pick(EcmpMode mode, uint32_t src, uint32_t dst, uint8_t path_id, uint32_t n) const
	{
		uint64_t flow = mix64((((uint64_t)src << 32) | dst) ^ salt_);

		if (mode == EcmpMode::kPerFlow)
			return (uint32_t)(flow % n);
		return (uint32_t)(apply(path_id) ^ (uint8_t)flow) % n;
	}

private:
	// Output bit i is the parity of (rows_[i] AND input).
	uint8_t apply(uint8_t x) const
	{
		uint8_t out = 0;

		for (uint32_t i = 0; i < 8; i++)
			out |= (uint8_t)(__builtin_parity(rows_[i] & x) << i);
		return out;
	}
	bool full_rank() const
	{
		std::array<uint8_t, 8> m = rows_;
		uint32_t rank = 0;

		for (uint32_t bit = 0; bit < 8; bit++) {
			uint32_t pivot = rank;

			while (pivot < 8 && !(m[pivot] >> bit & 1))
				pivot++;
			if (pivot == 8)
				continue;
			std::swap(m[rank], m[pivot]);
			for (uint32_t r = 0; r < 8; r++)
				if (r != rank && (m[r] >> bit & 1))
					m[r] ^= m[rank];
			rank++;
		}
		return rank == 8;
	}

	uint64_t salt_;
	std::array<uint8_t, 8> rows_;
};

}  // namespace eqdssim
