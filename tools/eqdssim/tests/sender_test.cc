// SPDX-License-Identifier: GPL-2.0
// One sending tunnel driven by hand: the test plays its receiver, so every
// ack and NACK is exactly the one the case needs.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "host.h"
#include "topology.h"

using namespace eqdssim;

namespace {

struct Seen {
	uint32_t seq;
	uint8_t flags;
	uint32_t index;
};

// The peer: records the data packets that reach it and answers nothing.
struct Peer : Node {
	Peer(uint32_t id, PacketPool *pool) : Node(id), pool(pool) {}
	bool is_host() const override { return true; }
	void receive(Packet *p) override
	{
		struct eqds_pkt pkt;

		if (eqds_decode(p->hdr, p->hlen + p->payload_len, &pkt) >= 0 &&
		    pkt.type == EQDS_TYPE_DATA && pkt.next_proto != EQDS_NP_NONE)
			data.push_back(Seen{ pkt.data.seq, pkt.flags, p->app.index });
		pool->put(p);
	}
	PacketPool *pool;
	std::vector<Seen> data;
};

constexpr uint32_t kInnerBytes = 1000;
constexpr uint32_t kWireBytes = kInnerBytes + kOuterIpUdpBytes + EQDS_DATA_HLEN;

struct Fixture {
	EventQueue q;
	Network net;
	HostEnv env;

	Fixture() : net(q, EcmpMode::kPerPacket, 1)
	{
		TopologyConfig c;

		c.kind = "star";
		c.hosts = 2;
		env.net = &net;
		env.cfg.burst_mode = true;	// a window of credit without pulls
		build_topology(net, c, [this](uint32_t id) -> std::unique_ptr<Node> {
			if (id == 0)
				return std::make_unique<Host>(id, env, 1);
			return std::make_unique<Peer>(id, &net.pool());
		});
	}
	SenderTunnel &tunnel() { return static_cast<Host *>(net.host(0))->sender(1); }
	Peer &peer() { return *static_cast<Peer *>(net.host(1)); }
	void run_for(SimTime t) { q.run_until(q.now() + t); }
	// A control packet as the receiver would send it, through the wire code.
	void ctrl(uint8_t flags, uint32_t ack)
	{
		struct eqds_pkt pkt, got;
		uint8_t buf[EQDS_MAX_HLEN];
		int n;

		std::memset(&pkt, 0, sizeof(pkt));
		pkt.type = EQDS_TYPE_CTRL;
		pkt.hlen = EQDS_CTRL_HLEN;
		pkt.flags = flags;
		pkt.epoch = tunnel().tx().epoch;
		pkt.ctrl.ack = ack;
		n = eqds_encode(buf, sizeof(buf), &pkt);
		ASSERT_GT(n, 0);
		ASSERT_GE(eqds_decode(buf, (uint32_t)n, &got), 0);
		tunnel().ctrl_rcv(got);
	}
};

TEST(SenderTunnel, AnAckKeepsTheCopiesOfWhatItDoesNotCover)
{
	Fixture f;

	for (uint32_t i = 0; i < 4; i++)
		ASSERT_TRUE(f.tunnel().capture(AppData{ 0, i, kInnerBytes }));
	f.run_for(1 * kMs);
	ASSERT_EQ(f.peer().data.size(), 4u);
	const uint32_t first = f.peer().data[0].seq;

	EXPECT_EQ(f.tunnel().inflight_bytes(), 4 * kWireBytes);

	// The ack stops after the first packet: only its copy goes.
	f.ctrl(EQDS_F_ACK, first + 1);
	EXPECT_EQ(f.tunnel().tx().snd_una, first + 1);
	EXPECT_EQ(f.tunnel().inflight_bytes(), 3 * kWireBytes);

	// A later packet is reported lost: its copy is there to resend.
	f.ctrl(EQDS_F_NACK, first + 2);
	f.run_for(1 * kMs);
	ASSERT_EQ(f.peer().data.size(), 5u);
	EXPECT_EQ(f.peer().data[4].seq, first + 2);
	EXPECT_EQ(f.peer().data[4].index, 2u);
	EXPECT_TRUE(f.peer().data[4].flags & EQDS_F_RTX);

	// The oldest unacknowledged one times out: resent from its copy too.
	f.run_for(f.env.cfg.rto_min + 1 * kMs);
	ASSERT_GE(f.peer().data.size(), 6u);
	EXPECT_EQ(f.peer().data[5].seq, first + 1);
	EXPECT_EQ(f.peer().data[5].index, 1u);
	EXPECT_TRUE(f.peer().data[5].flags & EQDS_F_RTX);

	// Everything acknowledged: nothing kept.
	f.ctrl(EQDS_F_ACK, first + 4);
	EXPECT_EQ(f.tunnel().inflight_bytes(), 0u);
	EXPECT_TRUE(f.tunnel().idle());
}

}  // namespace
