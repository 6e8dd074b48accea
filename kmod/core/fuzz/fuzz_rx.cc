// SPDX-License-Identifier: GPL-2.0
// Fuzz target for the receiver's reorder window (kmod/core/rx.c).
//
// The input picks an epoch (so the first seq, eqds_isn(epoch), can sit
// right before the 2^32 wrap) and a reorder timeout, then drives data
// arrivals (near rcv_nxt, at rcv_nxt, anywhere in 2^32, with valid and
// invalid segment counts), release calls, and time moving forward and,
// rarely, backward. An independent model of the window (ordered sets of
// seqs, no slot ring) predicts every verdict and release exactly. After
// every step:
//  - rcv_nxt, nheld, the sack bitmap and the release deadline match the
//    model;
//  - nheld equals the number of held slots in the ring, and every held or
//    continuation slot lies ahead of rcv_nxt;
//  - release returns strictly increasing seqs, each a held packet's first;
//  - a hole is given up on only when a packet beyond it has been held for
//    the timeout, and in batches: the model keeps the set of packets held
//    when the current wait began, the hardware keeps only a seq bound;
//  - no seq is ever delivered twice (in order, late or released);
//  - eqds_rx_classify() tells the verdict before the packet is taken;
//  - the stats counters add up to the verdicts seen.
// ASan/UBSan catch any out-of-bounds slot access.
#include <cstdint>
#include <iterator>
#include <map>
#include <set>

#include "fuzz_check.h"
#include "fuzz_reader.h"
#include "rx.h"
#include "seq.h"
#include "wire.h"

namespace {

// Seqs are kept relative to the first seq of the epoch (isn), as 64-bit
// offsets, so the model is free of wrap-around; rx.c sees isn + offset.
struct model {
	int64_t nxt = 0;			// rcv_nxt - isn
	std::map<int64_t, uint32_t> held;	// first offset -> seg count
	std::map<int64_t, uint64_t> arrived;	// held packet -> arrival time
	std::set<int64_t> batch;	// held when the current wait began
	std::set<int64_t> delivered;		// ever delivered
	uint64_t gap_since = 0;
	bool monotonic = true;	// time never went back (see op 7)
	uint64_t late = 0, dups = 0, too_old = 0, too_far = 0, skipped = 0,
		 holds = 0;

	bool is_held(int64_t off) const
	{
		auto it = held.upper_bound(off);

		if (it == held.begin())
			return false;
		--it;
		return off < it->first + (int64_t)it->second;
	}

	// Behind rcv_nxt, within the tracked window: delivered, or never sent
	// (before the isn), else given up on.
	bool done(int64_t off) const
	{
		return off < 0 || delivered.count(off);
	}

	enum eqds_rx_verdict data(int64_t off, uint32_t nsegs, uint64_t now)
	{
		int64_t d = off - nxt;

		if (nsegs == 0 || nsegs > EQDS_MAX_SEGS) {
			too_far++;
			return EQDS_RX_TOO_FAR;
		}
		if (d < 0) {
			if (d < -EQDS_RX_AHEAD) {
				too_old++;
				return EQDS_RX_TOO_OLD;
			}
			if (d + (int64_t)nsegs > 0) {
				dups++;
				return EQDS_RX_DUP;
			}
			for (uint32_t i = 0; i < nsegs; i++) {
				if (done(off + i)) {
					dups++;
					return EQDS_RX_DUP;
				}
			}
			for (uint32_t i = 0; i < nsegs; i++)
				delivered.insert(off + i);
			late++;
			return EQDS_RX_LATE;
		}
		if (d + (int64_t)nsegs > EQDS_RX_AHEAD) {
			too_far++;
			return EQDS_RX_TOO_FAR;
		}
		for (uint32_t i = 0; i < nsegs; i++) {
			if (is_held(off + i)) {
				dups++;
				return EQDS_RX_DUP;
			}
		}
		if (d == 0) {
			for (uint32_t i = 0; i < nsegs; i++)
				delivered.insert(off + i);
			nxt += nsegs;
			rearm(now);
			return EQDS_RX_DELIVER;
		}
		held[off] = nsegs;
		arrived[off] = now;
		if (held.size() == 1) {
			gap_since = now;
			batch = { off };
		}
		holds++;
		return EQDS_RX_HOLD;
	}

	// Once every packet of the batch went up, the packets held now are the
	// next batch, waited on from now.
	void rearm(uint64_t now)
	{
		for (auto it = batch.begin(); it != batch.end();)
			it = held.count(*it) ? std::next(it) : batch.erase(it);
		if (batch.empty() && !held.empty()) {
			gap_since = now;
			for (auto &h : held)
				batch.insert(h.first);
		}
	}

	// What eqds_rx_release must return: the first offset, or -1.
	int64_t release(uint64_t now, uint64_t timeout)
	{
		auto it = held.begin();
		int64_t off;

		if (it == held.end())
			return -1;
		if (it->first != nxt) {
			if (now <= gap_since || now - gap_since < timeout)
				return -1;
			// The evidence: a packet of the batch, beyond the
			// hole, held for a timeout at least. A clock read
			// that went back (another CPU's) shortens this by
			// as much as it went back, no more: not checked.
			FUZZ_CHECK(!batch.empty());
			FUZZ_CHECK(*batch.begin() >= it->first);
			if (monotonic)
				FUZZ_CHECK(arrived[*batch.begin()] <=
					   now - timeout);
			skipped += (uint64_t)(it->first - nxt);
		}
		off = it->first;
		for (uint32_t i = 0; i < it->second; i++)
			delivered.insert(off + i);
		nxt = off + it->second;
		held.erase(it);
		arrived.erase(off);
		rearm(now);
		return off;
	}
};

struct harness {
	struct eqds_rx rx;
	model m;
	uint32_t isn;
	uint64_t now = 0;
	uint64_t timeout;
	uint64_t back = 0;
	int64_t last_released = -1;
	std::set<int64_t> handed_up;	// every offset delivered, any way

	void hand_up(int64_t off, uint32_t nsegs)
	{
		for (uint32_t i = 0; i < nsegs; i++)
			FUZZ_CHECK(handed_up.insert(off + i).second);
	}

	void data(uint32_t seq, uint32_t nsegs)
	{
		// The model's offset for seq: the one nearest rcv_nxt.
		int64_t off = m.nxt + eqds_seq_diff(seq, rx.rcv_nxt);
		enum eqds_rx_verdict want = m.data(off, nsegs, now);
		enum eqds_rx_verdict told = eqds_rx_classify(&rx, seq, nsegs);
		enum eqds_rx_verdict got = eqds_rx_data(&rx, seq, nsegs, now);

		FUZZ_CHECK(got == want);
		FUZZ_CHECK(told == got);
		if (got == EQDS_RX_DELIVER || got == EQDS_RX_LATE)
			hand_up(off, nsegs);
		if (got == EQDS_RX_DELIVER)
			last_released = off;
		if (got == EQDS_RX_HOLD) {
			FUZZ_CHECK(rx.slot[eqds_rx_slot(seq)] == nsegs);
			for (uint32_t i = 1; i < nsegs; i++)
				FUZZ_CHECK(rx.slot[eqds_rx_slot(seq + i)] ==
					   EQDS_RX_S_CONT);
		}
	}

	void release()
	{
		for (;;) {
			int64_t want = m.release(now, timeout);
			uint32_t held_segs = 0;
			uint32_t seq = 0;
			bool got;

			if (want >= 0)
				held_segs = rx.slot[eqds_rx_slot(isn +
								 (uint32_t)want)];
			got = eqds_rx_release(&rx, now, timeout, &seq);
			FUZZ_CHECK(got == (want >= 0));
			if (!got)
				return;
			FUZZ_CHECK(seq == isn + (uint32_t)want);
			FUZZ_CHECK(want > last_released);
			FUZZ_CHECK(held_segs >= 1 && held_segs <= EQDS_MAX_SEGS);
			last_released = want;
			hand_up(want, held_segs);
			check();
		}
	}

	void check()
	{
		uint32_t nheld = 0;
		uint64_t sack = 0;

		FUZZ_CHECK(rx.rcv_nxt == isn + (uint32_t)m.nxt);
		FUZZ_CHECK(rx.nheld == m.held.size());
		for (uint32_t i = 0; i < EQDS_RX_SLOTS; i++) {
			uint8_t v = rx.slot[i];
			// Distance of the slot's seq ahead of rcv_nxt.
			uint32_t ahead = (i - rx.rcv_nxt) & (EQDS_RX_SLOTS - 1);

			if (v >= 1 && v <= EQDS_MAX_SEGS) {
				nheld++;
				FUZZ_CHECK(ahead < EQDS_RX_AHEAD);
				FUZZ_CHECK(m.held.count(m.nxt + ahead));
			} else if (v == EQDS_RX_S_CONT) {
				FUZZ_CHECK(ahead < EQDS_RX_AHEAD);
				FUZZ_CHECK(m.is_held(m.nxt + ahead));
			} else if (v == EQDS_RX_S_DONE) {
				FUZZ_CHECK(ahead >= EQDS_RX_AHEAD);
			} else {
				FUZZ_CHECK(v == EQDS_RX_S_EMPTY);
			}
		}
		FUZZ_CHECK(nheld == rx.nheld);
		for (uint32_t i = 0; i < 64; i++)
			if (m.is_held(m.nxt + 1 + i))
				sack |= 1ull << i;
		FUZZ_CHECK(eqds_rx_sack(&rx) == sack);
		if (!m.held.empty()) {
			int64_t last = *m.batch.rbegin();

			FUZZ_CHECK(rx.gap_end == isn + (uint32_t)(last +
							m.held[last]));
		}
		FUZZ_CHECK(eqds_rx_deadline(&rx, timeout) ==
			   (m.held.empty() ? 0 : m.gap_since + timeout));
		FUZZ_CHECK(rx.stats.late == m.late);
		FUZZ_CHECK(rx.stats.dups == m.dups);
		FUZZ_CHECK(rx.stats.too_old == m.too_old);
		FUZZ_CHECK(rx.stats.too_far == m.too_far);
		FUZZ_CHECK(rx.stats.skipped == m.skipped);
		FUZZ_CHECK(rx.stats.held == m.holds);
	}
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_reader rd = { data, size };
	harness h;
	uint32_t epoch = (uint32_t)rd.get(4);

	h.timeout = rd.get(2) + 1;
	h.now = rd.get(4);
	eqds_rx_init(&h.rx, epoch, 150, 1);
	h.isn = eqds_isn(epoch);
	FUZZ_CHECK(h.rx.epoch == epoch);
	FUZZ_CHECK(h.rx.rcv_nxt == h.isn);
	h.check();

	while (!rd.empty()) {
		uint8_t op = (uint8_t)rd.get(1);
		uint32_t seq;
		uint8_t segs;

		switch (op % 8) {
		case 0:	// near rcv_nxt: holds, dups, late, too old, too far
		case 1:
			seq = h.rx.rcv_nxt +
			      (uint32_t)((int32_t)(int16_t)rd.get(2) % 600);
			segs = (uint8_t)rd.get(1);
			h.data(seq, (segs & 0x80) ? segs & 7 : segs % 5 + 1);
			break;
		case 2:	// in order
			h.data(h.rx.rcv_nxt, (uint32_t)rd.get(1) % 4 + 1);
			break;
		case 3:	// anywhere, any segment count
			seq = (uint32_t)rd.get(4);
			h.data(seq, (uint32_t)rd.get(1));
			break;
		case 4:
			h.release();
			break;
		case 5:	// time passes
			h.now += rd.get(2);
			break;
		case 6:	// time passes, then the release timer fires
			h.now += rd.get(1) * (h.timeout / 16 + 1);
			h.release();
			break;
		case 7:	// a time read before another CPU's
			h.back = rd.get(1) % (h.now + 1);
			h.now -= h.back;
			if (h.back)
				h.m.monotonic = false;
			break;
		}
		h.check();
	}
	// Drain: each hole is given up at the deadline (a timeout after the
	// previous release), so one timer per held packet empties the window.
	for (uint32_t n = h.rx.nheld; n; n--) {
		uint64_t deadline = eqds_rx_deadline(&h.rx, h.timeout);

		h.now = deadline > h.now ? deadline : h.now;
		h.release();
	}
	FUZZ_CHECK(h.rx.nheld == 0);
	h.check();
	return 0;
}
