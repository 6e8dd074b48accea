// SPDX-License-Identifier: GPL-2.0
// The boundary between EQDS hosts and the traffic above them: what the
// glue would hand to, and take from, the host's IP stack.
#pragma once

#include <cstdint>

#include "packet.h"

namespace eqdssim {

class Host;
class SenderTunnel;

class Application {
public:
	virtual ~Application() = default;
	// The tunnel's queue has room: the application may capture() more
	// packets into it. The model of a sender whose transport keeps the
	// EQIF queue busy without overflowing it (backpressure).
	virtual void fill(Host &host, SenderTunnel &tunnel) = 0;
	// A data packet went up the receiving host's stack.
	virtual void delivered(Host &host, uint32_t src, const AppData &d, bool late) = 0;
};

}  // namespace eqdssim
