// SPDX-License-Identifier: GPL-2.0 OR MIT
// Careful reading of netlink attributes from kernel replies: every length
// checked, nothing read outside the buffer, unaligned data copied out.
#ifndef EQDSCTL_NLATTR_UTIL_H
#define EQDSCTL_NLATTR_UTIL_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>

struct nlattr;

namespace eqdsctl::nla {

size_t payload_len(const nlattr *nla);
const uint8_t *payload(const nlattr *nla);
uint16_t type(const nlattr *nla);	// without NLA_F_NESTED / NLA_F_NET_BYTEORDER

template <typename T> T get(const nlattr *nla)
{
	T v;
	std::memcpy(&v, payload(nla), sizeof(v));
	return v;
}

// Calls fn for each attribute in [head, head + len). Throws ReplyError
// naming `what` if an attribute does not lie wholly inside, or bytes are
// left over that cannot be one.
void for_each(const uint8_t *head, size_t len, const char *what,
	      const std::function<void(const nlattr *)> &fn);

// Checks that nla's payload is exactly n bytes; throws ReplyError.
void expect_len(const nlattr *nla, size_t n, const char *what);

} // namespace eqdsctl::nla

#endif
