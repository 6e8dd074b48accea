// SPDX-License-Identifier: GPL-2.0
// A one-shot timer with the semantics the kernel glue relies on from an
// hrtimer: start() replaces any pending expiry, queued() and expires() tell
// what is pending. A replaced expiry stays in the event queue but is
// recognised as stale by its generation number and ignored; a timer that
// goes away takes its expiries out of the queue.
#pragma once

#include <functional>

#include "event_queue.h"

namespace eqdssim {

class Timer : public EventTarget {
public:
	Timer(EventQueue &q, std::function<void()> on_expiry)
		: q_(q), on_expiry_(std::move(on_expiry)) {}
	~Timer() override
	{
		if (in_queue_)
			q_.forget(this);
	}
	Timer(const Timer &) = delete;
	Timer &operator=(const Timer &) = delete;

	void start(SimTime when)
	{
		generation_++;
		queued_ = true;
		expires_ = when;
		in_queue_++;
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
		in_queue_--;
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
	uint64_t in_queue_ = 0;	// events in q_ for this timer, stale ones too
};

}  // namespace eqdssim
