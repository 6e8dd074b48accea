// SPDX-License-Identifier: GPL-2.0
// The credit conservation check, run after every control packet a sender
// processes. Within one epoch of one tunnel:
//   1. held credit never exceeds the window;
//   2. credit is neither made nor lost at the sender: what the glue saw
//      granted (plus a burst-mode start) equals what it spent plus what is
//      held (charged + held == initial + gained);
//   3. every pull the sender accepted is accounted for: credit gained plus
//      credit refused at the window cap equals pull_hi quanta;
//   4. the sender never saw a pull number the receiver did not send;
//   5. the receiver never got more data bytes than the sender paid for.
// A violation is counted and the first one described.
#pragma once

#include <cstdint>
#include <string>

namespace eqdssim {

class SenderTunnel;
class ReceiverTunnel;

class CreditAudit {
public:
	void check(const SenderTunnel &tx, const ReceiverTunnel *rx, uint32_t quantum);
	uint64_t checks() const { return checks_; }
	uint64_t violations() const { return violations_; }
	const std::string &first_violation() const { return first_; }

private:
	void fail(const SenderTunnel &tx, const std::string &what);

	uint64_t checks_ = 0, violations_ = 0;
	std::string first_;
};

}  // namespace eqdssim
