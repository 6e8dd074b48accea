// SPDX-License-Identifier: GPL-2.0
// What fits in the path MTU once encapsulated (kmod/core/mtu.h).
#include <gtest/gtest.h>

#include "mtu.h"

namespace {

// Outer IPv4 + UDP + EQDS data header, outer IPv6 + UDP + EQDS data header.
constexpr u32 kOver4 = 20 + 8 + 16;
constexpr u32 kOver6 = 40 + 8 + 16;

eqds_fit_pkt one(u32 len)
{
	return eqds_fit_pkt{len, 0, 0, false};
}

// A TCP/IPv4 GSO packet: 20 + hdr bytes of headers, segs segments of mss.
eqds_fit_pkt tcp_gso(u32 mss, u32 segs, u32 tcp_hlen = 32)
{
	return eqds_fit_pkt{20 + tcp_hlen + mss * segs, mss, 20 + tcp_hlen, true};
}

} // namespace

TEST(Mtu, Budget)
{
	EXPECT_EQ(eqds_mtu_budget(1500, kOver4), 1456u);
	EXPECT_EQ(eqds_mtu_budget(1500, kOver6), 1436u);
	EXPECT_EQ(eqds_mtu_budget(kOver4, kOver4), 0u);
	EXPECT_EQ(eqds_mtu_budget(10, kOver4), 0u);
}

TEST(Mtu, OnePacketFitsOrIsFragmented)
{
	u32 gso = 7;
	eqds_fit_pkt p = one(1456);

	EXPECT_EQ(eqds_fit(&p, 1500, kOver4, &gso), EQDS_FIT_WHOLE);
	p = one(1457);
	EXPECT_EQ(eqds_fit(&p, 1500, kOver4, &gso), EQDS_FIT_FRAGMENT);
	EXPECT_EQ(gso, 7u) << "only RESIZE sets the segment size";
	// Unknown MTU: nothing to decide.
	p = one(9000);
	EXPECT_EQ(eqds_fit(&p, 0, kOver4, &gso), EQDS_FIT_WHOLE);
}

TEST(Mtu, ClampedTcpFits)
{
	// The MSS clamp (1500 - 44 - 20 - 20 = 1416) with timestamps (12 bytes
	// of options, 1404 bytes of payload) fits exactly.
	u32 gso = 0;
	eqds_fit_pkt p = tcp_gso(1404, 40);

	EXPECT_EQ(eqds_fit(&p, 1500, kOver4, &gso), EQDS_FIT_WHOLE);
	p = tcp_gso(1405, 40);
	EXPECT_NE(eqds_fit(&p, 1500, kOver4, &gso), EQDS_FIT_WHOLE);
}

TEST(Mtu, UnclampedTcpIsResized)
{
	// A connection older than capture: MSS 1460, 1448 bytes with timestamps.
	u32 gso = 0;
	eqds_fit_pkt p = tcp_gso(1448, 45);

	ASSERT_EQ(eqds_fit(&p, 1500, kOver4, &gso), EQDS_FIT_RESIZE);
	EXPECT_EQ(gso, 1456u - 52u);
	EXPECT_EQ(eqds_fit_nsegs(&p, gso), (1448u * 45 + gso - 1) / gso);
	// Each resized segment fits exactly.
	eqds_fit_pkt q = tcp_gso(gso, 2);
	EXPECT_EQ(eqds_fit(&q, 1500, kOver4, &gso), EQDS_FIT_WHOLE);

	// The path shrank to 1280 under IPv6.
	p = tcp_gso(1448, 10);
	p.len += 20;
	p.seg_hlen += 20;
	ASSERT_EQ(eqds_fit(&p, 1280, kOver6, &gso), EQDS_FIT_RESIZE);
	EXPECT_EQ(gso, 1280u - kOver6 - 40 - 32);
}

TEST(Mtu, ShortGsoPacketFitsWhole)
{
	// One segment's worth of payload in a GSO packet: the piece is the packet.
	u32 gso = 0;
	eqds_fit_pkt p = {20 + 32 + 700, 1448, 52, true};

	EXPECT_EQ(eqds_fit_piece(&p), 752u);
	EXPECT_EQ(eqds_fit(&p, 1500, kOver4, &gso), EQDS_FIT_WHOLE);
}

TEST(Mtu, DatagramsAreSegmentedNotResized)
{
	// UDP_SEGMENT: each segment is a datagram whose boundaries must stay.
	u32 gso = 0;
	eqds_fit_pkt p = {28 + 1472 * 16, 1472, 28, false};

	EXPECT_EQ(eqds_fit(&p, 1500, kOver4, &gso), EQDS_FIT_SEGMENT);
	p = {28 + 1400 * 16, 1400, 28, false};
	EXPECT_EQ(eqds_fit(&p, 1500, kOver4, &gso), EQDS_FIT_WHOLE);
}

TEST(Mtu, TinyPathIsNotResizedBelowTheMinimum)
{
	// 68-byte IPv4 minimum MTU: no room for a TCP segment; fragment outside.
	u32 gso = 0;
	eqds_fit_pkt p = tcp_gso(1448, 4);

	EXPECT_EQ(eqds_fit(&p, 68, kOver4, &gso), EQDS_FIT_SEGMENT);
	EXPECT_EQ(eqds_fit(&p, kOver4 + 52 + EQDS_MTU_MIN_SEG, kOver4, &gso), EQDS_FIT_RESIZE);
	EXPECT_EQ(gso, u32(EQDS_MTU_MIN_SEG));
}

TEST(Mtu, SegmentCount)
{
	eqds_fit_pkt p = tcp_gso(1000, 3);

	EXPECT_EQ(eqds_fit_nsegs(&p, 1000), 3u);
	EXPECT_EQ(eqds_fit_nsegs(&p, 999), 4u);
	EXPECT_EQ(eqds_fit_nsegs(&p, 3000), 1u);
	p.len = p.seg_hlen;
	EXPECT_EQ(eqds_fit_nsegs(&p, 1000), 1u);
}
