// SPDX-License-Identifier: GPL-2.0
// The simulator's clock and its agenda: a binary min-heap of events ordered
// by time, ties broken by insertion order so a run is deterministic. Events
// carry a target, a kind and one 64-bit argument (a packet pointer or a
// timer generation), which keeps them small and avoids allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace eqdssim {

using SimTime = uint64_t;	// nanoseconds
constexpr SimTime kNs = 1;
constexpr SimTime kUs = 1000;
constexpr SimTime kMs = 1000 * kUs;

class EventTarget {
public:
	virtual ~EventTarget() = default;
	virtual void fire(uint32_t kind, uint64_t arg) = 0;
};

class EventQueue {
public:
	// Schedule target->fire(kind, arg) at time t (never before now()).
	void at(SimTime t, EventTarget *target, uint32_t kind, uint64_t arg);
	// Drop every event for target: it is going away (O(pending)).
	void forget(const EventTarget *target);
	// Drop every event: the targets are going away.
	void clear() { heap_.clear(); }
	// Run events up to and including time end; now() is end afterwards.
	void run_until(SimTime end);
	SimTime now() const { return now_; }
	uint64_t events_run() const { return events_run_; }
	size_t pending() const { return heap_.size(); }
	size_t peak_pending() const { return peak_; }

private:
	struct Event {
		SimTime t;
		uint64_t order;
		EventTarget *target;
		uint64_t arg;
		uint32_t kind;
	};
	static bool earlier(const Event &a, const Event &b)
	{
		return a.t != b.t ? a.t < b.t : a.order < b.order;
	}
	void sift_up(size_t i);
	void sift_down(size_t i);

	std::vector<Event> heap_;
	SimTime now_ = 0;
	uint64_t order_ = 0;
	uint64_t events_run_ = 0;
	size_t peak_ = 0;
};

}  // namespace eqdssim
