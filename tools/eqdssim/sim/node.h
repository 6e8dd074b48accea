// SPDX-License-Identifier: GPL-2.0
// Anything a link delivers packets to: a switch or a host.
#pragma once

#include <cstdint>

#include "event_queue.h"
#include "packet.h"

namespace eqdssim {

class Node : public EventTarget {
public:
	static constexpr uint32_t kArrive = 1;

	explicit Node(uint32_t id) : id_(id) {}
	uint32_t id() const { return id_; }
	virtual bool is_host() const = 0;
	// A packet has arrived over a link; the node owns it now.
	virtual void receive(Packet *p) = 0;

	void fire(uint32_t kind, uint64_t arg) override
	{
		if (kind == kArrive)
			receive(reinterpret_cast<Packet *>(arg));
	}

private:
	uint32_t id_;
};

}  // namespace eqdssim
