// SPDX-License-Identifier: GPL-2.0
// platform.h helpers: big-endian access at any alignment, min, 64-bit
// division, fls64 and time differences.
#include <gtest/gtest.h>

#include "platform.h"

TEST(Platform, GetBigEndian)
{
	const u8 b[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09 };

	EXPECT_EQ(eqds_get_be16(b), 0x0102);
	EXPECT_EQ(eqds_get_be32(b), 0x01020304u);
	EXPECT_EQ(eqds_get_be64(b), 0x0102030405060708ull);
	// Unaligned.
	EXPECT_EQ(eqds_get_be16(b + 1), 0x0203);
	EXPECT_EQ(eqds_get_be32(b + 1), 0x02030405u);
	EXPECT_EQ(eqds_get_be64(b + 1), 0x0203040506070809ull);
}

TEST(Platform, PutBigEndianTouchesOnlyItsBytes)
{
	u8 b[11];

	memset(b, 0xee, sizeof(b));
	eqds_put_be16(b + 1, 0xa1b2);
	EXPECT_EQ(b[0], 0xee);
	EXPECT_EQ(b[1], 0xa1);
	EXPECT_EQ(b[2], 0xb2);
	EXPECT_EQ(b[3], 0xee);

	memset(b, 0xee, sizeof(b));
	eqds_put_be32(b + 1, 0xdeadbeefu);
	EXPECT_EQ(b[0], 0xee);
	EXPECT_EQ(eqds_get_be32(b + 1), 0xdeadbeefu);
	EXPECT_EQ(b[1], 0xde);
	EXPECT_EQ(b[5], 0xee);

	memset(b, 0xee, sizeof(b));
	eqds_put_be64(b + 1, 0x8000000000000001ull);
	EXPECT_EQ(b[0], 0xee);
	EXPECT_EQ(b[1], 0x80);
	EXPECT_EQ(b[8], 0x01);
	EXPECT_EQ(b[9], 0xee);
	EXPECT_EQ(eqds_get_be64(b + 1), 0x8000000000000001ull);
}

TEST(Platform, ExtremesRoundTrip)
{
	u8 b[8];

	for (u64 v : { 0ull, 1ull, 0xffffffffffffffffull, 0x00ff00ff00ff00ffull }) {
		eqds_put_be64(b, v);
		EXPECT_EQ(eqds_get_be64(b), v);
		eqds_put_be32(b, (u32)v);
		EXPECT_EQ(eqds_get_be32(b), (u32)v);
		eqds_put_be16(b, (u16)v);
		EXPECT_EQ(eqds_get_be16(b), (u16)v);
	}
}

TEST(Platform, Min)
{
	EXPECT_EQ(eqds_min_u32(3, 4), 3u);
	EXPECT_EQ(eqds_min_u32(0xffffffffu, 0), 0u);
	EXPECT_EQ(eqds_min_u64(1ull << 40, 7), 7u);
}

TEST(Platform, Division)
{
	u32 rem = 7;

	EXPECT_EQ(eqds_div_u64(0xffffffffffffffffull, 3), 0x5555555555555555ull);
	EXPECT_EQ(eqds_div_u64(10, 0xffffffffu), 0u);
	EXPECT_EQ(eqds_div_u64_rem(1ull << 40, 1000000000u, &rem), 1099u);
	EXPECT_EQ(rem, 511627776u);
	EXPECT_EQ(eqds_div64_u64(~0ull, 1ull << 33), (1ull << 31) - 1);
	EXPECT_EQ(eqds_div64_u64(5, 6), 0u);
}

TEST(Platform, Fls64)
{
	EXPECT_EQ(eqds_fls64(0), 0);
	EXPECT_EQ(eqds_fls64(1), 1);
	EXPECT_EQ(eqds_fls64(0x80), 8);
	EXPECT_EQ(eqds_fls64(0xffffffffull), 32);
	EXPECT_EQ(eqds_fls64(1ull << 32), 33);
	EXPECT_EQ(eqds_fls64(~0ull), 64);
}

TEST(Platform, TimeSince)
{
	EXPECT_EQ(eqds_time_since(10, 3), 7u);
	EXPECT_EQ(eqds_time_since(3, 3), 0u);
	EXPECT_EQ(eqds_time_since(3, 10), 0u);	// another CPU's later read
	EXPECT_EQ(eqds_time_since(~0ull, 0), ~0ull);
}
