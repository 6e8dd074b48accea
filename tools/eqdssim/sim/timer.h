// SPDX-License-Identifier: GPL-2.0
// A one-shot timer with the semantics the kernel glue relies on from an
// hrtimer: start() replaces any pending expiry, queued() and expires() tell
// what is pending. A replaced expiry stays in the event queue but is
// recognised as stale by its generation number and ignored.
#pragma once

#include <functional>

#include "event_queue.h"

namespace eqdssim {

class Timer : public EventTarget {
public:
	Timer(EventQueue &q, std::function<void()> on_expiry)
		: q_(q), on_expiry_(std::move(on_expiry)) {}

	void start(SimTime when)
	{
		generation_++;
		queued_ = true;
		expires_ = when;
		q_.at(when, this, 0, generation_);
	}
	void cancel()
	{
		generation_++;
		queued_ = false;
	}
	bool queued() const { return queued_; }
	SimTime expires() const { return expires_; }

	void fire(uint32_t, uint64_t generation) override
	{
		if (generation != generation_ || !queued_)
			return;
		queued_ = false;
		on_expiry_();
	}

private:
	EventQueue &q_;
	std::function<void()> on_expiry_;
	uint64_t generation_ = 0;
	SimTime expires_ = 0;
	bool queued_ = false;
};

}  // namespace eqdssim
