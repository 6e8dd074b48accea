// SPDX-License-Identifier: GPL-2.0
// Fuzz target for the sender's state machine (kmod/core/tx.c) and the
// checks in front of it (ctrl_check.c, epoch.c's answer to an old epoch).
//
// The input is a sequence of operations on one sending tunnel: sends of
// packets of any size and segment count, control packets with arbitrary
// flags and fields (decoded from the input through the real codec, so only
// what the wire can carry reaches the state machine), timer runs and
// restarts, with time moving forward by arbitrary steps. After every step:
//  - snd_una <= snd_nxt, at most EQDS_TX_SLOTS seqs in flight, and new
//    packets are numbered consecutively from snd_nxt;
//  - credit never exceeds the window, and a send spends exactly its cost
//    (eqds_tx_cost: bytes and framing per segment, at most a window), from
//    the credit held or, for a small packet, borrowed: debt stays within
//    the overdraft, and there is no credit while there is debt;
//  - a control packet the checks refuse changes nothing; an accepted ack
//    never passes snd_nxt; a retransmission asked for is in flight, and the
//    further holes of a NACK lie in the 64 seqs after it;
//  - the RTS backoff stays bounded, and the timer's deadline is not in the
//    past once the timer has run.
#include <cstdint>
#include <cstring>

#include "ctrl_check.h"
#include "epoch.h"
#include "fuzz_check.h"
#include "fuzz_ctrl.h"
#include "fuzz_reader.h"
#include "seq.h"
#include "tx.h"
#include "wire.h"

namespace {

constexpr u32 kQuantum = 1536;

bool same_tx(const struct eqds_tx &a, const struct eqds_tx &b)
{
	return a.epoch == b.epoch && a.snd_una == b.snd_una &&
	       a.snd_nxt == b.snd_nxt && a.confirmed == b.confirmed &&
	       a.credit.credit == b.credit.credit &&
	       a.credit.pull_hi == b.credit.pull_hi;
}

void check_invariants(const struct eqds_tx &tx)
{
	FUZZ_CHECK(!eqds_seq_after(tx.snd_una, tx.snd_nxt));
	FUZZ_CHECK(eqds_tx_inflight(&tx) <= EQDS_TX_SLOTS);
	FUZZ_CHECK(tx.credit.credit <= tx.credit.window);
	FUZZ_CHECK(tx.credit.debt <= tx.credit.overdraft);
	FUZZ_CHECK(!tx.credit.debt || !tx.credit.credit);
	FUZZ_CHECK(tx.rts_backoff <= EQDS_RTS_MAX_BACKOFF);
	FUZZ_CHECK(tx.epoch != 0);
}

// A control packet from the input, through the codec: encode what the
// fields say, keep it only if the decoder accepts the bytes.
bool ctrl_from(struct fuzz_reader &rd, const struct eqds_tx &tx,
	       struct eqds_pkt *out)
{
	struct eqds_pkt p;
	u8 how = (u8)rd.get(1);

	fuzz_ctrl_init(&p, (u8)rd.get(1));
	// Mostly this tunnel's epoch and numbers near its own, or nothing
	// would get past the epoch check and the window.
	p.epoch = how & 1 ? (u32)rd.get(4) : tx.epoch;
	p.ctrl.ack = how & 2 ? (u32)rd.get(4) : tx.snd_una + (u32)rd.get(1);
	p.ctrl.pull_no = how & 4 ? (u32)rd.get(4) : tx.credit.pull_hi + (u32)rd.get(1);
	p.ctrl.quantum = (u16)(how & 8 ? rd.get(2) : kQuantum >> EQDS_QUANTUM_SHIFT);
	p.ctrl.busy_us = (u16)rd.get(2);
	p.ctrl.sack = rd.get(8);
	return fuzz_ctrl_codec(&p, out);
}

void on_ctrl(struct eqds_tx &tx, const struct eqds_pkt &p, u64 now)
{
	struct eqds_tx_actions act;
	struct eqds_tx before = tx;
	u32 inflight = eqds_tx_inflight(&tx);

	if (eqds_tx_ctrl_verdict(&tx, &p) != EQDS_CTRL_OK) {
		// The glue drops it: nothing to check but that the checks hold.
		if ((p.flags & EQDS_F_ACK) && p.epoch == tx.epoch &&
		    eqds_seq_after(p.ctrl.ack, tx.snd_nxt))
			FUZZ_CHECK(eqds_tx_ctrl_verdict(&tx, &p) == EQDS_CTRL_BAD_ACK);
		return;
	}
	eqds_tx_ctrl(&tx, &p, now, &act);
	if (act.restart) {
		FUZZ_CHECK(p.flags & EQDS_F_RST);
		FUZZ_CHECK(same_tx(before, tx));
		return;
	}
	if (act.acked) {
		FUZZ_CHECK(eqds_seq_after(act.acked_to, before.snd_una));
		FUZZ_CHECK(!eqds_seq_after(act.acked_to, tx.snd_nxt));
		FUZZ_CHECK(tx.snd_una == act.acked_to);
	}
	if (act.retransmit) {
		FUZZ_CHECK(p.flags & EQDS_F_NACK);
		FUZZ_CHECK(eqds_seq_in_window(act.retransmit_seq, before.snd_una,
					      inflight));
		for (u32 off = 0; off < 200; off++) {
			u32 s = act.retransmit_seq - 100 + off;

			if (eqds_tx_nack_hole(&act, s))
				FUZZ_CHECK(s - act.retransmit_seq - 1 < 64);
		}
	}
	// What a pull adds stays within the window; it may repay debt too.
	FUZZ_CHECK(act.credit_gained <= tx.credit.window + before.credit.debt);
	FUZZ_CHECK(act.credit_gained == 0 ||
		   act.credit_gained == (tx.credit.credit - before.credit.credit) +
		   (before.credit.debt - tx.credit.debt));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_reader rd = { data, size };
	struct eqds_ratelimit answer = {};
	struct eqds_tx tx;
	u32 window = (u32)(rd.get(2) % 600 + 1) * kQuantum;
	u32 epoch = (u32)rd.get(4) | 1;
	bool burst = rd.get(1) & 1;
	u64 now = rd.get(4);
	u64 queued = 0;

	eqds_tx_init(&tx, epoch, window, kQuantum, burst, 10000000, now);
	eqds_tx_set_overdraft(&tx, (u32)rd.get(2) % (4 * kQuantum));
	check_invariants(tx);
	for (int steps = 0; steps < 4096 && !rd.empty(); steps++) {
		u8 op = (u8)rd.get(1);
		struct eqds_pkt p;

		now += rd.get(op & 0x80 ? 3 : 1);
		switch (op & 7) {
		case 0:
		case 1: {	// send a packet of bytes covering nsegs seqs
			u32 nsegs = (u32)rd.get(1) % EQDS_MAX_SEGS + 1;
			u32 bytes = (u32)rd.get(2) % (nsegs * 1600) + 1;
			u32 nxt = tx.snd_nxt, credit = tx.credit.credit, seq = 0;
			u32 debt = tx.credit.debt, cost = eqds_tx_cost(&tx, bytes, nsegs);
			u64 borrowed = tx.stats.borrowed;
			bool rtx = op & 8;

			if (eqds_tx_send(&tx, bytes, nsegs, rtx, now, &seq)) {
				// credit - debt falls by the cost, borrowed or not.
				FUZZ_CHECK((s64)credit - debt - ((s64)tx.credit.credit -
					   tx.credit.debt) == cost);
				if (tx.stats.borrowed != borrowed)
					FUZZ_CHECK(nsegs == 1 && cost <= EQDS_TX_SMALL_BYTES &&
						   cost > credit && now >= tx.busy_until_ns);
				else
					FUZZ_CHECK(tx.credit.debt == debt);
				if (!rtx) {
					FUZZ_CHECK(seq == nxt);
					FUZZ_CHECK(tx.snd_nxt == nxt + nsegs);
				}
			} else {
				FUZZ_CHECK(tx.credit.credit == credit && tx.credit.debt == debt);
				FUZZ_CHECK(tx.snd_nxt == nxt);
			}
			break;
		}
		case 2:
		case 3:
			if (ctrl_from(rd, tx, &p))
				on_ctrl(tx, p, now);
			break;
		case 4: {	// the timer, with some data queued
			struct eqds_tx_actions act;

			queued = rd.get(3);
			eqds_tx_timer(&tx, now, queued, &act);
			if (act.retransmit)
				FUZZ_CHECK(act.retransmit_seq == tx.snd_una);
			u64 d = eqds_tx_deadline(&tx, queued);
			FUZZ_CHECK(d == 0 || d > now);
			break;
		}
		case 5: {	// a restart after an RST
			u32 overdraft = tx.credit.overdraft;

			eqds_tx_restart(&tx, now, (u32)rd.get(4));
			FUZZ_CHECK(tx.credit.debt == 0 && tx.credit.overdraft == overdraft);
			FUZZ_CHECK(tx.snd_una == tx.snd_nxt);
			FUZZ_CHECK(!tx.confirmed);
			break;
		}
		case 6: {	// a control packet for some epoch: disown it?
			struct eqds_pkt fin;
			u8 buf[EQDS_MAX_HLEN];

			if (!ctrl_from(rd, tx, &p) ||
			    !eqds_epoch_answer(&answer, &tx, &p, now, &fin))
				break;
			FUZZ_CHECK(p.epoch != tx.epoch && !tx.confirmed);
			FUZZ_CHECK(fin.epoch == p.epoch && (fin.flags & EQDS_F_FIN));
			FUZZ_CHECK(eqds_encode(buf, sizeof(buf), &fin) > 0);
			break;
		}
		default: {	// the pull target for some queue: at most a window
			u32 q = tx.credit.quantum ? tx.credit.quantum : 1;

			u16 pt = eqds_tx_pull_target(&tx, rd.get(4), now);

			FUZZ_CHECK((u16)(pt - (u16)tx.credit.pull_hi) <=
				   tx.credit.window / q + 1);
			break;
		}
		}
		check_invariants(tx);
	}
	return 0;
}
