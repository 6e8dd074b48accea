// SPDX-License-Identifier: GPL-2.0
// Assertion for the fuzz targets: always on (NDEBUG or not), reports the
// failed condition and aborts so libFuzzer saves the input.
#ifndef EQDS_FUZZ_CHECK_H
#define EQDS_FUZZ_CHECK_H

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			std::fprintf(stderr, "%s:%d: check failed: %s\n",  \
				     __FILE__, __LINE__, #cond);           \
			std::abort();                                      \
		}                                                          \
	} while (0)

#endif
