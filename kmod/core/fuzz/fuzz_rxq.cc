// SPDX-License-Identifier: GPL-2.0
// Fuzz target for the receiving tunnel's decisions (kmod/core/rxq.c) as the
// glue drives them: epoch admission, data, release from a ring of held
// packets kept at eqds_rx_held_slot(), the ACK/NACK plan and the timer.
//
// The input picks an epoch (so seqs can sit at the 2^32 wrap) and a policy
// (reorder timeout, ACK every, NACK burst), then drives data arrivals
// (SYN or not, this epoch or another, near rcv_nxt, retransmitted or not),
// timer expiries, FINs and time moving forward. Checked after every event:
//  - the ring holds a packet exactly where the core says one is held (every
//    held slot's entry is the packet that arrived with that first seq),
//    never two at one entry, and every release finds its packet there;
//  - packets go up in seq order (late ones are fuzz_rx's to check);
//  - the plan: at most nack_burst (1..8) NACKs besides the ack, all for the
//    tunnel's epoch, each NACK at or after rcv_nxt and with the NACK flag,
//    the ack's cumulative ack at most rcv_nxt (an ack planned for a
//    duplicate or a new epoch precedes the event's releases), path
//    ids handed out one by one (a replaced ack's too);
//    eqds_rxq_plan_nacks() counts the NACKs;
//  - a held packet always has the timer armed, no later than the release
//    deadline (a NACK deadline that a full burst left due may be past);
//  - the ACK policy: after an event, either an ack went out, or data is
//    unacknowledged for less than ack_every packets with a timer due by
//    ack_delay, or nothing is unacknowledged (but for the first data of a
//    new epoch, whose ack is planned before it); a timer expiry leaves
//    nothing unacknowledged;
//  - demand: the scheduler's backlog is the tunnel's outstanding pulls.
// ASan/UBSan catch any out-of-bounds access to either ring.
#include <cstdint>
#include <cstring>

#include "fuzz_check.h"
#include "fuzz_reader.h"
#include "rxq.h"
#include "seq.h"
#include "wire.h"

namespace {

struct harness {
	struct eqds_rx rx;
	struct eqds_epoch_guard guard;
	struct eqds_sched sched;
	struct eqds_rxq_cfg cfg;
	uint32_t ring[EQDS_RX_AHEAD];	// packet ids, 0: empty
	uint32_t ring_seq[EQDS_RX_AHEAD];
	uint32_t next_id = 1;
	uint64_t now = 1000;
	uint64_t timer_at = 0;		// 0: not armed
	uint8_t path = 0;
	bool any_up = false;
	uint32_t last_up = 0;

	void reset(uint32_t epoch)
	{
		eqds_sched_deactivate(&sched, &rx.asl);
		eqds_rx_init(&rx, epoch, 150, 1);
		std::memset(ring, 0, sizeof(ring));
		any_up = false;
	}

	void up_in_order(uint32_t seq)
	{
		if (any_up)
			FUZZ_CHECK(eqds_seq_after(seq, last_up));
		any_up = true;
		last_up = seq;
	}

	void check_plan(const struct eqds_rxq_plan &p, uint8_t path0, bool timer,
			bool begun)
	{
		uint32_t n = p.nnacks + (p.send ? 1 : 0), nacks = p.nnacks;

		FUZZ_CHECK(p.nnacks <= eqds_min_u32(cfg.nack_burst, EQDS_RXQ_NACK_BURST));
		/* An ack replaced by a later one in the event took a path id too. */
		FUZZ_CHECK((uint8_t)(p.path - path0) >= n &&
			   (uint8_t)(p.path - path0) <= n + 2);
		for (uint32_t i = 1; i < p.nnacks; i++)
			FUZZ_CHECK((uint8_t)(p.nack[i].path - p.nack[i - 1].path) == 1);
		if (p.send) {
			FUZZ_CHECK(p.ack.flags & EQDS_F_ACK);
			FUZZ_CHECK(p.epoch == rx.epoch);
			if (p.ack.flags & EQDS_F_NACK)
				nacks++;
			else	/* planned before a release moved rcv_nxt on */
				FUZZ_CHECK(!eqds_seq_after(p.ack.ack, rx.rcv_nxt) &&
					   eqds_seq_diff(rx.rcv_nxt, p.ack.ack) <=
					   EQDS_RX_AHEAD);
			FUZZ_CHECK(!(p.ack.flags & EQDS_F_SACK) == !p.ack.sack);
		}
		for (uint32_t i = 0; i < p.nnacks; i++) {
			const struct eqds_rxq_ctrl &m = p.nack[i];

			FUZZ_CHECK(p.epoch == rx.epoch);
			FUZZ_CHECK(m.flags & EQDS_F_NACK);
			FUZZ_CHECK(!(m.flags & EQDS_F_ACK));
			FUZZ_CHECK(!eqds_seq_before(m.ack, rx.rcv_nxt));
		}
		FUZZ_CHECK(eqds_rxq_plan_nacks(&p) == nacks);
		if (p.timer_ns)
			FUZZ_CHECK(p.timer_ns >= now ||
				   p.timer_ns == eqds_rx_deadline(&rx, cfg.reorder_timeout_ns) ||
				   p.timer_ns == eqds_rx_nack_deadline(&rx, cfg.reorder_timeout_ns));
		if (rx.nheld) {
			FUZZ_CHECK(p.timer_ns);
			FUZZ_CHECK(p.timer_ns <= eqds_rx_deadline(&rx, cfg.reorder_timeout_ns));
		}
		if (!p.send && rx.since_ack) {
			FUZZ_CHECK(!timer);
			FUZZ_CHECK(rx.since_ack < cfg.ack_every);
			FUZZ_CHECK(p.timer_ns && p.timer_ns <= now + cfg.ack_delay_ns);
		}
		/* The ack of a new epoch goes before its first data. */
		if (p.send && !begun)
			FUZZ_CHECK(rx.since_ack == 0);
	}

	void apply(const struct eqds_rxq_plan &p)
	{
		path = p.path;
		if (p.timer_ns && (!timer_at || p.timer_ns < timer_at))
			timer_at = p.timer_ns;
	}

	void release(struct eqds_rxq_plan *p)
	{
		uint32_t seq;

		while (eqds_rxq_release(&rx, &cfg, now, p, &seq)) {
			uint32_t i = eqds_rx_held_slot(seq);

			FUZZ_CHECK(ring[i] != 0);
			FUZZ_CHECK(ring_seq[i] == seq);
			ring[i] = 0;
			up_in_order(seq);
		}
	}

	void check_ring()
	{
		uint32_t n = 0;

		for (uint32_t i = 0; i < EQDS_RX_AHEAD; i++) {
			uint32_t seq = rx.rcv_nxt + ((i - rx.rcv_nxt) & (EQDS_RX_AHEAD - 1));
			uint8_t v = rx.slot[eqds_rx_slot(seq)];
			bool held = v >= 1 && v <= EQDS_MAX_SEGS;

			FUZZ_CHECK(held == (ring[i] != 0));
			if (held) {
				FUZZ_CHECK(ring_seq[i] == seq);
				n++;
			}
		}
		FUZZ_CHECK(n == rx.nheld);
		FUZZ_CHECK(sched.backlog == rx.asl.backlog);
	}

	void data(uint32_t epoch, bool syn, uint32_t seq, uint32_t nsegs, bool rtx,
		  uint16_t pull_target)
	{
		struct eqds_rxq_plan p;
		uint8_t path0 = path;
		bool begun = false;

		eqds_rxq_plan_init(&p, path);
		switch (eqds_rxq_admit(&rx, &guard, epoch, syn, now, &p)) {
		case EQDS_RXQ_TAKE:
			break;
		case EQDS_RXQ_BEGIN:
			FUZZ_CHECK(syn);
			reset(epoch);
			eqds_rxq_begin(&rx, &guard, &p);
			begun = true;
			FUZZ_CHECK(p.send && p.ack.ack == eqds_isn(epoch));
			break;
		case EQDS_RXQ_RST:
			FUZZ_CHECK(!syn && !p.send);
			return;
		case EQDS_RXQ_STALE:
			FUZZ_CHECK(!p.send);
			return;
		case EQDS_RXQ_REFUSED:
			/* At most a challenge: an ack of the followed epoch. */
			FUZZ_CHECK(syn && epoch != rx.epoch);
			FUZZ_CHECK(!p.nnacks && !p.timer_ns);
			FUZZ_CHECK((uint8_t)(p.path - path0) == (p.send ? 1 : 0));
			FUZZ_CHECK(!p.send || (p.epoch == rx.epoch &&
					       p.ack.ack == rx.rcv_nxt));
			apply(p);
			return;
		}
		FUZZ_CHECK(epoch == rx.epoch);
		eqds_rxq_demand(&sched, &rx, pull_target, !nsegs);
		if (nsegs) {
			switch (eqds_rxq_data(&rx, seq, nsegs, rtx, now, &p)) {
			case EQDS_RX_DELIVER:
				up_in_order(seq);
				break;
			case EQDS_RX_HOLD: {
				uint32_t i = eqds_rx_held_slot(seq);

				FUZZ_CHECK(ring[i] == 0);
				ring[i] = next_id++;
				ring_seq[i] = seq;
				break;
			}
			case EQDS_RX_DUP:
				FUZZ_CHECK(p.send);
				break;
			default:
				break;
			}
			release(&p);
			eqds_rxq_done(&rx, &cfg, now, false, &p);
			check_plan(p, path0, false, begun);
		}
		apply(p);
	}

	void timer()
	{
		struct eqds_rxq_plan p;
		uint8_t path0 = path;

		if (!timer_at)
			return;
		if (now < timer_at)
			now = timer_at;
		timer_at = 0;
		eqds_rxq_plan_init(&p, path);
		release(&p);
		eqds_rxq_done(&rx, &cfg, now, true, &p);
		check_plan(p, path0, true, false);
		FUZZ_CHECK(rx.since_ack == 0);
		apply(p);
	}
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_reader rd = { data, size };
	static harness h;
	uint32_t epoch = (uint32_t)rd.get(4), other;

	std::memset(&h.rx, 0, sizeof(h.rx));
	eqds_sched_init(&h.sched, 10000000000ull, 4096, 16 * 4096, 0);
	h.reset(0);
	eqds_epoch_guard_init(&h.guard);
	h.cfg = eqds_rxq_defaults;
	h.cfg.reorder_timeout_ns = rd.get(3) + 1;
	h.cfg.ack_every = (uint32_t)rd.get(1) % 20 + 1;
	h.cfg.nack_burst = (uint32_t)rd.get(1) % EQDS_RXQ_NACK_BURST + 1;
	h.cfg.ack_delay_ns = rd.get(2) + 1;
	h.next_id = 1;
	h.now = 1000;
	h.timer_at = 0;
	h.path = 0;
	other = epoch + 1 + (uint32_t)rd.get(1);
	h.check_ring();

	while (!rd.empty()) {
		uint8_t op = (uint8_t)rd.get(1);
		uint32_t seq = h.rx.rcv_nxt +
			       (uint32_t)((int32_t)(int16_t)rd.get(2) % 600);
		uint32_t segs = (uint32_t)rd.get(1) % 5;
		uint16_t target = (uint16_t)rd.get(1);

		switch (op % 8) {
		case 0:	// data of the epoch
		case 1:
			h.data(epoch, op & 0x10, seq, segs, op & 0x20, target);
			break;
		case 2:	// in order
			h.data(epoch, op & 0x10, h.rx.rcv_nxt, segs | 1, false, target);
			break;
		case 3:	// another epoch, SYN or not, or an RTS
			h.data(op & 0x40 ? other : epoch, op & 0x10, seq,
			       op & 0x20 ? 0 : segs, false, target);
			break;
		case 4:	// the timer fires
			h.timer();
			break;
		case 5:	// time passes
			h.now += rd.get(2);
			break;
		case 6:	// a FIN disowns the followed epoch
			if (eqds_epoch_fin(&h.guard, h.rx.epoch, op & 0x10 ? other : epoch))
				h.reset(h.rx.epoch);
			break;
		case 7:	// the sender moves on: its next epoch
			epoch = other;
			other = epoch + 1;
			break;
		}
		h.check_ring();
	}
	// Drain: the timer empties the ring.
	for (uint32_t n = 0; n < 4 * EQDS_RX_AHEAD && h.rx.nheld; n++) {
		FUZZ_CHECK(h.timer_at);
		h.timer();
		h.check_ring();
	}
	FUZZ_CHECK(h.rx.nheld == 0);
	return 0;
}
