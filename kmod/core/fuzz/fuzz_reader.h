// SPDX-License-Identifier: GPL-2.0
// The fuzzers' view of their input: big-endian numbers of any width taken
// off the front, zeros once it runs out, so every input is a whole test.
#ifndef EQDS_FUZZ_READER_H
#define EQDS_FUZZ_READER_H

#include <cstddef>
#include <cstdint>

struct fuzz_reader {
	const uint8_t *p;
	size_t n;

	bool empty() const { return n == 0; }

	uint64_t get(int bytes)
	{
		uint64_t v = 0;

		for (int i = 0; i < bytes; i++) {
			v <<= 8;
			if (n) {
				v |= *p++;
				n--;
			}
		}
		return v;
	}
};

#endif
