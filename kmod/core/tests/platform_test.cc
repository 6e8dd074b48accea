// SPDX-License-Identifier: GPL-2.0
// Byte-order helpers (kmod/core/platform.h): big endian, any alignment.
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
