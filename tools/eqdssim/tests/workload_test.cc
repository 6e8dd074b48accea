// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>

#include "fluid.h"
#include "results.h"
#include "topology.h"
#include "workload.h"

using namespace eqdssim;

namespace {

TEST(Workload, DerangementIsAPermutationWithoutFixedPoints)
{
	std::mt19937_64 rng(3);

	for (uint32_t n : { 2u, 3u, 16u, 1024u }) {
		std::vector<uint32_t> p = random_derangement(n, rng);
		std::set<uint32_t> seen(p.begin(), p.end());

		EXPECT_EQ(seen.size(), n);
		for (uint32_t i = 0; i < n; i++)
			EXPECT_NE(p[i], i);
	}
}

TEST(Workload, SizeDistributionFromCsv)
{
	std::string path = testing::TempDir() + "/sizes.csv";
	{
		std::ofstream out(path);
		out << "# size,cdf\nsize,cdf\n1000,0.5\n3000,1.0\n";
	}
	SizeDistribution d = SizeDistribution::from_csv(path);
	std::mt19937_64 rng(1);

	// Half the mass at 1000, half spread uniformly over (1000, 3000].
	EXPECT_NEAR(d.mean(), 0.5 * 1000 + 0.5 * 2000, 1);
	for (int i = 0; i < 1000; i++) {
		uint64_t s = d.sample(rng);

		EXPECT_GE(s, 1000u);
		EXPECT_LE(s, 3000u);
	}
	std::remove(path.c_str());
}

TEST(Metrics, JainAndPercentiles)
{
	EXPECT_DOUBLE_EQ(jain_index({ 1, 1, 1, 1 }), 1.0);
	EXPECT_DOUBLE_EQ(jain_index({ 1, 0, 0, 0 }), 0.25);
	std::vector<double> v{ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

	EXPECT_EQ(percentile(v, 50), 5);
	EXPECT_EQ(percentile(v, 99), 10);
}

struct Null : Node {
	using Node::Node;
	bool is_host() const override { return true; }
	void receive(Packet *) override {}
};

TEST(Fluid, MaxMinSharesTheBottleneckAndFillsTheRest)
{
	EventQueue q;
	Network net(q, EcmpMode::kPerFlow, 1);
	TopologyConfig c;

	c.kind = "dumbbell";
	c.hosts = 3;
	build_topology(net, c, [](uint32_t id) { return std::make_unique<Null>(id); });
	// Three flows across the 10G core share it; one local flow gets its link.
	std::vector<double> r = maxmin_per_flow_ecmp(net, { { 0, 3 }, { 1, 4 }, { 2, 5 }, { 3, 4 } });

	EXPECT_NEAR(r[0], 10e9 / 3, 1e3);
	EXPECT_NEAR(r[1], 10e9 / 3, 1e3);
	EXPECT_NEAR(r[2], 10e9 / 3, 1e3);
	// 3 -> 4 shares host 4's downlink with 1 -> 4 (3.33G): 6.67G is left.
	EXPECT_NEAR(r[3], 10e9 * 2 / 3, 1e3);
}

}  // namespace
