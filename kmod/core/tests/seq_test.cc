// SPDX-License-Identifier: GPL-2.0
// Serial-number arithmetic (kmod/core/seq.h), especially around 2^32.
#include <gtest/gtest.h>

#include "seq.h"

TEST(Seq, DiffIsSignedDistance)
{
	EXPECT_EQ(eqds_seq_diff(5, 3), 2);
	EXPECT_EQ(eqds_seq_diff(3, 5), -2);
	EXPECT_EQ(eqds_seq_diff(7, 7), 0);
	// Across the wrap: 1 is three after 0xfffffffe.
	EXPECT_EQ(eqds_seq_diff(1u, 0xfffffffeu), 3);
	EXPECT_EQ(eqds_seq_diff(0xfffffffeu, 1u), -3);
	EXPECT_EQ(eqds_seq_diff(0u, 0xffffffffu), 1);
}

TEST(Seq, BeforeAfterAcrossWrap)
{
	EXPECT_TRUE(eqds_seq_before(0xffffffffu, 0u));
	EXPECT_TRUE(eqds_seq_after(0u, 0xffffffffu));
	EXPECT_FALSE(eqds_seq_before(0u, 0xffffffffu));
	EXPECT_FALSE(eqds_seq_after(0xffffffffu, 0u));
	EXPECT_TRUE(eqds_seq_before(0x7fffffffu, 0x80000000u));
	EXPECT_TRUE(eqds_seq_after(0x80000000u, 0x7fffffffu));
	EXPECT_FALSE(eqds_seq_before(10, 10));
	EXPECT_FALSE(eqds_seq_after(10, 10));
	EXPECT_TRUE(eqds_seq_before_eq(10, 10));
	EXPECT_TRUE(eqds_seq_after_eq(10, 10));
	EXPECT_TRUE(eqds_seq_before_eq(0xfffffff0u, 5));
	EXPECT_TRUE(eqds_seq_after_eq(5, 0xfffffff0u));
}

TEST(Seq, LargestUnambiguousDistance)
{
	// 2^31 - 1 apart: still ordered.
	EXPECT_TRUE(eqds_seq_after(0x7fffffffu, 0u));
	EXPECT_TRUE(eqds_seq_before(0u, 0x7fffffffu));
	EXPECT_EQ(eqds_seq_diff(0x7fffffffu, 0u), 0x7fffffff);
	// Exactly 2^31 apart: documented as undefined, both are "before".
	EXPECT_TRUE(eqds_seq_before(0u, 0x80000000u));
	EXPECT_TRUE(eqds_seq_before(0x80000000u, 0u));
	EXPECT_EQ(eqds_seq_diff(0x80000000u, 0u), INT32_MIN);
}

TEST(Seq, MaxPicksTheLater)
{
	EXPECT_EQ(eqds_seq_max(3, 9), 9u);
	EXPECT_EQ(eqds_seq_max(9, 3), 9u);
	EXPECT_EQ(eqds_seq_max(0xfffffff0u, 4), 4u);
	EXPECT_EQ(eqds_seq_max(4, 0xfffffff0u), 4u);
	EXPECT_EQ(eqds_seq_max(6, 6), 6u);
}

TEST(Seq, InWindow)
{
	EXPECT_TRUE(eqds_seq_in_window(100, 100, 1));
	EXPECT_FALSE(eqds_seq_in_window(101, 100, 1));
	EXPECT_FALSE(eqds_seq_in_window(99, 100, 10));
	EXPECT_TRUE(eqds_seq_in_window(109, 100, 10));
	EXPECT_FALSE(eqds_seq_in_window(110, 100, 10));
	// Empty window holds nothing, not even its base.
	EXPECT_FALSE(eqds_seq_in_window(100, 100, 0));
	// Window straddling the wrap.
	EXPECT_TRUE(eqds_seq_in_window(0xfffffffeu, 0xfffffffcu, 8));
	EXPECT_TRUE(eqds_seq_in_window(0u, 0xfffffffcu, 8));
	EXPECT_TRUE(eqds_seq_in_window(3u, 0xfffffffcu, 8));
	EXPECT_FALSE(eqds_seq_in_window(4u, 0xfffffffcu, 8));
	EXPECT_FALSE(eqds_seq_in_window(0xfffffffbu, 0xfffffffcu, 8));
	// Huge windows work since the test is an unsigned offset.
	EXPECT_TRUE(eqds_seq_in_window(0x90000000u, 0, 0xffffffffu));
	EXPECT_FALSE(eqds_seq_in_window(0xffffffffu, 0, 0xffffffffu));
}

TEST(Seq, ExhaustiveSmallDistancesAroundWrap)
{
	// Every base near 2^32 against every small signed offset.
	for (uint32_t base = 0xffffff00u; base != 0x100u; base++) {
		for (int32_t d = -300; d <= 300; d++) {
			uint32_t s = base + (uint32_t)d;

			ASSERT_EQ(eqds_seq_diff(s, base), d);
			ASSERT_EQ(eqds_seq_before(s, base), d < 0);
			ASSERT_EQ(eqds_seq_after(s, base), d > 0);
			ASSERT_EQ(eqds_seq_in_window(s, base, 64),
				  d >= 0 && d < 64);
		}
	}
}
