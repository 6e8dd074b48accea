// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "nlattr_util.h"

#include "instance.h"

#include <linux/netlink.h>

#include <string>

namespace eqdsctl::nla {

size_t payload_len(const nlattr *nla)
{
	uint16_t len;
	std::memcpy(&len, &nla->nla_len, sizeof(len));
	return len - NLA_HDRLEN;
}

const uint8_t *payload(const nlattr *nla)
{
	return reinterpret_cast<const uint8_t *>(nla) + NLA_HDRLEN;
}

uint16_t type(const nlattr *nla)
{
	uint16_t t;
	std::memcpy(&t, &nla->nla_type, sizeof(t));
	return t & NLA_TYPE_MASK;
}

void for_each(const uint8_t *head, size_t len, const char *what,
	      const std::function<void(const nlattr *)> &fn)
{
	size_t rem = len;

	while (rem >= NLA_HDRLEN) {
		uint16_t alen;
		std::memcpy(&alen, head, sizeof(alen));
		if (alen < NLA_HDRLEN || alen > rem)
			throw ReplyError(std::string("truncated attribute in ") + what);
		fn(reinterpret_cast<const nlattr *>(head));
		size_t step = NLA_ALIGN(alen);
		if (step >= rem)
			return;	// the last attribute may lack its padding
		head += step;
		rem -= step;
	}
	if (rem)
		throw ReplyError(std::to_string(rem) + " stray bytes in " + what);
}

void expect_len(const nlattr *nla, size_t n, const char *what)
{
	if (payload_len(nla) != n)
		throw ReplyError(std::string(what) + " of " + std::to_string(payload_len(nla)) +
				 " bytes, not " + std::to_string(n));
}

} // namespace eqdsctl::nla
