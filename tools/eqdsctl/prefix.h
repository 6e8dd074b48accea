// SPDX-License-Identifier: GPL-2.0 OR MIT
// IPv4/IPv6 CIDR prefixes: strict parsing, normalisation, printing.
#ifndef EQDSCTL_PREFIX_H
#define EQDSCTL_PREFIX_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace eqdsctl {

// A destination prefix. Host bits are always zero: like wg allowed-ips (and
// the kernel module), "10.0.0.1/24" is accepted and stored as 10.0.0.0/24.
struct Prefix {
	uint16_t family = 0;		// AF_INET or AF_INET6
	std::array<uint8_t, 16> addr{};	// network byte order; bytes past 4 are 0 for IPv4
	uint8_t len = 0;		// 0..32 or 0..128

	static size_t addr_len(uint16_t family);	// 4, 16, or 0 if unknown
	static unsigned max_len(uint16_t family);	// 32, 128, or 0 if unknown

	bool operator==(const Prefix &o) const
	{
		return family == o.family && addr == o.addr && len == o.len;
	}
	bool operator!=(const Prefix &o) const { return !(*this == o); }
};

// Thrown for a string that is not a prefix; what() names the string and the problem.
class PrefixError : public std::invalid_argument {
public:
	using std::invalid_argument::invalid_argument;
};

// Builds a normalised prefix from raw parts. Throws PrefixError if the family
// is unknown, addr_len does not match it or len is too long.
Prefix make_prefix(uint16_t family, const void *addr, size_t addr_len, unsigned len);

// "ADDR[/LEN]": a dotted-quad IPv4 or an IPv6 address (no zone), then an
// optional decimal length; without one the prefix is a single host (/32,
// /128). Host bits are cleared. Throws PrefixError.
Prefix parse_prefix(std::string_view text);

// Canonical "ADDR/LEN" (inet_ntop form of the address; the length always shown).
std::string format_prefix(const Prefix &p);

} // namespace eqdsctl

#endif
