// SPDX-License-Identifier: GPL-2.0
// Small whole-system scenarios: EQDS hosts running the kernel core over a
// simulated network. They assert invariants and robust properties (credit
// audit clean, flows complete, fairness, bounded queues), never timings.
#include <gtest/gtest.h>

#include <set>

#include "results.h"
#include "scenario.h"

using namespace eqdssim;

namespace {

ScenarioConfig incast(uint32_t senders, uint64_t size)
{
	ScenarioConfig c;

	c.topo.kind = "star";
	c.topo.hosts = senders + 1;
	c.topo.buffer_pkts = 15;
	c.work.kind = "incast";
	c.work.flow_size = size;
	c.duration = 20 * kMs;
	c.warmup = 5 * kMs;
	return c;
}

TEST(Scenario, GreedyIncastSharesFairlyWithoutLoss)
{
	Scenario s(incast(16, 0));

	s.run();
	Results r = compute_results(s);

	EXPECT_EQ(r.throughput_gbps.size(), 16u);
	EXPECT_GE(r.jain, 0.99);
	EXPECT_EQ(r.roles[(size_t)PortRole::kToHost].drops, 0u);
	EXPECT_LE(r.roles[(size_t)PortRole::kToHost].max_queue, 15u);
	// The receiver's link is busy: the 16 flows together fill most of it.
	double sum = 0;

	for (double g : r.throughput_gbps)
		sum += g;
	EXPECT_GT(sum, 8.0);
	EXPECT_LT(sum, 10.0);
	EXPECT_GT(r.audit_checks, 1000u);
	EXPECT_EQ(r.audit_violations, 0u) << r.audit_first;
}

// Turns scaled as the module scales them (pull_turn_us 50): at 10 Gb/s a
// pull carries 4 base turns, 32 packets, which arrive as one train at the
// receiver's port. 16 greedy senders still share fairly with no drop at its
// 15-packet buffer: one train follows another.
TEST(Scenario, GreedyIncastWithScaledTurnsSharesFairlyWithoutLoss)
{
	ScenarioConfig c = incast(16, 0);

	c.eqds.pull_turn = 50 * kUs;
	Scenario s(c);

	s.run();
	Results r = compute_results(s);
	double sum = 0;

	for (double g : r.throughput_gbps)
		sum += g;
	EXPECT_GE(r.jain, 0.99);
	EXPECT_EQ(r.roles[(size_t)PortRole::kToHost].drops, 0u);
	EXPECT_GT(sum, 8.0);
	EXPECT_EQ(r.audit_violations, 0u) << r.audit_first;
	// Whole turns: 32 quanta a pull, against 8 unscaled.
	ASSERT_GT(r.counters.pulls_sent, 0u);
	EXPECT_GT((double)r.counters.pull_quanta_sent / (double)r.counters.pulls_sent, 28.0);
}

// 850 senders pulled alike: no sender may save up credit and spend it in
// step with the others (credit counts framing, core/credit.h). Counted in
// IP bytes, every sender turned its 2.4% of unspent quanta into one packet
// more in the same round of the ASL, every 44 ms, and the 15-packet buffer
// overflowed each time; the run covers the first such round.
TEST(Scenario, LargeIncastSavesNoCreditForALockstepBurst)
{
	ScenarioConfig c = incast(850, 0);

	c.work.start_spread = 1 * kMs;
	c.duration = 60 * kMs;
	c.warmup = 5 * kMs;
	Scenario s(c);

	s.run();
	Results r = compute_results(s);
	const RoleStats &bottleneck = r.roles[(size_t)PortRole::kToHost];

	EXPECT_GE(r.jain, 0.99);
	EXPECT_EQ(bottleneck.drops, 0u);
	EXPECT_LE(bottleneck.max_queue_measured, 8u);
	EXPECT_EQ(r.audit_violations, 0u) << r.audit_first;
}

TEST(Scenario, FiniteIncastCompletesAndGoesQuiet)
{
	ScenarioConfig c = incast(16, 300000);

	c.drain = 500 * kMs;
	Scenario s(c);

	s.run();
	Results r = compute_results(s);

	EXPECT_EQ(r.finished, 16u);
	EXPECT_TRUE(r.quiescent);
	EXPECT_EQ(r.busy_tunnels_at_end, 0u);
	EXPECT_EQ(r.duplicates, 0u);
	EXPECT_EQ(r.audit_violations, 0u) << r.audit_first;
	// Credit in circulation never exceeded what the window allows: held
	// plus in flight plus pulls on the way, at most the window plus the
	// pulls the receiver granted ahead (one window of demand).
	EXPECT_LE(r.max_tunnel_circulation, 2.0);
}

TEST(Scenario, AFlowWhoseLastPacketIsTinyCompletes)
{
	// One payload byte in the last packet: the inner packet must still be
	// a valid IP packet, or the receiver's decoder refuses it forever.
	ScenarioConfig c = incast(4, 3 * Traffic::kMss + 1);

	c.drain = 100 * kMs;
	Scenario s(c);

	s.run();
	Results r = compute_results(s);

	EXPECT_EQ(r.finished, 4u);
	EXPECT_EQ(r.counters.decode_errors, 0u);
	for (const Flow &f : s.traffic().flows())
		EXPECT_EQ(f.delivered, f.size);
}

TEST(Scenario, SprayingUsesEveryUplinkPerFlowEcmpOne)
{
	for (EcmpMode mode : { EcmpMode::kPerPacket, EcmpMode::kPerFlow }) {
		ScenarioConfig c;

		c.topo.kind = "leafspine";
		c.topo.leaves = 2;
		c.topo.spines = 4;
		c.topo.hosts_per_leaf = 1;
		c.work.kind = "greedy";	// host 0 to host 1, across the spines
		c.ecmp = mode;
		c.duration = 5 * kMs;
		Scenario s(c);

		s.run();
		uint32_t used = 0;

		for (const auto &p : s.net().ports())
			if (p->role() == PortRole::kFabric && p->from() == s.net().switches()[0] &&
			    p->stats().tx_data_ip_bytes > 0)
				used++;
		EXPECT_EQ(used, mode == EcmpMode::kPerPacket ? 4u : 1u);
		EXPECT_EQ(compute_results(s).audit_violations, 0u);
	}
}

TEST(Scenario, PermutationOnASmallFatTreeSprayedNearsLineRate)
{
	ScenarioConfig c;

	c.topo.kind = "fattree";
	c.topo.k = 4;
	c.work.kind = "permutation";
	c.duration = 20 * kMs;
	c.warmup = 5 * kMs;
	Scenario s(c);

	s.run();
	Results r = compute_results(s);

	EXPECT_EQ(r.throughput_gbps.size(), 16u);
	EXPECT_GT(r.mean_utilisation, 0.85);
	EXPECT_EQ(r.roles[(size_t)PortRole::kFabric].drops, 0u);
	EXPECT_EQ(r.audit_violations, 0u) << r.audit_first;
}

TEST(Scenario, SameSeedSameRunDifferentSeedDifferentRun)
{
	ScenarioConfig c;

	c.topo.kind = "fattree";
	c.topo.k = 4;
	c.work.kind = "poisson";
	c.work.flow_size = 50000;
	c.work.load = 0.4;
	c.duration = 5 * kMs;
	auto fingerprint = [](const ScenarioConfig &cfg) {
		Scenario s(cfg);

		s.run();
		std::vector<uint64_t> v{ s.events().events_run() };

		for (const Flow &f : s.traffic().flows())
			v.push_back(f.finish * 1000003 + f.delivered);
		return v;
	};
	auto a = fingerprint(c), b = fingerprint(c);

	EXPECT_EQ(a, b);
	c.seed = 2;
	EXPECT_NE(a, fingerprint(c));
}

TEST(Scenario, CoreBottleneckStaysConsistent)
{
	// Four flows over one 10G link between two switches: receiver pulling
	// alone overcommits the core. No fairness claim, only that the
	// protocol's books balance and every flow completes.
	ScenarioConfig c;

	c.topo.kind = "dumbbell";
	c.topo.hosts = 4;
	c.topo.buffer_pkts = 50;
	c.work.kind = "greedy";
	c.work.flow_size = 500000;
	c.duration = 20 * kMs;
	c.drain = 2000 * kMs;
	Scenario s(c);

	s.run();
	Results r = compute_results(s);

	EXPECT_EQ(r.finished, 4u);
	EXPECT_TRUE(r.quiescent);
	EXPECT_EQ(r.audit_violations, 0u) << r.audit_first;
}

}  // namespace

namespace {

// Four flows from the left of a dumbbell to the right share its one 10 Gb/s
// switch-to-switch link, while each receiver could pull 9.5 Gb/s: a 4:1
// oversubscribed core. Three flows are short; the long one ends up alone.
ScenarioConfig shared_core(bool cc)
{
	ScenarioConfig c;

	c.topo.kind = "dumbbell";
	c.topo.hosts = 4;
	c.topo.buffer_pkts = 100;
	c.topo.ecn_threshold_pkts = 20;
	c.work.kind = "incast";		// one tiny flow 1 -> 0, added to below
	c.work.senders = 1;
	c.work.flow_size = 1;
	c.eqds.cc = cc;
	c.duration = 40 * kMs;
	c.drain = 200 * kMs;
	c.sample_interval = 500 * kUs;
	return c;
}

void add_shared_core_flows(Scenario &s)
{
	for (uint32_t i = 0; i < 4; i++) {
		Flow f;

		f.src = i;
		f.dst = 4 + i;
		f.size = i ? 2000000 : 30000000;
		s.traffic().add(f);
	}
}

}  // namespace

// The congestion reaction (core/congestion.h): CE marks from the shared link
// lower the receivers' pull rates, fewer packets are lost in the core, and
// the receiver whose flow is left alone, unmarked, climbs back to its full
// rate.
TEST(Scenario, PullRateFallsUnderMarkingAndRecoversWithoutIt)
{
	Scenario plain(shared_core(false)), reacting(shared_core(true));

	add_shared_core_flows(plain);
	add_shared_core_flows(reacting);
	plain.run();
	reacting.run();
	Results p = compute_results(plain), r = compute_results(reacting);

	// Without the reaction the marks change nothing: full rate throughout.
	EXPECT_GT(p.roles[(size_t)PortRole::kFabric].ecn_marks, 0u);
	EXPECT_EQ(p.min_pull_rate, 1.0);
	EXPECT_EQ(p.cc_windows, 0u);
	// With it: marked windows, rates cut well below the link's.
	EXPECT_GT(r.cc_marked_windows, 0u);
	EXPECT_LT(r.min_pull_rate, 0.5);
	EXPECT_LT(r.roles[(size_t)PortRole::kFabric].drops,
		  p.roles[(size_t)PortRole::kFabric].drops);
	// The long flow's receiver ends at its full rate again.
	const PullPacer &long_rx = reacting.host(4).pacer();

	EXPECT_EQ(long_rx.rate_bps(), long_rx.max_rate_bps());
	EXPECT_GT(long_rx.cc().stats.marked, 0u);
	// Everything completes, the audit is clean, either way.
	for (const Results *x : { &p, &r }) {
		EXPECT_EQ(x->finished, 5u);
		EXPECT_TRUE(x->quiescent);
		EXPECT_EQ(x->audit_violations, 0u) << x->audit_first;
	}
}
