// SPDX-License-Identifier: GPL-2.0 OR MIT
// Builds netlink attribute buffers byte by byte, for feeding parsers
// well-formed, truncated and garbage input without a kernel.
#ifndef EQDSCTL_TESTS_ATTR_BUILDER_H
#define EQDSCTL_TESTS_ATTR_BUILDER_H

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace eqdsctl::test {

class Attrs {
public:
	// One attribute: header (len = 4 + payload, type), payload, zero padding to 4.
	Attrs &raw_attr(uint16_t type, const void *payload, size_t n, bool pad = true)
	{
		uint16_t len = static_cast<uint16_t>(4 + n);
		append(&len, 2);
		append(&type, 2);
		append(payload, n);
		if (pad)
			while (bytes.size() % 4)
				bytes.push_back(0);
		return *this;
	}
	Attrs &u8(uint16_t type, uint8_t v) { return raw_attr(type, &v, 1); }
	Attrs &u16(uint16_t type, uint16_t v) { return raw_attr(type, &v, 2); }
	Attrs &u32(uint16_t type, uint32_t v) { return raw_attr(type, &v, 4); }
	Attrs &u64(uint16_t type, uint64_t v) { return raw_attr(type, &v, 8); }
	Attrs &str(uint16_t type, const std::string &s, bool nul = true)
	{
		return raw_attr(type, s.c_str(), s.size() + (nul ? 1 : 0));
	}
	Attrs &bin(uint16_t type, const std::vector<uint8_t> &b)
	{
		return raw_attr(type, b.data(), b.size());
	}
	Attrs &nest(uint16_t type, const Attrs &inner, bool nested_flag = true)
	{
		return raw_attr(static_cast<uint16_t>(type | (nested_flag ? 0x8000 : 0)),
				inner.bytes.data(), inner.bytes.size());
	}
	Attrs &append(const void *p, size_t n)
	{
		const auto *b = static_cast<const uint8_t *>(p);
		bytes.insert(bytes.end(), b, b + n);
		return *this;
	}

	std::vector<uint8_t> bytes;
};

} // namespace eqdsctl::test

#endif
