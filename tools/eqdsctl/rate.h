// SPDX-License-Identifier: GPL-2.0 OR MIT
// Rates as tc(8) writes them ("1.5gbit", "100Mbit", "125MBps"), held in
// Mbit/s, the unit of every rate in the eqds netlink API.
#ifndef EQDSCTL_RATE_H
#define EQDSCTL_RATE_H

#include <cstdint>
#include <string>
#include <string_view>

namespace eqdsctl {

// N[.N] with a unit of tc's, in any case: bit, kbit, mbit, gbit, tbit (and
// kibit, mibit, gibit, tibit), or bytes per second with bps, kbps, mbps,
// gbps, tbps (kibps...). No unit: Mbit/s. The rate must be a whole number of
// Mbit/s in 0..UINT32_MAX; else a UsageError "CMD: KW: 'WORD' ...".
uint32_t parse_rate_mbit(std::string_view cmd, std::string_view kw, std::string_view word);

// As tc prints rates: "100Mbit", "10Gbit", "2Tbit"; parse_rate_mbit() reads
// it back as the same number.
std::string format_rate_mbit(uint32_t mbit);

} // namespace eqdsctl

#endif
