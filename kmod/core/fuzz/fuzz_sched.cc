// SPDX-License-Identifier: GPL-2.0
// Fuzz target for the receiver's pull scheduler (kmod/core/pacer.c): the
// active sender list with its priority levels, weights and rate caps.
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
//    is within the deficit, the demand and EQDS_SCHED_MAX_QUANTA;
//  - a capped sender is never granted more than its cap allows: bytes
//    granted since its cap was set are at most cap * time + one full grant
//    of slack + one grant;
//  - the total granted never exceeds what the rate allows since the last
//    rate change, plus the burst bound;
//  - when nothing is granted and a sender is ready, the budget is below a
//    quantum, and next_ns is never 0 then.
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_check.h"
#include "fuzz_reader.h"
#include "pacer.h"

namespace {

constexpr int kSenders = 8;

struct sender {
	struct eqds_asl_node node;	// first: owner() casts back
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

sender *owner(struct eqds_asl_node *n)
{
	return reinterpret_cast<sender *>(n);
}

void check_lists(harness &h)
{
	struct eqds_sched &s = h.s;
	uint32_t ready = 0, throttled = 0;

	for (uint32_t i = 0; i < EQDS_SCHED_PRIOS; i++)
		for (auto *p = s.head[i].next; p != &s.head[i]; p = p->next) {
			FUZZ_CHECK(p->next->prev == p && p->prev->next == p);
			FUZZ_CHECK(p->queued && !p->throttled && p->prio == i);
			FUZZ_CHECK(p->deficit >= 1 && p->deficit <= p->weight);
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
		FUZZ_CHECK(x.node.queued == (x.demand > 0));
}

// What the glue's pacer does at a timer expiry.
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
		FUZZ_CHECK(q >= 1 && q <= EQDS_SCHED_MAX_QUANTA && q <= x->demand &&
			   q <= n->deficit);
		uint64_t bytes = (uint64_t)q * s.quantum;
		x->demand -= q;
		h.rate_bytes += bytes;
		if (n->cap_bps) {
			x->cap_bytes += bytes;
			// cap * elapsed, plus one full grant saved up, plus this one.
			unsigned __int128 allowed =
				(unsigned __int128)n->cap_bps * (s.last_ns - x->cap_since) /
				8000000000ull + 2ull * EQDS_SCHED_MAX_QUANTA * s.quantum;
			if (!h.time_went_back)
				FUZZ_CHECK(x->cap_bytes <= allowed);
		}
		eqds_sched_granted(&s, n, q, x->demand);
	}
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
	for (sender &x : h.snd)
		eqds_asl_node_init(&x.node, 1 + (uint32_t)in.get(1) % 64);
	while (!in.empty()) {
		uint8_t op = (uint8_t)in.get(1);
		sender &x = h.snd[(op >> 4) % kSenders];

		switch (op & 7) {
		case 0:		// demand
			x.demand += 1 + (uint32_t)in.get(2);
			eqds_sched_set_backlog(&h.s, &x.node, x.demand);
			eqds_sched_activate(&h.s, &x.node);
			break;
		case 1:		// the sender goes away
			x.demand = 0;
			eqds_sched_deactivate(&h.s, &x.node);
			break;
		case 2: {	// a policy change
			uint32_t w = (uint32_t)in.get(1);
			uint8_t prio = (uint8_t)in.get(1);
			uint64_t cap = in.get(1) & 1 ? 0 : 1000 + in.get(5) % 100000000000ull;

			if (cap != x.node.cap_bps || !cap) {
				x.cap_since = h.now;
				x.cap_bytes = 0;
			}
			eqds_sched_set_share(&h.s, &x.node, w, prio, cap, h.now);
			break;
		}
		case 3:		// the link rate changes
			eqds_sched_advance(&h.s, h.now);
			h.rate = in.get(5) % 400000000000ull;
			eqds_sched_set_rate(&h.s, h.rate, h.now);
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
			serve(h);
			break;
		}
		check_lists(h);
	}
	return 0;
}
