// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <set>

#include "network.h"
#include "topology.h"

using namespace eqdssim;

namespace {

// A host that counts what reaches it.
struct Sink : Node {
	Sink(uint32_t id, PacketPool *pool) : Node(id), pool(pool) {}
	bool is_host() const override { return true; }
	void receive(Packet *p) override
	{
		got++;
		ce += p->ce;
		trimmed += p->trimmed;
		pool->put(p);
	}
	PacketPool *pool;
	uint32_t got = 0, ce = 0, trimmed = 0;
};

struct Fixture {
	EventQueue q;
	Network net;
	explicit Fixture(const TopologyConfig &cfg, EcmpMode mode = EcmpMode::kPerPacket)
		: net(q, mode, 1)
	{
		build_topology(net, cfg, [this](uint32_t id) {
			return std::make_unique<Sink>(id, &net.pool());
		});
	}
	Sink &sink(uint32_t h) { return *static_cast<Sink *>(net.host(h)); }
	void send(uint32_t src, uint32_t dst, uint8_t path, uint32_t payload = 1456)
	{
		Packet *p = net.pool().get();

		p->hlen = EQDS_DATA_HLEN;
		p->payload_len = payload;
		p->src = src;
		p->dst = dst;
		p->path_id = path;
		net.host_nic(src)->send(p);
	}
};

TopologyConfig fattree(uint32_t k)
{
	TopologyConfig c;

	c.kind = "fattree";
	c.k = k;
	return c;
}

TEST(Topology, FatTreeHasTheRightSizeAndPathLengths)
{
	Fixture f(fattree(4));

	EXPECT_EQ(f.net.host_count(), 16u);
	EXPECT_EQ(f.net.switches().size(), 20u);
	// Same edge switch: NIC + down. Same pod: 4 ports. Other pod: 6.
	EXPECT_EQ(f.net.path(0, 1, 0, EcmpMode::kPerPacket).size(), 2u);
	EXPECT_EQ(f.net.path(0, 2, 0, EcmpMode::kPerPacket).size(), 4u);
	EXPECT_EQ(f.net.path(0, 15, 0, EcmpMode::kPerPacket).size(), 6u);
	for (uint32_t s = 0; s < 16; s++) {
		for (uint32_t d = 0; d < 16; d++) {
			if (s != d) {
				EXPECT_EQ(f.net.path(s, d, 7, EcmpMode::kPerPacket).back()->to()->id(), d);
			}
		}
	}
}

TEST(Ecmp, PerPacketSpraysOverEveryCorePathPerFlowPinsOne)
{
	Fixture f(fattree(4));
	std::set<const Port *> sprayed, pinned;

	for (uint32_t path = 0; path < 256; path++) {
		sprayed.insert(f.net.path(0, 15, (uint8_t)path, EcmpMode::kPerPacket)[3]);
		pinned.insert(f.net.path(0, 15, (uint8_t)path, EcmpMode::kPerFlow)[3]);
	}
	// Hop 3 is core to aggregation: (k/2)^2 = 4 core switches.
	EXPECT_EQ(sprayed.size(), 4u);
	EXPECT_EQ(pinned.size(), 1u);
}

TEST(Port, DropTailAtTheBufferAndEveryPacketArrives)
{
	TopologyConfig c;

	c.kind = "star";
	c.hosts = 3;
	c.buffer_pkts = 5;
	Fixture f(c);

	// Two senders at line rate into one receiver: the switch port overflows.
	for (int i = 0; i < 50; i++) {
		f.send(0, 2, 0);
		f.send(1, 2, 0);
	}
	f.q.run_until(10 * kMs);
	Port *down = f.net.path(0, 2, 0, EcmpMode::kPerPacket).back();

	EXPECT_GT(down->stats().drops, 0u);
	EXPECT_EQ(down->stats().max_queue, 5u);
	EXPECT_EQ(f.sink(2).got + down->stats().drops, 100u);
	EXPECT_EQ(f.net.pool().in_use(), 0u);
}

TEST(Port, TrimmingKeepsHeadersAndEcnMarksAboveThreshold)
{
	TopologyConfig c;

	c.kind = "star";
	c.hosts = 3;
	c.buffer_pkts = 5;
	c.trim = true;
	c.ecn_threshold_pkts = 2;
	Fixture f(c);

	for (int i = 0; i < 50; i++) {
		f.send(0, 2, 0);
		f.send(1, 2, 0);
	}
	f.q.run_until(10 * kMs);
	Port *down = f.net.path(0, 2, 0, EcmpMode::kPerPacket).back();

	EXPECT_EQ(down->stats().drops, 0u);
	EXPECT_GT(down->stats().trims, 0u);
	EXPECT_EQ(f.sink(2).got, 100u);
	EXPECT_EQ(f.sink(2).trimmed, down->stats().trims);
	EXPECT_GT(f.sink(2).ce, 0u);
}

TEST(Port, SerialisesAtTheLinkRate)
{
	TopologyConfig c;

	c.kind = "star";
	c.hosts = 2;
	c.link_delay = 0;
	Fixture f(c);

	for (int i = 0; i < 1000; i++)
		f.send(0, 1, 0);
	f.q.run_until(1 * kMs);
	// 1538 bytes on the wire each at 10 Gb/s: 1230.4 ns, so 812 in 1 ms
	// (less one serialisation at the switch).
	EXPECT_NEAR(f.sink(1).got, 812, 2);
}

}  // namespace
