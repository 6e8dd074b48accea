// SPDX-License-Identifier: GPL-2.0
#include "event_queue.h"

namespace eqdssim {

void EventQueue::at(SimTime t, EventTarget *target, uint32_t kind, uint64_t arg)
{
	if (t < now_)
		t = now_;
	heap_.push_back(Event{ t, order_++, target, arg, kind });
	sift_up(heap_.size() - 1);
	if (heap_.size() > peak_)
		peak_ = heap_.size();
}

void EventQueue::sift_up(size_t i)
{
	Event e = heap_[i];

	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!earlier(e, heap_[parent]))
			break;
		heap_[i] = heap_[parent];
		i = parent;
	}
	heap_[i] = e;
}

void EventQueue::sift_down(size_t i)
{
	size_t n = heap_.size();
	Event e = heap_[i];

	for (;;) {
		size_t child = 2 * i + 1;

		if (child >= n)
			break;
		if (child + 1 < n && earlier(heap_[child + 1], heap_[child]))
			child++;
		if (!earlier(heap_[child], e))
			break;
		heap_[i] = heap_[child];
		i = child;
	}
	heap_[i] = e;
}

void EventQueue::forget(const EventTarget *target)
{
	size_t n = 0;

	for (const Event &e : heap_)
		if (e.target != target)
			heap_[n++] = e;
	heap_.resize(n);
	for (size_t i = n / 2; i-- > 0;)
		sift_down(i);
}

void EventQueue::run_until(SimTime end)
{
	while (!heap_.empty() && heap_.front().t <= end) {
		Event e = heap_.front();

		heap_.front() = heap_.back();
		heap_.pop_back();
		if (!heap_.empty())
			sift_down(0);
		now_ = e.t;
		events_run_++;
		e.target->fire(e.kind, e.arg);
	}
	if (end > now_)
		now_ = end;
}

}  // namespace eqdssim
