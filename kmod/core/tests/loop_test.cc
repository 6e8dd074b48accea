// SPDX-License-Identifier: GPL-2.0
// End to end in memory: senders (eqds_tx) and one receiver (eqds_rx per
// tunnel, one pull scheduler) over a simulated network that loses,
// reorders and duplicates data and control packets alike. Every packet is
// encoded to bytes with eqds_encode() and decoded with eqds_decode() on
// arrival. The glue around the core is the minimum the kernel glue does:
// at the sender, the core's sending queue (txq.h) decides and the glue
// keeps app ids where the module keeps sk_buffs; at the receiver, the
// kernel's decisions (core/rxq.h: epochs, release, the ACK and NACK
// plans, the timer, acknowledging every packet) around a held ring, and
// the pacer's pulls (grant.h), woken by demand and re-armed by its runs
// with the module's timer floor, as the module's are.
//
// Checked throughout: no packet goes up twice; in-order delivery except for
// packets delivered late after their hole was given up on; the sender's
// credit never exceeds the window and every byte it sends was granted by a
// pull (credit conservation: sent == gained - held, gained + refused ==
// pulls seen * quantum); the receiver pulls no faster than its link rate.
// At the end: every packet went up exactly once or was explicitly given up
// on by the receiver, and the senders are idle with nothing in flight.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <queue>
#include <random>
#include <set>
#include <vector>

#include "grant.h"
#include "pacer.h"
#include "rx.h"
#include "rxq.h"
#include "seq.h"
#include "tx.h"
#include "txq.h"
#include "wire.h"

namespace {

constexpr u64 US = 1000;
constexpr u64 MS = 1000 * US;
constexpr u32 Q = 4096;			// pull quantum, bytes
constexpr u32 WINQ = 32;		// window, quanta
constexpr u32 WIN = WINQ * Q;
constexpr u32 MTU = 1500;		// bytes charged per seq
constexpr u64 RATE = 10000000000ull;	// receiver link, 10 Gb/s
constexpr u32 RTO = 200 * US;

struct params {
	u32 senders = 2;
	u32 packets = 10000;		// per sender
	double loss_data = 0.03;
	double loss_ctrl = 0.03;
	double dup = 0.01;
	u64 delay = 5 * US;
	u64 jitter = 15 * US;		// uniform extra delay: reordering
	u64 reorder_tmo = 300 * US;
	u32 lose_first = 0;		// frames lost before any random loss
	u64 reset_at = 0;		// receiver forgets sender 0 (0: never)
	u64 pulls_lost_from = 0;	// every pull sent in [from, to) is lost
	u64 pulls_lost_to = 0;
	u32 seed = 1;
};

struct frame {
	u64 at;
	u64 order;
	u32 sender;
	bool to_rx;
	std::vector<u8> bytes;

	bool operator>(const frame &o) const
	{
		return at != o.at ? at > o.at : order > o.order;
	}
};

struct sim;

// One sender's glue: a tunnel to the receiver. One class queue of app
// ids; the core's ring of kept packets and, slot for slot, their app ids.
struct sender {
	u32 id;
	struct eqds_txq q;
	std::deque<u32> newq;		// app ids waiting
	std::vector<struct eqds_txq_desc> ring =
		std::vector<struct eqds_txq_desc>(EQDS_TXQ_RING_MAX);
	std::vector<u32> kept = std::vector<u32>(EQDS_TXQ_RING_MAX);
	u64 gained = 0, charged = 0;	// credit bytes, this epoch
	std::set<u32> inflight_at_restart;	// app ids
	std::map<u32, u32> segs;	// app -> nsegs
};

// The receiver's per-sender tunnel: the core's state, the held ring.
struct tunnel {
	struct eqds_rx rx;
	struct eqds_epoch_guard guard;
	struct held_slot {
		bool used;
		u32 app, nsegs;
	} held[EQDS_RX_AHEAD];
	u8 path = 0;
	u64 timer_at = 0;		// 0: not armed
	u64 pulled_bytes = 0;
	u64 nacks = 0, skipped = 0;	// the plans' counts (eqds_rxq_commit())
	u64 gave_up = 0;		// seqs the releases skipped, counted here
};

struct sim {
	params p;
	std::mt19937_64 rng;
	std::priority_queue<frame, std::vector<frame>, std::greater<frame>> net;
	u64 order = 0, now = 0;
	std::vector<sender> tx;
	std::vector<tunnel> rx;
	struct eqds_sched sched;
	bool pacer_armed = false;		// the pacer's timer, due at pacer_at
	u64 pacer_at = 0;
	std::vector<u32> up;			// times each app went up
	std::vector<std::set<u32>> given_up;	// per sender: seqs, this epoch
	std::vector<std::map<u32, u32>> app_of;	// per sender: seq -> app
	std::set<u32> given_up_apps;
	std::vector<u32> last_in_order;
	std::vector<bool> any_in_order;
	u64 pulls_total = 0;
	u64 frames = 0, dropped = 0;

	explicit sim(const params &pp) : p(pp), rng(pp.seed)
	{
		tx.resize(p.senders);
		rx.resize(p.senders);
		given_up.resize(p.senders);
		app_of.resize(p.senders);
		last_in_order.resize(p.senders);
		any_in_order.resize(p.senders);
		up.resize((size_t)p.senders * p.packets);
		eqds_sched_init(&sched, RATE, Q, 16 * Q, 0);
		for (u32 s = 0; s < p.senders; s++) {
			sender &x = tx[s];

			x.id = s;
			memset(&rx[s].rx, 0, sizeof(rx[s].rx));
			reset_receiver(s);
			eqds_txq_init(&x.q, 0x1000 + 77 * s, WIN, Q, false, RTO, 0, 0);
			eqds_txq_ring_move(&x.q, x.ring.data(), (u32)x.ring.size(),
					   nullptr, nullptr);
			for (u32 i = 0; i < p.packets; i++) {
				u32 app = s * p.packets + i;

				x.newq.push_back(app);
				x.segs[app] = 1 + (u32)(rng() % 3);
				EXPECT_TRUE(eqds_txq_enqueue(&x.q, 0, x.segs[app] * MTU,
							     x.segs[app]));
			}
		}
	}

	bool chance(double pr)
	{
		return std::uniform_real_distribution<double>(0, 1)(rng) < pr;
	}

	void emit(u32 s, bool to_rx, const struct eqds_pkt &pkt, u32 app)
	{
		std::vector<u8> b(EQDS_MAX_HLEN + 24);
		int n = eqds_encode(b.data(), (u32)b.size(), &pkt);

		ASSERT_GT(n, 0) << eqds_decode_err_name(n);
		b.resize((size_t)n + pkt.payload_len);
		if (pkt.payload_len) {
			b[(size_t)n] = 0x45;	// looks like IPv4
			eqds_put_be32(&b[(size_t)n + 20], app);
		}
		frames++;
		double loss = pkt.type == EQDS_TYPE_DATA ? p.loss_data : p.loss_ctrl;
		int copies = chance(loss) ? 0 : chance(p.dup) ? 2 : 1;

		if (frames <= p.lose_first)
			copies = 0;
		if (pkt.type != EQDS_TYPE_DATA && (pkt.flags & EQDS_F_PULL) &&
		    now >= p.pulls_lost_from && now < p.pulls_lost_to)
			copies = 0;

		if (!copies)
			dropped++;
		for (int i = 0; i < copies; i++)
			net.push({ now + p.delay + rng() % (p.jitter + 1), order++,
				   s, to_rx, b });
	}

	// ---- sender glue ----

	void send_data(sender &x, const struct eqds_txq_step &st, u32 app)
	{
		struct eqds_pkt pkt;

		eqds_txq_step_hdr(&st, EQDS_NP_IPV4, 24, &pkt);
		if (st.kind != EQDS_TXQ_RTS)
			x.charged += eqds_tx_cost(&x.q.tx, st.wire_bytes, st.nsegs);
		emit(x.id, true, pkt, app);
	}

	void check_credit(const sender &x)
	{
		const struct eqds_credit &c = x.q.tx.credit;

		ASSERT_LE(c.credit, c.window);
		ASSERT_EQ(x.charged + c.credit, x.gained);
		ASSERT_EQ(x.gained + c.refused_bytes, (u64)c.pull_hi * Q);
		if (rx[x.id].rx.epoch == x.q.tx.epoch) {
			ASSERT_TRUE(eqds_seq_before_eq(c.pull_hi,
						       rx[x.id].rx.pulls.pull_no));
		}
	}

	// The core's pump, step by step.
	void pump(sender &x)
	{
		struct eqds_txq_desc heads[EQDS_TXQ_NCLASSES] = {};
		struct eqds_txq_pump pp;
		struct eqds_txq_step st;

		eqds_txq_pump_begin(&pp, now);
		for (;;) {
			if (!x.newq.empty()) {
				u32 n = x.segs[x.newq.front()];

				heads[0] = { n * MTU, 0, 0, (u8)n, 0 };
			}
			u8 kind = eqds_txq_pump_next(&x.q, &pp, heads, &st);

			if (kind == EQDS_TXQ_END)
				break;
			if (kind == EQDS_TXQ_NEW) {
				u32 app = x.newq.front();

				x.newq.pop_front();
				eqds_txq_commit(&x.q, &pp, &st);
				ASSERT_EQ(eqds_txq_ring_need(&x.q, &st), 0u);
				x.kept[eqds_txq_keep(&x.q, &st)] = app;
				app_of[x.id][st.seq] = app;
				send_data(x, st, app);
			} else {
				eqds_txq_commit(&x.q, &pp, &st);
				send_data(x, st, kind == EQDS_TXQ_RTX ? x.kept[st.slot] : 0);
			}
		}
		eqds_txq_pump_end(&x.q, &pp);
		check_credit(x);
	}

	// What went back to the queue at a restart goes up at most twice, and
	// what the old epoch gave up on stays given up on.
	void requeued(sender &x, struct eqds_txq_cursor *cur)
	{
		struct eqds_txq_desc d;
		u32 slot;

		while (eqds_txq_requeue_next(&x.q, cur, &slot, &d)) {
			x.newq.push_front(x.kept[slot]);
			x.inflight_at_restart.insert(x.kept[slot]);
		}
		for (u32 seq : given_up[x.id]) {
			auto it = app_of[x.id].find(seq);

			if (it != app_of[x.id].end())
				given_up_apps.insert(it->second);
		}
		x.gained = x.charged = 0;
		app_of[x.id].clear();
		given_up[x.id].clear();
		any_in_order[x.id] = false;
	}

	void tx_ctrl(sender &x, const struct eqds_pkt &pkt)
	{
		struct eqds_tx_actions act;
		struct eqds_txq_cursor cur;
		struct eqds_pkt fin;
		u32 una = x.q.tx.snd_una, slot;

		memset(&fin, 0, sizeof(fin));
		// A FIN disowning an old epoch is not modelled here: not sent.
		if (eqds_txq_ctrl(&x.q, &pkt, now, &act, &cur, &fin) != EQDS_CTRL_OK) {
			if (act.pump_now)
				pump(x);
			return;
		}
		x.gained += act.credit_gained;
		if (act.restart) {
			eqds_txq_restart(&x.q, now, x.q.tx.epoch + 1000, &cur);
			requeued(x, &cur);
		} else if (act.acked) {
			ASSERT_TRUE(eqds_seq_after(act.acked_to, una));
			while (eqds_txq_acked_next(&x.q, &cur, &slot))
				;
		}
		if (act.pump_now)
			pump(x);
	}

	void tx_timer(sender &x)
	{
		struct eqds_tx_actions act;

		eqds_txq_timer(&x.q, now, &act);
		pump(x);
	}

	// ---- receiver glue ----

	// The receiver's policy: every data packet acknowledged at once.
	struct eqds_rxq_cfg rxq_cfg() const
	{
		struct eqds_rxq_cfg c = eqds_rxq_defaults;

		c.reorder_timeout_ns = p.reorder_tmo;
		c.ack_every = 1;
		return c;
	}

	void send_ctrl(u32 s, u32 epoch, const struct eqds_rxq_ctrl &m)
	{
		struct eqds_pkt pkt;

		eqds_rxq_ctrl_pkt(&m, epoch, &pkt);
		emit(s, false, pkt, 0);
	}

	// Under the lock, then after it: what the plan says.
	void apply(u32 s, const struct eqds_rxq_plan &pl)
	{
		tunnel &t = rx[s];
		u64 when = eqds_rxq_commit(&pl, &t.path, &t.nacks, &t.skipped);

		ASSERT_EQ(t.skipped, t.gave_up);
		if (when && (!t.timer_at || when < t.timer_at))
			t.timer_at = when;
		if (pl.send)
			send_ctrl(s, pl.epoch, pl.ack);
		for (u32 i = 0; i < pl.nnacks; i++)
			send_ctrl(s, pl.epoch, pl.nack[i]);
	}

	void send_rst(u32 s, u32 epoch)
	{
		struct eqds_pkt pkt;

		eqds_rxq_rst_pkt(epoch, &pkt);
		emit(s, false, pkt, 0);
	}

	void go_up(u32 s, u32 app)
	{
		ASSERT_LT(app, up.size());
		up[app]++;
		if (tx[s].inflight_at_restart.count(app)) {
			ASSERT_LE(up[app], 2u) << app;
		} else {
			ASSERT_EQ(up[app], 1u) << app;
		}
	}

	void in_order(u32 s, u32 seq)
	{
		if (any_in_order[s]) {
			ASSERT_TRUE(eqds_seq_after(seq, last_in_order[s]));
		}
		any_in_order[s] = true;
		last_in_order[s] = seq;
	}

	void release(u32 s, bool timer, struct eqds_rxq_plan *pl)
	{
		tunnel &t = rx[s];
		const struct eqds_rxq_cfg cfg = rxq_cfg();
		u32 seq;

		for (;;) {
			u32 from = t.rx.rcv_nxt;

			if (!eqds_rxq_release(&t.rx, &cfg, now, pl, &seq))
				break;
			for (u32 g = from; g != seq; g++) {
				given_up[s].insert(g);
				t.gave_up++;
			}
			tunnel::held_slot &h = t.held[eqds_rx_held_slot(seq)];

			ASSERT_TRUE(h.used);
			h.used = false;
			in_order(s, seq);
			go_up(s, h.app);
		}
		eqds_rxq_done(&t.rx, &cfg, now, timer, pl);
	}

	void rx_data(u32 s, const struct eqds_pkt &pkt, const std::vector<u8> &b)
	{
		tunnel &t = rx[s];
		struct eqds_rxq_plan pl;

		eqds_rxq_plan_init(&pl, t.path);
		switch (eqds_rxq_admit(&t.rx, &t.guard, pkt.epoch,
				       pkt.flags & EQDS_F_SYN, now, &pl)) {
		case EQDS_RXQ_TAKE:
			break;
		case EQDS_RXQ_BEGIN:
			eqds_sched_deactivate(&sched, &t.rx.asl);
			eqds_rx_init(&t.rx, pkt.epoch, WINQ, 1);
			memset(t.held, 0, sizeof(t.held));
			eqds_rxq_begin(&t.rx, &t.guard, &pl);
			break;
		case EQDS_RXQ_RST:
			// Unknown tunnel: the sender must restart.
			send_rst(s, pkt.epoch);
			return;
		default:
			apply(s, pl);
			return;
		}
		// rx_tunnel.c's demand(): a sender with no demand stays on the
		// list until the pacer's run drops it.
		if (eqds_rxq_demand(&sched, &t.rx, pkt.data.pull_target,
				    pkt.flags & EQDS_F_RTS) &&
		    eqds_pacer_wake(&sched, &pacer_armed, now))
			pacer_at = now;
		if (!(pkt.flags & EQDS_F_RTS)) {
			u32 seq = pkt.data.seq, n = pkt.data.seg_count;
			u32 app = eqds_get_be32(&b[(size_t)pkt.hlen + 20]);
			enum eqds_rx_verdict v =
				eqds_rxq_data(&t.rx, seq, n, pkt.flags & EQDS_F_RTX,
					      now, &pl);

			ASSERT_EQ(app_of[s].count(seq), 1u);
			ASSERT_EQ(app_of[s][seq], app);
			switch (v) {
			case EQDS_RX_DELIVER:
				in_order(s, seq);
				go_up(s, app);
				break;
			case EQDS_RX_LATE:
				go_up(s, app);
				break;
			case EQDS_RX_HOLD:
				ASSERT_FALSE(t.held[eqds_rx_held_slot(seq)].used);
				t.held[eqds_rx_held_slot(seq)] = { true, app, n };
				break;
			case EQDS_RX_DUP:
				break;
			default:
				FAIL() << "verdict " << v << " for seq " << seq;
			}
			release(s, false, &pl);
		}
		apply(s, pl);
	}

	void rx_timers()
	{
		struct eqds_pacer_plan plan;

		for (u32 s = 0; s < p.senders; s++) {
			tunnel &t = rx[s];
			struct eqds_rxq_plan pl;

			if (!t.timer_at || now < t.timer_at)
				continue;
			t.timer_at = 0;
			eqds_rxq_plan_init(&pl, t.path);
			release(s, true, &pl);
			apply(s, pl);
		}
		// pull.c's pacer_fn(), with the module's timer floor.
		if (!pacer_armed || now < pacer_at)
			return;
		eqds_pacer_run(&sched, now, EQDS_PACER_MIN_NS, &plan);
		if (plan.rearm)
			pacer_at = plan.next_ns;
		else
			pacer_armed = false;
		for (u32 i = 0; i < plan.ngrants; i++) {
			const struct eqds_grant &g = plan.grant[i];
			struct eqds_pkt pkt;
			u32 s = 0;

			while (&rx[s].rx != g.rx)
				s++;
			tunnel &t = rx[s];

			ASSERT_GE(g.quanta, 1u);
			t.pulled_bytes += (u64)g.quanta * Q;
			pulls_total += (u64)g.quanta * Q;
			// This receiver advertises no busy time, in acks as in pulls.
			ASSERT_TRUE(eqds_grant_pull(&t.rx, &g, Q, 0, &t.path, &pkt));
			emit(s, false, pkt, 0);
		}
		// Pacing: never more than the link rate plus the burst bound.
		ASSERT_LE(pulls_total, RATE / 1000 * now / 8000000 + 16 * Q);
	}

	void reset_receiver(u32 s)
	{
		tunnel &t = rx[s];

		eqds_sched_deactivate(&sched, &t.rx.asl);
		memset(t.held, 0, sizeof(t.held));
		eqds_rx_init(&t.rx, 0, WINQ, 1);
		eqds_epoch_guard_init(&t.guard);
		t.timer_at = 0;
	}

	// ---- the loop ----

	bool idle() const
	{
		for (const sender &x : tx)
			if (!x.newq.empty() || eqds_tx_inflight(&x.q.tx))
				return false;
		return true;
	}

	void deliver(const frame &f)
	{
		struct eqds_pkt pkt;
		int n = eqds_decode(f.bytes.data(), (u32)f.bytes.size(), &pkt);

		ASSERT_GT(n, 0) << eqds_decode_err_name(n);
		if (f.to_rx) {
			ASSERT_EQ(pkt.type, EQDS_TYPE_DATA);
			rx_data(f.sender, pkt, f.bytes);
		} else {
			ASSERT_EQ(pkt.type, EQDS_TYPE_CTRL);
			tx_ctrl(tx[f.sender], pkt);
		}
	}

	// Until the senders are idle (everything sent and acknowledged), and
	// then a little longer so the last pulls and acks settle.
	u64 idle_at = 0;

	void run(u64 limit, u64 settle = 10 * MS)
	{
		bool reset_done = false;

		for (sender &x : tx)
			pump(x);	// RTS mode: ask before sending
		for (now = 0; now < limit; now += 1 * US) {
			if (!idle())
				idle_at = 0;
			else if (!idle_at)
				idle_at = now;
			else if (now - idle_at >= settle)
				break;
			while (!net.empty() && net.top().at <= now) {
				frame f = net.top();

				net.pop();
				deliver(f);
				if (::testing::Test::HasFatalFailure())
					return;
			}
			if (p.reset_at && now >= p.reset_at && !reset_done) {
				reset_receiver(0);
				reset_done = true;
			}
			rx_timers();
			for (sender &x : tx)
				tx_timer(x);
			if (::testing::Test::HasFatalFailure())
				return;
		}
	}

	void summary(const char *name) const
	{
		u64 refused = 0, nacks = 0, tmo = 0, rts = 0, stale = 0,
		    skipped = 0, late = 0, held = 0, dups = 0, bad = 0;

		for (const sender &x : tx) {
			refused += x.q.tx.credit.refused_bytes;
			nacks += x.q.tx.stats.nacks;
			tmo += x.q.tx.stats.timeouts;
			rts += x.q.tx.stats.rts_sent;
			stale += x.q.tx.stats.stale_ctrl;
			bad += x.q.tx.stats.bad_acks;
		}
		for (const tunnel &t : rx) {
			skipped += t.rx.stats.skipped;
			late += t.rx.stats.late;
			held += t.rx.stats.held;
			dups += t.rx.stats.dups;
		}
		std::printf("%s seed %u: idle at %.2f ms, %llu frames (%llu dropped), "
			    "held %llu dups %llu skipped %llu late %llu, nacks "
			    "%llu timeouts %llu rts %llu stale %llu bad_acks "
			    "%llu, refused %llu B\n",
			    name, p.seed, idle_at / 1e6, (unsigned long long)frames,
			    (unsigned long long)dropped, (unsigned long long)held,
			    (unsigned long long)dups, (unsigned long long)skipped,
			    (unsigned long long)late, (unsigned long long)nacks,
			    (unsigned long long)tmo, (unsigned long long)rts,
			    (unsigned long long)stale, (unsigned long long)bad,
			    (unsigned long long)refused);
	}

	// Every packet went up (once, or twice if it was in flight at a
	// restart) or was given up on by the receiver.
	void check_outcome(u32 *delivered, u32 *lost)
	{
		*delivered = *lost = 0;
		for (u32 s = 0; s < p.senders; s++) {
			for (u32 seq : given_up[s]) {
				auto it = app_of[s].find(seq);

				if (it != app_of[s].end())
					given_up_apps.insert(it->second);
			}
		}
		for (u32 app = 0; app < up.size(); app++) {
			if (up[app])
				(*delivered)++;
			else if (given_up_apps.count(app))
				(*lost)++;
			else
				ADD_FAILURE() << "app " << app << " neither up nor given up";
		}
	}
};

} // namespace

TEST(Loop, LossyReorderingNetwork)
{
	for (u32 seed = 1; seed <= 3; seed++) {
		params p;

		p.seed = seed;
		sim s(p);
		s.run(2000 * MS);
		s.summary("lossy");
		if (HasFatalFailure())
			return;
		ASSERT_TRUE(s.idle()) << "seed " << seed << " stuck at " << s.now;
		u32 delivered, lost;

		s.check_outcome(&delivered, &lost);
		EXPECT_EQ(delivered + lost, p.senders * p.packets);
		// Most losses are repaired before the reorder timeout.
		EXPECT_LT(lost, p.senders * p.packets / 100) << seed;
		for (u32 i = 0; i < p.senders; i++) {
			const struct eqds_tx &tx = s.tx[i].q.tx;
			const struct eqds_rx &rx = s.rx[i].rx;

			EXPECT_EQ(rx.rcv_nxt, tx.snd_nxt);
			EXPECT_EQ(rx.nheld, 0u);
			EXPECT_TRUE(tx.confirmed);
			EXPECT_EQ(tx.stats.restarts, 0u);
			EXPECT_GT(tx.stats.nacks + tx.stats.timeouts, 0u);
			EXPECT_GT(rx.stats.held, 0u);		// it did reorder
			EXPECT_GT(rx.stats.dups, 0u);
			EXPECT_GT(s.rx[i].nacks, 0u);		// holes were NACKed
			EXPECT_FALSE(rx.asl.queued);
		}
		EXPECT_EQ(s.sched.active, 0u);
		// The link was the bottleneck: pulls ran near its rate.
		u64 bytes = 0;

		for (auto &x : s.tx)
			for (auto &kv : x.segs)
				bytes += (u64)kv.second * MTU;
		EXPECT_LT(s.idle_at, bytes * 8 * 1000000000ull / RATE * 3 / 2);
		// Senders with equal weights shared the link: similar pulls.
		EXPECT_NEAR((double)s.rx[0].pulled_bytes,
			    (double)s.rx[1].pulled_bytes,
			    0.1 * (double)s.rx[0].pulled_bytes);
	}
}

// Heavy loss and a reorder timeout shorter than a repair takes: holes are
// given up on, some of their packets go up late, pulls and RTSs are lost.
// Still every packet is accounted for and nothing goes up twice.
TEST(Loop, HeavyLossGivesUpExplicitly)
{
	for (u32 seed = 1; seed <= 2; seed++) {
		params p;

		p.seed = seed;
		p.loss_data = p.loss_ctrl = 0.15;
		p.dup = 0.05;
		p.jitter = 40 * US;
		p.reorder_tmo = 20 * US;
		p.packets = 5000;
		p.lose_first = 2;	// both first RTSs: asked again after an rto
		sim s(p);
		s.run(2000 * MS);
		s.summary("heavy");
		if (HasFatalFailure())
			return;
		ASSERT_TRUE(s.idle()) << "seed " << seed << " stuck at " << s.now;
		u32 delivered, lost;

		s.check_outcome(&delivered, &lost);
		EXPECT_EQ(delivered + lost, p.senders * p.packets);
		EXPECT_GT(lost, 0u);
		u64 skipped = 0, late = 0;

		for (u32 i = 0; i < p.senders; i++) {
			skipped += s.rx[i].rx.stats.skipped;
			late += s.rx[i].rx.stats.late;
			EXPECT_GE(s.tx[i].q.tx.stats.rts_sent, 1u);
			EXPECT_EQ(s.rx[i].rx.rcv_nxt, s.tx[i].q.tx.snd_nxt);
		}
		EXPECT_GT(skipped, 0u);
		EXPECT_GT(late, 0u);
	}
}

TEST(Loop, CleanNetworkDeliversEverythingInOrder)
{
	params p;

	p.loss_data = p.loss_ctrl = p.dup = 0;
	p.jitter = 0;
	sim s(p);
	s.run(1000 * MS);
	s.summary("clean");
	ASSERT_TRUE(s.idle());
	u32 delivered, lost;

	s.check_outcome(&delivered, &lost);
	EXPECT_EQ(delivered, p.senders * p.packets);
	EXPECT_EQ(lost, 0u);
	for (u32 i = 0; i < p.senders; i++) {
		EXPECT_EQ(s.rx[i].rx.stats.held, 0u);
		EXPECT_EQ(s.tx[i].q.tx.stats.timeouts, 0u);
		// Pulls for recent sending after the flow ended: at most a
		// window more than the sender can hold.
		EXPECT_LE(s.tx[i].q.tx.credit.refused_bytes, WIN);
	}
}

// Every pull is lost for 2 ms mid-stream. Demand is absolute, so the
// senders' data stops restating anything new: the receiver has pulled up to
// what they asked for and goes idle. Their RTS probes, a timeout later,
// each get a pull beyond the lost ones, which restores all their credit.
TEST(Loop, LostPullsRecoveredByProbes)
{
	params p;

	p.loss_data = p.loss_ctrl = p.dup = 0;
	p.jitter = 0;
	p.pulls_lost_from = 1 * MS;
	p.pulls_lost_to = 3 * MS;
	sim s(p);
	s.run(1000 * MS);
	s.summary("pull blackout");
	ASSERT_TRUE(s.idle()) << "stuck at " << s.now;
	u32 delivered, lost;

	s.check_outcome(&delivered, &lost);
	EXPECT_EQ(delivered, p.senders * p.packets);
	for (u32 i = 0; i < p.senders; i++) {
		EXPECT_GE(s.tx[i].q.tx.stats.rts_sent, 2u);	// first + probe
		EXPECT_EQ(s.tx[i].q.tx.stats.restarts, 0u);
		EXPECT_EQ(s.tx[i].q.tx.credit.pull_hi, s.rx[i].rx.pulls.pull_no);
	}
	// Nowhere near the run's limit: recovered a few timeouts after.
	EXPECT_LT(s.idle_at, 100 * MS);
}

// The receiver forgets a tunnel mid-stream: the sender is told (RST),
// restarts with a newer epoch and sends what was in flight again. Nothing
// is lost; only packets in flight at the restart may go up twice.
TEST(Loop, ReceiverRestartRecovers)
{
	params p;

	p.reset_at = 3 * MS;
	sim s(p);
	u32 e0 = s.tx[0].q.tx.epoch;

	s.run(2000 * MS);
	s.summary("restart");
	ASSERT_TRUE(s.idle()) << "stuck at " << s.now;
	u32 delivered, lost;

	s.check_outcome(&delivered, &lost);
	EXPECT_EQ(delivered + lost, p.senders * p.packets);
	EXPECT_LT(lost, p.senders * p.packets / 100);
	EXPECT_EQ(s.tx[0].q.tx.stats.restarts, 1u);
	EXPECT_TRUE(eqds_seq_after(s.tx[0].q.tx.epoch, e0));
	EXPECT_GT(s.tx[0].q.tx.stats.stale_ctrl, 0u);	// late RSTs, old acks
	EXPECT_FALSE(s.tx[0].inflight_at_restart.empty());
	EXPECT_EQ(s.tx[1].q.tx.stats.restarts, 0u);
	EXPECT_EQ(s.rx[0].rx.rcv_nxt, s.tx[0].q.tx.snd_nxt);
}
