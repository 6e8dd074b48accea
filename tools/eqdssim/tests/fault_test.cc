// SPDX-License-Identifier: GPL-2.0
// Acceptance 1: lose a share of one kind of packet at a time and check
// that credit is conserved (the audit never fails) and no tunnel is stuck
// (every flow completes, every sending tunnel ends idle).
#include <gtest/gtest.h>

#include "results.h"
#include "scenario.h"

using namespace eqdssim;

namespace {

struct LossCase {
	PacketKind kind;
	double loss;
};

class ControlLoss : public testing::TestWithParam<LossCase> {};

ScenarioConfig lossy_permutation(const LossCase &lc)
{
	ScenarioConfig c;

	c.topo.kind = "leafspine";
	c.topo.leaves = 2;
	c.topo.spines = 2;
	c.topo.hosts_per_leaf = 4;
	c.work.kind = "permutation";
	c.work.flow_size = 400000;
	c.duration = 5 * kMs;
	c.drain = 3000 * kMs;
	c.loss[(size_t)lc.kind] = lc.loss;
	// NACKs only follow data loss; RSTs only follow lost receive state.
	if (lc.kind == PacketKind::kNack)
		c.loss[(size_t)PacketKind::kData] = 0.02;
	if (lc.kind == PacketKind::kRst) {
		c.forget_at = 100 * kUs;
		c.forget_host = 1;
	}
	// FINs only follow a sender that lost its tunnels.
	if (lc.kind == PacketKind::kFin) {
		c.forget_send_at = 100 * kUs;
		c.forget_send_host = 0;
	}
	return c;
}

TEST_P(ControlLoss, CreditConservedAndNoTunnelStuck)
{
	const LossCase lc = GetParam();
	Scenario s(lossy_permutation(lc));

	s.run();
	Results r = compute_results(s);

	EXPECT_GT(s.faults().dropped(lc.kind), 0u) << "the fault was never exercised";
	EXPECT_EQ(r.audit_violations, 0u) << r.audit_first;
	EXPECT_GT(r.audit_checks, 100u);
	EXPECT_EQ(r.counters.decode_errors, 0u);
	EXPECT_EQ(r.finished, r.flows);
	EXPECT_EQ(r.busy_tunnels_at_end, 0u);
	EXPECT_TRUE(r.quiescent);
}

INSTANTIATE_TEST_SUITE_P(
	EveryControlKind, ControlLoss,
	testing::Values(LossCase{ PacketKind::kPull, 0.2 }, LossCase{ PacketKind::kAck, 0.5 },
			LossCase{ PacketKind::kNack, 0.5 }, LossCase{ PacketKind::kRts, 0.5 },
			LossCase{ PacketKind::kRst, 0.5 }, LossCase{ PacketKind::kFin, 0.5 },
			LossCase{ PacketKind::kData, 0.05 }),
	[](const testing::TestParamInfo<LossCase> &i) {
		return std::string(packet_kind_name(i.param.kind));
	});

TEST(ForgottenReceiver, SenderRestartsWithRstAndFinishes)
{
	ScenarioConfig c = lossy_permutation(LossCase{ PacketKind::kRst, 0.0 });

	Scenario s(c);
	s.run();
	Results r = compute_results(s);

	EXPECT_GT(r.counters.rsts_sent, 0u);
	EXPECT_GT(r.counters.restarts, 0u);
	EXPECT_EQ(r.finished, r.flows);
	EXPECT_EQ(r.audit_violations, 0u) << r.audit_first;
}

TEST(ForgottenSender, NewEpochIsChallengedDisownedAndFinishes)
{
	// Host 0 loses its sending tunnels mid-transfer (a module reload): its
	// new tunnel's SYN meets a receiver that still follows the old epoch,
	// which challenges it; the sender disowns the old epoch with a FIN and
	// the new one begins (core/epoch.h).
	ScenarioConfig c = lossy_permutation(LossCase{ PacketKind::kData, 0.0 });

	c.forget_send_at = 100 * kUs;
	c.forget_send_host = 0;
	Scenario s(c);
	s.run();
	Results r = compute_results(s);

	EXPECT_GT(r.counters.challenges_sent, 0u);
	EXPECT_GT(r.counters.fins_sent, 0u);
	EXPECT_GT(r.counters.fins_rcvd, 0u);
	EXPECT_EQ(r.finished, r.flows);
	EXPECT_TRUE(r.quiescent);
	EXPECT_EQ(r.audit_violations, 0u) << r.audit_first;
}

// A leaf-spine link fails under greedy flows sprayed through a hash, with
// the module's timers: a quarter of the paths between the two leaves lose
// everything, data and control alike. Every flow keeps going at half its
// share at least: its sender sprays around the lost paths (core/paths.h),
// and a lost NACK or retransmission is NACKed again within a few NACK
// delays (eqds_rx_renack_after()), not left to the 10 ms RTO with the
// sender's window full.
TEST(FailedLink, EveryFlowKeepsGoing)
{
	ScenarioConfig c;

	c.topo.kind = "leafspine";
	c.topo.leaves = 2;
	c.topo.spines = 4;
	c.topo.hosts_per_leaf = 4;
	c.topo.ecn_threshold_pkts = 20;
	c.work.kind = "permutation";
	c.ecmp = EcmpMode::kPerPacketHash;
	c.warmup = 5 * kMs;
	c.sample_interval = 1 * kMs;
	c.fail_link_at = 5 * kMs;
	c.duration = 25 * kMs;
	Scenario s(c);
	s.run();
	Results r = compute_results(s);

	EXPECT_GT(r.counters.path_penalties, 0u);
	EXPECT_EQ(r.counters.timeouts, 0u);
	EXPECT_GE(r.min_utilisation, 0.5 * r.mean_utilisation);
	EXPECT_GE(r.mean_utilisation, 0.75);
	EXPECT_EQ(r.audit_violations, 0u) << r.audit_first;
}

}  // namespace
