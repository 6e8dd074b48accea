// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "event_queue.h"
#include "timer.h"

using namespace eqdssim;

namespace {

struct Recorder : EventTarget {
	std::vector<uint64_t> seen;
	void fire(uint32_t, uint64_t arg) override { seen.push_back(arg); }
};

TEST(EventQueue, RunsInTimeOrderAndTiesInInsertionOrder)
{
	EventQueue q;
	Recorder r;

	q.at(30, &r, 0, 3);
	q.at(10, &r, 0, 1);
	q.at(20, &r, 0, 20);
	q.at(20, &r, 0, 21);
	q.at(5, &r, 0, 0);
	q.run_until(25);
	EXPECT_EQ(r.seen, (std::vector<uint64_t>{ 0, 1, 20, 21 }));
	EXPECT_EQ(q.now(), 25u);
	q.run_until(100);
	EXPECT_EQ(r.seen.back(), 3u);
	EXPECT_EQ(q.events_run(), 5u);
}

TEST(EventQueue, ManyRandomEventsComeOutSorted)
{
	EventQueue q;
	struct Check : EventTarget {
		EventQueue *q;
		SimTime last = 0;
		bool ok = true;
		void fire(uint32_t, uint64_t) override
		{
			ok = ok && q->now() >= last;
			last = q->now();
		}
	} c;
	c.q = &q;
	uint64_t x = 12345;

	for (int i = 0; i < 10000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		q.at(x >> 40, &c, 0, 0);
	}
	q.run_until(~0ull);
	EXPECT_TRUE(c.ok);
	EXPECT_EQ(q.events_run(), 10000u);
}

TEST(Timer, StartReplacesThePendingExpiry)
{
	EventQueue q;
	std::vector<SimTime> fired;
	Timer t(q, [&] { fired.push_back(q.now()); });

	t.start(100);
	t.start(50);	// earlier: the 100 expiry is stale
	t.start(70);	// later again: only 70 counts
	EXPECT_TRUE(t.queued());
	EXPECT_EQ(t.expires(), 70u);
	q.run_until(1000);
	EXPECT_EQ(fired, (std::vector<SimTime>{ 70 }));
	EXPECT_FALSE(t.queued());
	t.start(2000);
	t.cancel();
	q.run_until(3000);
	EXPECT_EQ(fired.size(), 1u);
}

// A tunnel the scenario forgets (--forget-send-at) takes its timer with it
// while an expiry is queued: the queue must not fire it afterwards.
TEST(Timer, GoneTimerLeavesNothingInTheQueue)
{
	EventQueue q;
	int fired = 0;
	auto t = std::make_unique<Timer>(q, [&] { fired++; });
	Timer kept(q, [&] { fired += 10; });

	t->start(100);
	t->start(50);	// the 100 expiry is stale, still queued
	kept.start(60);
	t.reset();
	EXPECT_EQ(q.pending(), 1u);
	q.run_until(1000);
	EXPECT_EQ(fired, 10);
}

}  // namespace
