// SPDX-License-Identifier: GPL-2.0
// Fuzz target for the receiver's pull scheduler (kmod/core/pacer.c): the
// active sender list with its priority levels, weights and rate caps; and
// the pacer's runs around it (kmod/core/grant.c), which half the time
// grant what is due instead of the glue-like loop below.
//
// The input picks a rate, a quantum and a burst bound, then drives up to
// eight senders through activations with demand, deactivations, share
// changes (weight, level, cap) while on the list or off it, rate changes,
// and time moving forward (and, rarely, back) with everything due granted
// as the glue grants it. After every step:
//  - every list is consistent (both directions), each node on the list of
//    its own level or on the throttled list, which is sorted by due time;
//    active and ready count them exactly; queued matches the model;
//  - a grant goes to the head of the highest level that has a ready
//    sender, never to a sender without demand or waiting for its cap, and
//    is within the deficit, the demand and one turn (eqds_sched_turn());
//  - a capped sender is never granted more than its cap allows: bytes
//    granted since its cap was set are at most cap * time + one full grant
//    of slack + one grant;
//  - the total granted never exceeds what the rate allows since the last
//    rate change, plus the burst bound;
//  - when nothing is granted and a sender is ready, the budget is below a
//    quantum, and next_ns is never 0 then;
//  - a run of the pacer grants at most EQDS_PACER_GRANTS times, numbers
//    each sender's pulls consecutively, leaves the scheduler's backlog at
//    the senders' outstanding demand, stops exactly when no sender has
//    demand, runs again no sooner than its floor, and takes late_bytes.
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_check.h"
#include "fuzz_reader.h"
#include "grant.h"
#include "pacer.h"

namespace {

constexpr int kSenders = 8;

struct sender {
	struct eqds_rx rx;		// first: owner() casts back from rx
	uint32_t demand = 0;
	// Cap accounting since the cap was last set.
	uint64_t cap_since = 0;
	uint64_t cap_bytes = 0;
};

struct harness {
	struct eqds_sched s;
	sender snd[kSenders];
	uint64_t now = 0;
	uint64_t rate_since = 0;	// time of the last rate change
	uint64_t rate_bytes = 0;	// granted since
	uint64_t rate = 0;
	bool time_went_back = false;
};

sender *owner(struct eqds_rx *rx)
{
	return reinterpret_cast<sender *>(rx);
}

sender *owner(struct eqds_asl_node *n)
{
	return owner(reinterpret_cast<struct eqds_rx *>(reinterpret_cast<char *>(n) -
							offsetof(struct eqds_rx, asl)));
}

void check_lists(harness &h)
{
	struct eqds_sched &s = h.s;
	uint32_t ready = 0, throttled = 0;

	for (uint32_t i = 0; i < EQDS_SCHED_PRIOS; i++)
		for (auto *p = s.head[i].next; p != &s.head[i]; p = p->next) {
			FUZZ_CHECK(p->next->prev == p && p->prev->next == p);
			FUZZ_CHECK(p->queued && !p->throttled && p->prio == i);
			// A round started before the turns shrank keeps its deficit.
			FUZZ_CHECK(p->deficit >= 1 &&
				   p->deficit <= (uint64_t)p->weight * EQDS_SCHED_MAX_SCALE);
			FUZZ_CHECK(++ready <= kSenders);
		}
	for (auto *p = s.throttled.next; p != &s.throttled; p = p->next) {
		FUZZ_CHECK(p->next->prev == p && p->prev->next == p);
		FUZZ_CHECK(p->queued && p->throttled && p->cap_bps);
		FUZZ_CHECK(p->next == &s.throttled || p->next_ns <= p->next->next_ns);
		FUZZ_CHECK(++throttled <= kSenders);
	}
	FUZZ_CHECK(s.ready == ready);
	FUZZ_CHECK(s.active == ready + throttled);
	for (sender &x : h.snd)
		FUZZ_CHECK(x.rx.asl.queued == (x.demand > 0));
}

// Checks of one grant of q quanta to n, before it is charged.
void check_grant(harness &h, struct eqds_asl_node *n, uint32_t q)
{
	struct eqds_sched &s = h.s;
	sender *x = owner(n);

	FUZZ_CHECK(q >= 1 && q <= eqds_sched_turn(&s) && q <= x->demand);
	uint64_t bytes = (uint64_t)q * s.quantum;
	x->demand -= q;
	h.rate_bytes += bytes;
	if (n->cap_bps) {
		x->cap_bytes += bytes;
		// cap * elapsed, plus one full grant saved up, plus this one.
		unsigned __int128 allowed =
			(unsigned __int128)n->cap_bps * (s.last_ns - x->cap_since) /
			8000000000ull +
			2ull * EQDS_SCHED_TURN_QUANTA * EQDS_SCHED_MAX_SCALE * s.quantum;
		if (!h.time_went_back)
			FUZZ_CHECK(x->cap_bytes <= allowed);
	}
}

// After an expiry, whichever way it granted.
void check_served(harness &h)
{
	struct eqds_sched &s = h.s;

	if (!h.time_went_back && h.rate) {
		unsigned __int128 allowed = (unsigned __int128)h.rate * (h.now - h.rate_since) /
					    8000000000ull + s.max_burst + s.quantum;
		FUZZ_CHECK(h.rate_bytes <= allowed);
	}
	if (!eqds_sched_peek(&s) && s.ready)
		FUZZ_CHECK(s.budget < s.quantum);
	if (s.active && s.budget < s.quantum && s.rate_bps)
		FUZZ_CHECK(eqds_sched_next_ns(&s, h.now) > 0 || !s.ready);
}

// What the glue's pacer did at a timer expiry before core/grant.c.
void serve(harness &h)
{
	struct eqds_sched &s = h.s;
	struct eqds_asl_node *n;
	int grants = 0;

	eqds_sched_advance(&s, h.now);
	while ((n = eqds_sched_peek(&s)) && grants++ < 64) {
		sender *x = owner(n);
		uint32_t q = eqds_sched_quanta(&s, n, x->demand);

		FUZZ_CHECK(n->queued && !n->throttled);
		FUZZ_CHECK(!n->cap_bps || n->next_ns <= s.last_ns);
		// No ready sender on a higher level was passed over.
		for (uint32_t i = 0; i < n->prio; i++)
			FUZZ_CHECK(s.head[i].next == &s.head[i]);
		FUZZ_CHECK(q <= n->deficit);
		check_grant(h, n, q);
		eqds_sched_granted(&s, n, q, x->demand);
	}
	check_served(h);
}

// A run of the pacer, as the module's timer runs it: each sender's pull
// generator says its demand.
void run(harness &h, uint64_t min_ns)
{
	struct eqds_sched &s = h.s;
	struct eqds_pacer_plan plan;
	uint32_t pull_no[kSenders];

	for (int i = 0; i < kSenders; i++) {
		sender &x = h.snd[i];

		x.rx.pulls.target = x.rx.pulls.pull_no + x.demand;
		pull_no[i] = x.rx.pulls.pull_no;
	}
	eqds_pacer_run(&s, h.now, min_ns, &plan);
	FUZZ_CHECK(plan.ngrants <= EQDS_PACER_GRANTS);
	FUZZ_CHECK(s.late_bytes == 0);
	for (uint32_t i = 0; i < plan.ngrants; i++) {
		const struct eqds_grant &g = plan.grant[i];
		sender *x = owner(g.rx);
		int k = (int)(x - h.snd);

		FUZZ_CHECK(k >= 0 && k < kSenders);
		FUZZ_CHECK(g.epoch == x->rx.epoch);
		FUZZ_CHECK(g.pull_no == pull_no[k] + g.quanta);
		pull_no[k] = g.pull_no;
		check_grant(h, &x->rx.asl, g.quanta);
	}
	uint64_t backlog = 0;

	for (int i = 0; i < kSenders; i++) {
		sender &x = h.snd[i];

		FUZZ_CHECK(x.rx.pulls.pull_no == pull_no[i]);
		FUZZ_CHECK(eqds_pullgen_outstanding(&x.rx.pulls) == x.demand);
		if (x.rx.asl.queued)
			backlog += x.rx.asl.backlog;
	}
	FUZZ_CHECK(s.backlog == backlog);
	FUZZ_CHECK(plan.busy_us == eqds_sched_busy_us(&s));
	FUZZ_CHECK(plan.rearm == (s.active > 0));
	FUZZ_CHECK(plan.next_ns >= h.now + min_ns);
	check_served(h);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader in{data, size};
	harness h;
	uint32_t quantum = 64 + (uint32_t)in.get(2) % 9000;
	uint32_t burst = (uint32_t)in.get(3);

	h.rate = in.get(5) % 400000000000ull;	// up to 400 Gb/s
	h.now = in.get(4);
	h.rate_since = h.now;
	eqds_sched_init(&h.s, h.rate, quantum, burst, h.now);
	for (uint32_t i = 0; i < kSenders; i++)
		eqds_rx_init(&h.snd[i].rx, i, 0xffffffffu, 1 + (uint32_t)in.get(1) % 64);
	while (!in.empty()) {
		uint8_t op = (uint8_t)in.get(1);
		sender &x = h.snd[(op >> 4) % kSenders];

		switch (op & 7) {
		case 0:		// demand
			x.demand += 1 + (uint32_t)in.get(2);
			eqds_sched_set_backlog(&h.s, &x.rx.asl, x.demand);
			eqds_sched_activate(&h.s, &x.rx.asl);
			break;
		case 1:		// the sender goes away
			x.demand = 0;
			eqds_sched_deactivate(&h.s, &x.rx.asl);
			break;
		case 2: {	// a policy change
			uint32_t w = (uint32_t)in.get(1);
			uint8_t prio = (uint8_t)in.get(1);
			uint64_t cap = in.get(1) & 1 ? 0 : 1000 + in.get(5) % 100000000000ull;

			if (cap != x.rx.asl.cap_bps || !cap) {
				x.cap_since = h.now;
				x.cap_bytes = 0;
			}
			eqds_sched_set_share(&h.s, &x.rx.asl, w, prio, cap, h.now);
			break;
		}
		case 3:		// the link rate changes, turns scaled or not
			eqds_sched_advance(&h.s, h.now);
			h.rate = in.get(5) % 400000000000ull;
			eqds_sched_set_rate(&h.s, h.rate, h.now);
			eqds_sched_set_turn(&h.s, op & 0x08 ? 50000 : 0);
			h.rate_since = h.now;
			h.rate_bytes = 0;
			break;
		case 7:		// time goes back (another CPU's clock), rarely
			if (op & 0x08) {
				h.now -= h.now ? in.get(1) % h.now : 0;
				h.time_went_back = true;
				serve(h);
				break;
			}
			[[fallthrough]];
		default:	// time passes, what is due is granted
			h.now += in.get(3);
			if (op & 0x08)
				run(h, in.get(2));
			else
				serve(h);
			break;
		}
		check_lists(h);
	}
	return 0;
}
