// SPDX-License-Identifier: GPL-2.0
// Fuzz target for the sending queue model (kmod/core/txq.c) and the pump
// the module, the simulator and the loop test all run.
//
// The input drives one tunnel through a minimal glue that keeps packet ids
// where the module keeps sk_buffs (one FIFO per class, a pointer ring
// beside the core's, grown when the core asks): packets of any class, size
// and segment count offered for admission, pumps whose clones, RTSs and
// ring growth may fail, control packets through the codec (acks, NACKs with
// SACK bitmaps, pulls, RSTs, other epochs), timer runs. After every step:
//  - the glue and the core agree: queue lengths, queued bytes, which ring
//    slots hold a packet; no packet is both waiting and kept, none is lost
//    (every id is waiting, kept, sent without a copy, dropped or acked);
//  - a pump serves retransmissions, then classes from the highest, then at
//    most one RTS and only if nothing else went; each commit spends exactly
//    its cost, numbers new packets consecutively, takes one path id; a skip
//    takes no credit, seq or path id; a pump ends;
//  - the retransmit list holds distinct seqs, at most EQDS_TXQ_RTX_MAX;
//  - every kept packet lies between the oldest unacknowledged and snd_nxt;
//    an ack frees only wholly acknowledged packets;
//  - after a restart every kept packet goes back to its class queue, newest
//    first, and the ring is empty;
//  - the timer followed by a pump (as the glue runs it), run again if that
//    left it due, leaves a deadline in the future, or none.
#include <cstdint>
#include <cstring>
#include <deque>
#include <vector>

#include "fuzz_check.h"
#include "fuzz_ctrl.h"
#include "fuzz_reader.h"
#include "seq.h"
#include "txq.h"
#include "wire.h"

namespace {

constexpr u32 kQuantum = 1536;

struct packet {
	u32 id;
	u32 wire_bytes;
	u32 nsegs;
	u32 seq;	// kept: its first
};

struct glue {
	struct eqds_txq q;
	std::deque<packet> queue[EQDS_TXQ_NCLASSES];
	std::vector<struct eqds_txq_desc> ring;
	std::vector<packet> kept;	// slot for slot; id 0: empty
	std::vector<u8> state;		// per id: 0 waiting, 1 kept, 2 gone
	u64 now = 0;
	u64 deadline = 0;	// from the last pump

	void check()
	{
		u64 bytes = 0;

		for (int c = 0; c < EQDS_TXQ_NCLASSES; c++) {
			FUZZ_CHECK(queue[c].size() == q.qlen[c]);
			for (const packet &k : queue[c]) {
				bytes += k.wire_bytes;
				FUZZ_CHECK(state[k.id] == 0);
			}
		}
		FUZZ_CHECK(bytes == q.queued_bytes);
		FUZZ_CHECK(q.ring_size == ring.size() && q.ring == (ring.empty() ? nullptr : ring.data()));
		for (u32 i = 0; i < q.ring_size; i++) {
			FUZZ_CHECK(!q.ring[i].nsegs == !kept[i].id);
			if (!kept[i].id)
				continue;
			FUZZ_CHECK(state[kept[i].id] == 1);
			FUZZ_CHECK(q.ring[i].nsegs == kept[i].nsegs);
		}
		FUZZ_CHECK(q.nrtx <= EQDS_TXQ_RTX_MAX);
		for (u32 i = 0; i < q.nrtx; i++)
			for (u32 j = i + 1; j < q.nrtx; j++)
				FUZZ_CHECK(q.rtx[i] != q.rtx[j]);
		FUZZ_CHECK(!eqds_seq_after(q.tx.snd_una, q.tx.snd_nxt));
		FUZZ_CHECK(q.tx.credit.credit <= q.tx.credit.window);
	}

	// Every kept packet starts before snd_nxt and ends after the oldest seq
	// still unacknowledged.
	void check_kept_span()
	{
		for (u32 i = 0; i < q.ring_size; i++) {
			if (!kept[i].id)
				continue;
			u32 first = 0, seq = kept[i].seq;

			FUZZ_CHECK(eqds_txq_find(&q, seq + kept[i].nsegs - 1, &first) == i);
			FUZZ_CHECK(first == seq);
			FUZZ_CHECK(eqds_seq_before(seq, q.tx.snd_nxt));
			FUZZ_CHECK(eqds_seq_after(seq + kept[i].nsegs, q.tx.snd_una));
		}
	}

	void grow(u32 size)
	{
		std::vector<struct eqds_txq_desc> r(size);
		std::vector<packet> k(size);
		std::vector<void *> from(q.ring_size), to(size);

		memset(r.data(), 0, size * sizeof(r[0]));
		for (u32 i = 0; i < q.ring_size; i++)
			from[i] = kept[i].id ? &kept[i] : nullptr;
		eqds_txq_ring_move(&q, r.data(), size, from.data(), to.data());
		for (u32 i = 0; i < size; i++)
			k[i] = to[i] ? *(packet *)to[i] : packet{ 0, 0, 0, 0 };
		ring.swap(r);
		kept.swap(k);
		FUZZ_CHECK(q.ring == ring.data());
	}

	void pump(struct fuzz_reader &rd)
	{
		struct eqds_txq_desc heads[EQDS_TXQ_NCLASSES];
		struct eqds_txq_pump p;
		struct eqds_txq_step st;
		u8 fail = (u8)rd.get(1);	// bits: clone, RTS, ring growth fail
		int last = 0, steps = 0;	// 1 rtx, 2 new, 3 rts
		u32 last_cls = EQDS_TXQ_NCLASSES;
		bool sent = false;

		eqds_txq_pump_begin(&p, now);
		for (;; steps++) {
			FUZZ_CHECK(steps < 100000);
			memset(heads, 0, sizeof(heads));
			for (int c = 0; c < EQDS_TXQ_NCLASSES; c++)
				if (!queue[c].empty())
					heads[c] = { queue[c].front().wire_bytes, 0, 0,
						     (u8)queue[c].front().nsegs, (u8)c };
			u8 kind = eqds_txq_pump_next(&q, &p, heads, &st);
			u32 credit = q.tx.credit.credit, nxt = q.tx.snd_nxt;
			u8 path = q.paths.next;

			if (kind == EQDS_TXQ_END)
				break;
			FUZZ_CHECK(kind >= last);
			last = kind;
			FUZZ_CHECK(kind != EQDS_TXQ_RTS || !sent);
			bool fails = (kind == EQDS_TXQ_RTX && (fail & 1) && rd.get(1) & 1) ||
				     (kind == EQDS_TXQ_RTS && (fail & 2));

			if (fails) {
				u8 nrtx = q.nrtx;

				eqds_txq_skip(&q, &p, &st);
				FUZZ_CHECK(q.tx.credit.credit == credit && q.tx.snd_nxt == nxt &&
					   q.paths.next == path);
				if (kind == EQDS_TXQ_RTX)
					FUZZ_CHECK(q.nrtx == nrtx - 1);
				continue;
			}
			if (kind == EQDS_TXQ_RTX) {
				FUZZ_CHECK(kept[st.slot].id && kept[st.slot].nsegs == st.nsegs);
				FUZZ_CHECK(eqds_seq_in_window(st.rtx_seq, st.seq, st.nsegs));
			} else if (kind == EQDS_TXQ_NEW) {
				FUZZ_CHECK(st.cls <= last_cls);
				last_cls = st.cls;
			}
			eqds_txq_commit(&q, &p, &st);
			FUZZ_CHECK(q.paths.next == (u8)(st.path + 1));
			FUZZ_CHECK(st.path == path || q.paths.nbad);
			FUZZ_CHECK(!eqds_paths_is_bad(&q.paths, st.path));
			FUZZ_CHECK(st.epoch == q.tx.epoch);
			if (kind == EQDS_TXQ_RTS) {
				FUZZ_CHECK(credit == q.tx.credit.credit && st.seq == nxt);
				FUZZ_CHECK(st.flags & EQDS_F_RTS);
				continue;
			}
			sent = true;
			FUZZ_CHECK(q.tx.credit.credit == credit -
				   eqds_tx_cost(&q.tx, st.wire_bytes, st.nsegs));
			if (kind == EQDS_TXQ_RTX) {
				FUZZ_CHECK(q.tx.snd_nxt == nxt && (st.flags & EQDS_F_RTX));
				continue;
			}
			packet k = queue[st.cls].front();

			queue[st.cls].pop_front();
			FUZZ_CHECK(st.seq == nxt && q.tx.snd_nxt == nxt + k.nsegs);
			FUZZ_CHECK(st.wire_bytes == k.wire_bytes && st.nsegs == k.nsegs);
			u32 need = eqds_txq_ring_need(&q, &st);

			if (need > EQDS_TXQ_RING_MAX || (need && (fail & 4))) {
				state[k.id] = 2;	// sent without a copy
				continue;
			}
			if (need) {
				FUZZ_CHECK(need > q.ring_size && !(need & (need - 1)));
				grow(need);
			}
			u32 slot = eqds_txq_keep(&q, &st);

			FUZZ_CHECK(!kept[slot].id);
			k.seq = st.seq;
			kept[slot] = k;
			state[k.id] = 1;
		}
		deadline = eqds_txq_pump_end(&q, &p);
		FUZZ_CHECK(!q.rts_due);
	}

	void ctrl(const struct eqds_pkt &pkt, u32 clock)
	{
		struct eqds_tx_actions act;
		struct eqds_txq_cursor cur;
		struct eqds_txq_desc d;
		struct eqds_pkt fin;
		u32 una = q.tx.snd_una, slot;

		memset(&fin, 0, sizeof(fin));
		if (eqds_txq_ctrl(&q, &pkt, now, &act, &cur, &fin) != EQDS_CTRL_OK) {
			FUZZ_CHECK(!act.restart && !act.acked && !act.retransmit);
			FUZZ_CHECK(act.pump_now == (fin.type != 0));
			return;
		}
		FUZZ_CHECK(act.pump_now);
		if (act.restart) {
			u32 prev = 0, epoch = q.tx.epoch;
			bool any = false;

			// Nothing changed until the glue restarts with its clock.
			FUZZ_CHECK(!act.acked && !act.retransmit && cur.seq == cur.end);
			eqds_txq_restart(&q, now, clock, &cur);
			FUZZ_CHECK(q.tx.epoch != epoch);

			FUZZ_CHECK(q.nrtx == 0 && q.rts_due);
			FUZZ_CHECK(q.tx.snd_una == q.tx.snd_nxt);
			while (eqds_txq_requeue_next(&q, &cur, &slot, &d)) {
				packet k = kept[slot];

				FUZZ_CHECK(k.id && k.nsegs == d.nsegs && k.wire_bytes == d.wire_bytes);
				FUZZ_CHECK(!any || eqds_seq_before(k.seq, prev));
				FUZZ_CHECK(d.seq_lo == (u16)k.seq);
				prev = k.seq;
				any = true;
				kept[slot] = packet{ 0, 0, 0, 0 };
				queue[d.cls].push_front(k);
				state[k.id] = 0;
			}
			for (u32 i = 0; i < q.ring_size; i++)
				FUZZ_CHECK(!q.ring[i].nsegs);
			return;
		}
		while (eqds_txq_acked_next(&q, &cur, &slot)) {
			FUZZ_CHECK(act.acked && kept[slot].id);
			FUZZ_CHECK(eqds_tx_acked(&q.tx, kept[slot].seq, kept[slot].nsegs));
			state[kept[slot].id] = 2;
			kept[slot] = packet{ 0, 0, 0, 0 };
		}
		if (act.acked)
			FUZZ_CHECK(eqds_seq_after(q.tx.snd_una, una));
		check_kept_span();
	}
};

// A control packet from the input through the codec, mostly for this epoch
// and near its numbers.
bool ctrl_from(struct fuzz_reader &rd, const struct eqds_tx &tx, struct eqds_pkt *out)
{
	struct eqds_pkt p;
	u8 how = (u8)rd.get(1);

	fuzz_ctrl_init(&p, (u8)rd.get(1));
	p.epoch = how & 1 ? tx.epoch - (u32)rd.get(1) : tx.epoch;
	p.ctrl.ack = how & 2 ? (u32)rd.get(4) : tx.snd_una + (u32)rd.get(1) % 80;
	p.ctrl.pull_no = tx.credit.pull_hi + (u32)rd.get(1) % 64;
	p.ctrl.quantum = kQuantum >> EQDS_QUANTUM_SHIFT;
	p.ctrl.busy_us = (u16)rd.get(1);
	p.ctrl.sack = rd.get(8);
	/* Options, and a path id a CE echo may name. */
	p.next_proto = (u8)(rd.get(1) & EQDS_CO_ALL);
	p.path_id = (u8)rd.get(1);
	return fuzz_ctrl_codec(&p, out);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_reader rd = { data, size };
	glue g;
	u32 window = (u32)(rd.get(1) % 200 + 1) * kQuantum;
	u32 epoch = (u32)rd.get(4) | 1;
	bool burst = rd.get(1) & 1;
	u32 next_id = 1;

	g.now = rd.get(4);
	g.state.push_back(2);	// id 0: none
	eqds_txq_init(&g.q, epoch, window, kQuantum, burst, 10000000, g.now, (u8)rd.get(1));
	for (int steps = 0; steps < 2048 && !rd.empty(); steps++) {
		u8 op = (u8)rd.get(1);
		struct eqds_pkt p;

		g.now += rd.get(op & 0x80 ? 3 : 1);
		switch (op & 7) {
		case 0:
		case 1: {	// offer a packet to a class
			u32 cls = (op >> 3) & 1;
			u32 nsegs = op & 0x10 ? (u32)rd.get(1) % EQDS_MAX_SEGS + 1 : 1;
			u32 bytes = (u32)rd.get(2) % (nsegs * 1600) + 1;
			struct eqds_txq_limits l = { (u32)rd.get(1) % 64 + 1, (u32)rd.get(1) % 64,
						     (u32)rd.get(1) % 64 };
			// The namespace's and the host's totals, if bit 5 says so.
			struct eqds_txq_totals tot = {};

			if (op & 0x20)
				tot = { rd.get(3), rd.get(3), rd.get(3), rd.get(3) };
			bool over = (tot.ns_limit && tot.ns_bytes + bytes > tot.ns_limit) ||
				    (tot.host_limit && tot.host_bytes + bytes > tot.host_limit);
			enum eqds_txq_admit a = eqds_txq_admit(&g.q, cls, bytes, nsegs, &l, &tot);

			FUZZ_CHECK(a != EQDS_TXQ_DROP_INVALID);
			FUZZ_CHECK((a == EQDS_TXQ_DROP_TOTAL) == over);
			if (a == EQDS_TXQ_DROP_TOTAL)
				break;
			FUZZ_CHECK((a == EQDS_TXQ_DROP) == (g.q.qlen[cls] >= l.queue_limit));
			if (!eqds_txq_admitted(a))
				break;
			FUZZ_CHECK(eqds_txq_enqueue(&g.q, cls, bytes, nsegs));
			g.queue[cls].push_back({ next_id++, bytes, nsegs, 0 });
			g.state.push_back(0);
			break;
		}
		case 2:
		case 3:
			g.pump(rd);
			break;
		case 4:
		case 5:
			if (ctrl_from(rd, g.q.tx, &p))
				g.ctrl(p, (u32)rd.get(4));
			break;
		case 6: {	// the timer
			struct eqds_tx_actions act;
			u8 nrtx = g.q.nrtx;

			eqds_txq_timer(&g.q, g.now, &act);
			if (act.retransmit)
				FUZZ_CHECK(g.q.nrtx <= nrtx + 1);
			// The glue pumps and re-arms. A pump that spent the
			// last credit may make an RTS due at once, but the
			// timer that sends it must not leave one due again.
			g.pump(rd);
			if (g.deadline && g.deadline <= g.now) {
				eqds_txq_timer(&g.q, g.now, &act);
				g.pump(rd);
				FUZZ_CHECK(g.deadline == 0 || g.deadline > g.now);
			}
			break;
		}
		default:	// time passes
			g.now += rd.get(4);
			break;
		}
		g.check();
	}
	return 0;
}
