// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "prefix.h"

#include <arpa/inet.h>
#include <sys/socket.h>

#include <cstring>

namespace eqdsctl {

size_t Prefix::addr_len(uint16_t family)
{
	switch (family) {
	case AF_INET:
		return 4;
	case AF_INET6:
		return 16;
	default:
		return 0;
	}
}

unsigned Prefix::max_len(uint16_t family)
{
	return static_cast<unsigned>(addr_len(family) * 8);
}

Prefix make_prefix(uint16_t family, const void *addr, size_t addr_len, unsigned len)
{
	size_t want = Prefix::addr_len(family);

	if (want == 0)
		throw PrefixError("unknown address family " + std::to_string(family));
	if (addr_len != want)
		throw PrefixError("address of " + std::to_string(addr_len) + " bytes for " +
				  (family == AF_INET ? "IPv4" : "IPv6"));
	if (len > Prefix::max_len(family))
		throw PrefixError("prefix length " + std::to_string(len) + " is not in 0.." +
				  std::to_string(Prefix::max_len(family)));

	Prefix p;
	p.family = family;
	p.len = static_cast<uint8_t>(len);
	std::memcpy(p.addr.data(), addr, addr_len);
	for (size_t i = 0; i < want; i++) {
		unsigned bit = static_cast<unsigned>(i * 8);
		if (len >= bit + 8)
			continue;
		if (len <= bit)
			p.addr[i] = 0;
		else
			p.addr[i] &= static_cast<uint8_t>(0xff00u >> (len - bit));
	}
	return p;
}

Prefix parse_prefix(std::string_view text)
{
	const std::string quoted = "'" + std::string(text) + "'";
	size_t slash = text.find('/');
	std::string_view astr = text.substr(0, slash);
	std::string abuf(astr);
	uint8_t addr[16];
	uint16_t family;

	if (text.empty())
		throw PrefixError("empty prefix");
	if (abuf.find('\0') != std::string::npos)
		throw PrefixError(quoted + ": not an IPv4 or IPv6 address");
	if (inet_pton(AF_INET, abuf.c_str(), addr) == 1)
		family = AF_INET;
	else if (inet_pton(AF_INET6, abuf.c_str(), addr) == 1)
		family = AF_INET6;
	else
		throw PrefixError(quoted + ": '" + abuf + "' is not an IPv4 or IPv6 address");

	unsigned max = Prefix::max_len(family);
	unsigned len = max;
	if (slash != std::string_view::npos) {
		std::string_view lstr = text.substr(slash + 1);
		if (lstr.empty() || lstr.size() > 3)
			throw PrefixError(quoted + ": prefix length must be 0.." + std::to_string(max));
		len = 0;
		for (char c : lstr) {
			if (c < '0' || c > '9')
				throw PrefixError(quoted + ": prefix length must be 0.." +
						  std::to_string(max));
			len = len * 10 + static_cast<unsigned>(c - '0');
		}
		if (len > max)
			throw PrefixError(quoted + ": prefix length must be 0.." + std::to_string(max));
	}
	return make_prefix(family, addr, Prefix::addr_len(family), len);
}

std::string format_prefix(const Prefix &p)
{
	char buf[INET6_ADDRSTRLEN];

	if (Prefix::addr_len(p.family) == 0 ||
	    !inet_ntop(p.family, p.addr.data(), buf, sizeof(buf)))
		return "?/" + std::to_string(p.len);
	return std::string(buf) + "/" + std::to_string(p.len);
}

} // namespace eqdsctl
