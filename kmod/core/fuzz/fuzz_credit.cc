// SPDX-License-Identifier: GPL-2.0
// Fuzz target for credit accounting (kmod/core/credit.c).
//
// The input configures a tunnel (window, quantum, initial credit, starting
// pull number, so wrap-around at 2^32 is reachable) and then drives a
// sequence of operations: the receiver's generator numbering pulls into a
// lossy, reordering channel, deliveries and drops from that channel, forged
// pulls with arbitrary numbers and quanta, credit takes and pull-target
// computations. After every step the sender's state is checked against an
// independent model:
//  - credit never exceeds the window;
//  - a stale pull (not after the highest seen) or a zero quantum changes
//    nothing but the stale counter;
//  - an advancing pull moves pull_hi to its number, and the credit gained
//    plus the bytes refused equals exactly jump * quantum (no credit lost);
//    nothing is refused unless the jump exceeds a window or the window is
//    full;
//  - credit == initial + sum(gained) - sum(taken) at all times;
//  - the pull target covers the queue in quanta (rounded up) and a guess
//    of what comes next (rounded down), capped at the window's room.
#include <cstdint>
#include <cstring>
#include <vector>

#include "credit.h"
#include "fuzz_check.h"
#include "fuzz_reader.h"
#include "seq.h"

namespace {

struct harness {
	struct eqds_credit c;
	struct eqds_pullgen g;
	std::vector<uint32_t> channel;	// honest pulls in flight
	uint32_t honest_quantum;
	uint64_t gained = 0, taken = 0, initial = 0;
	bool forged = false;	// any pull not from the generator
	bool lost = false;	// any honest pull dropped

	uint32_t window_quanta(uint32_t q) const
	{
		uint32_t n = c.window / q;

		return n ? n : 1;
	}

	void pull(uint32_t no, uint32_t q)
	{
		struct eqds_credit before = c;
		int32_t jump = eqds_seq_diff(no, before.pull_hi);
		uint32_t gain = eqds_credit_pull(&c, no, q);
		uint64_t refused = c.refused_bytes - before.refused_bytes;

		gained += gain;
		FUZZ_CHECK(c.credit <= c.window);
		FUZZ_CHECK(c.window == before.window);
		if (!q) {
			FUZZ_CHECK(gain == 0);
			FUZZ_CHECK(!std::memcmp(&c, &before, sizeof(c)));
			return;
		}
		if (jump <= 0) {
			FUZZ_CHECK(gain == 0);
			FUZZ_CHECK(c.stale_pulls == before.stale_pulls + 1);
			FUZZ_CHECK(c.credit == before.credit);
			FUZZ_CHECK(c.pull_hi == before.pull_hi);
			FUZZ_CHECK(c.quantum == before.quantum);
			FUZZ_CHECK(refused == 0);
			FUZZ_CHECK(c.clamped_pulls == before.clamped_pulls);
			return;
		}
		FUZZ_CHECK(c.pull_hi == no);
		FUZZ_CHECK(c.quantum == q);
		FUZZ_CHECK(c.stale_pulls == before.stale_pulls);
		FUZZ_CHECK(c.credit == before.credit + gain);
		FUZZ_CHECK((uint64_t)gain + refused == (uint64_t)jump * q);
		if ((uint32_t)jump <= window_quanta(q)) {
			FUZZ_CHECK(c.clamped_pulls == before.clamped_pulls);
			if (before.credit + (uint64_t)jump * q <= c.window)
				FUZZ_CHECK(refused == 0);
		} else {
			FUZZ_CHECK(c.clamped_pulls == before.clamped_pulls + 1);
		}
		// What was refused was refused for a reason: full window.
		if (refused && (uint32_t)jump <= window_quanta(q))
			FUZZ_CHECK(c.credit == c.window);
	}

	void take(uint32_t bytes)
	{
		uint32_t before = c.credit;
		bool ok = eqds_credit_take(&c, bytes);

		FUZZ_CHECK(ok == (bytes <= before));
		FUZZ_CHECK(c.credit == (ok ? before - bytes : before));
		if (ok)
			taken += bytes;
	}

	// Bytes from the credit held up to x, or to the window if less.
	uint64_t short_of(uint64_t x) const
	{
		x = x < c.window ? x : c.window;
		return x > c.credit ? x - c.credit : 0;
	}

	void target(uint64_t queued, uint64_t guess)
	{
		uint16_t pt = (uint16_t)(eqds_credit_pull_target(&c, queued, guess) -
					 (uint16_t)c.pull_hi);
		uint32_t q = c.quantum;
		uint64_t need, hope, cap;

		if (!q) {
			FUZZ_CHECK(pt == 0);
		} else {
			cap = window_quanta(q) < EQDS_DEMAND_MAX_QUANTA ?
			      window_quanta(q) : EQDS_DEMAND_MAX_QUANTA;
			// The queue rounded up, the guess rounded down: the
			// smallest number of quanta covering the first, the
			// most the second fills without passing the window.
			need = (short_of(queued) + q - 1) / q;
			hope = short_of(queued + guess) / q;
			need = need > hope ? need : hope;
			FUZZ_CHECK(pt == (need < cap ? need : cap));
			if (c.credit >= c.window)
				FUZZ_CHECK(pt == 0);
			if (!guess && queued > c.credit && c.credit < c.window)
				FUZZ_CHECK(pt >= 1);
		}

		FUZZ_CHECK(pt == eqds_credit_need(&c, queued, guess));

		// Feed it to the receiver, as a data packet would: the sender
		// has seen every pull (the harness's channel aside), so what
		// is outstanding is what it states beyond the receiver's
		// number, within the receiver's cap.
		uint16_t stated = eqds_credit_pull_target(&c, queued, guess);
		int16_t ahead = (int16_t)(uint16_t)(stated - (uint16_t)g.pull_no);
		uint32_t want = ahead > 0 ? (uint32_t)ahead : 0;

		eqds_pullgen_demand(&g, stated, false);
		FUZZ_CHECK(eqds_pullgen_outstanding(&g) ==
			   (want < g.max_ahead ? want : g.max_ahead));
	}

	void generate()
	{
		uint32_t out = eqds_pullgen_outstanding(&g);
		uint32_t no = eqds_pullgen_next(&g);

		FUZZ_CHECK(eqds_pullgen_outstanding(&g) == (out ? out - 1 : 0));
		if (channel.size() < 512)
			channel.push_back(no);
		else
			lost = true;
	}
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_reader rd = { data, size };
	harness h;
	uint32_t window = (uint32_t)rd.get(3) << 4;	// up to 256 MB
	uint32_t quantum = (uint32_t)rd.get(2) << 6;	// wire units
	uint32_t initial = (uint32_t)rd.get(3) << 4;
	uint32_t start = (uint32_t)rd.get(4);
	uint32_t max_ahead = (uint32_t)rd.get(2);

	eqds_credit_init(&h.c, window, quantum, initial);
	FUZZ_CHECK(h.c.credit == (initial < window ? initial : window));
	h.initial = h.c.credit;
	h.c.pull_hi = start;	// an established tunnel, anywhere in 2^32
	eqds_pullgen_init(&h.g, max_ahead);
	h.g.pull_no = start;
	h.g.target = start;
	h.honest_quantum = quantum;

	while (!rd.empty()) {
		uint8_t op = (uint8_t)rd.get(1);
		size_t idx;

		switch (op % 7) {
		case 0:
			h.generate();
			break;
		case 1:	// deliver one pull in flight, in any order
		case 2:	// drop one
			if (h.channel.empty())
				break;
			idx = (size_t)rd.get(2) % h.channel.size();
			if (op % 7 == 1)
				h.pull(h.channel[idx], h.honest_quantum);
			else
				h.lost = true;
			h.channel.erase(h.channel.begin() + (long)idx);
			break;
		case 3:	// forged: any number near the highest seen, any quantum
			h.forged = true;
			h.pull(h.c.pull_hi + (uint32_t)(int32_t)(int16_t)rd.get(2),
			       (uint32_t)rd.get(2) << 6);
			break;
		case 4:	// forged: any number at all
			h.forged = true;
			h.pull((uint32_t)rd.get(4), (uint32_t)rd.get(3));
			break;
		case 5:
			h.take((uint32_t)rd.get(3));
			break;
		case 6: {
			uint64_t queued = rd.get(1) & 1 ? rd.get(3) : rd.get(8);
			uint64_t guess = rd.get(1) & 1 ? rd.get(3) : 0;

			h.target(queued, guess);
			break;
		}
		}
		FUZZ_CHECK(h.c.credit <= h.c.window);
		FUZZ_CHECK(h.initial + h.gained - h.taken == h.c.credit);
	}

	// Deliver everything left, in order. With honest pulls only, every pull
	// number from start to the highest seen was paid exactly once, in
	// credit or in refused bytes, however many were lost or reordered; and
	// if none was lost, the highest seen is the generator's last.
	for (uint32_t no : h.channel)
		h.pull(no, h.honest_quantum);
	FUZZ_CHECK(h.initial + h.gained - h.taken == h.c.credit);
	if (!h.forged && h.honest_quantum) {
		FUZZ_CHECK(h.gained + h.c.refused_bytes ==
			   (uint64_t)(uint32_t)(h.c.pull_hi - start) *
			   h.honest_quantum);
		if (!h.lost)
			FUZZ_CHECK(h.c.pull_hi == h.g.pull_no);
	}
	return 0;
}
