// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "rate.h"

#include "args.h"

#include <strings.h>

namespace eqdsctl {

namespace {

struct Unit {
	const char *name;
	uint64_t bits;	// per second, for one of this unit
};

// tc's table (tc/tc_util.c), matched without regard to case.
constexpr Unit kUnits[] = {
	{"bit", 1},
	{"kibit", 1ull << 10},	      {"kbit", 1000ull},
	{"mibit", 1ull << 20},	      {"mbit", 1000000ull},
	{"gibit", 1ull << 30},	      {"gbit", 1000000000ull},
	{"tibit", 1ull << 40},	      {"tbit", 1000000000000ull},
	{"bps", 8},
	{"kibps", 8ull << 10},	      {"kbps", 8000ull},
	{"mibps", 8ull << 20},	      {"mbps", 8000000ull},
	{"gibps", 8ull << 30},	      {"gbps", 8000000000ull},
	{"tibps", 8ull << 40},	      {"tbps", 8000000000000ull},
};

constexpr uint64_t kMbit = 1000000;

} // namespace

uint32_t parse_rate_mbit(std::string_view cmd, std::string_view kw, std::string_view word)
{
	std::string what = std::string(cmd) + ": " + std::string(kw) + ": " + quote(word);
	size_t i = 0, int_digits = 0, frac_digits = 0;
	unsigned __int128 mantissa = 0;	// the digits, the point left out
	bool too_long = false;

	auto digit = [&](char c) {
		if (mantissa > static_cast<unsigned __int128>(UINT64_MAX))
			too_long = true;
		else
			mantissa = mantissa * 10 + static_cast<unsigned>(c - '0');
	};
	for (; i < word.size() && word[i] >= '0' && word[i] <= '9'; i++, int_digits++)
		digit(word[i]);
	if (i < word.size() && word[i] == '.') {
		for (i++; i < word.size() && word[i] >= '0' && word[i] <= '9'; i++, frac_digits++)
			digit(word[i]);
		if (!frac_digits)
			int_digits = 0;	// "1." is no number
	}
	std::string_view unit = word.substr(i);
	uint64_t bits_per_unit = 0;
	if (unit.empty()) {
		bits_per_unit = kMbit;
	} else {
		for (const Unit &u : kUnits)
			if (unit.size() == std::string_view(u.name).size() &&
			    strncasecmp(unit.data(), u.name, unit.size()) == 0)
				bits_per_unit = u.bits;
	}
	if (!int_digits || !bits_per_unit || too_long || frac_digits > 18)
		throw UsageError(what + " is not a rate (N[.N] and a unit: bit, kbit, mbit, gbit, "
					"tbit, bps, kbps, mbps, gbps, tbps; none: Mbit/s)");

	// bits/s = mantissa * bits_per_unit / 10^frac_digits, exactly.
	unsigned __int128 scale = 1, bits = mantissa * bits_per_unit;
	for (size_t k = 0; k < frac_digits; k++)
		scale *= 10;
	if (bits % scale || (bits / scale) % kMbit)
		throw UsageError(what + " is not a whole number of Mbit/s");
	unsigned __int128 mbit = bits / scale / kMbit;
	if (mbit > UINT32_MAX)
		throw UsageError(what + " is not in 0.." + std::to_string(UINT32_MAX) + "Mbit");
	return static_cast<uint32_t>(mbit);
}

std::string format_rate_mbit(uint32_t mbit)
{
	if (mbit && mbit % 1000000 == 0)
		return std::to_string(mbit / 1000000) + "Tbit";
	if (mbit && mbit % 1000 == 0)
		return std::to_string(mbit / 1000) + "Gbit";
	return std::to_string(mbit) + "Mbit";
}

} // namespace eqdsctl
