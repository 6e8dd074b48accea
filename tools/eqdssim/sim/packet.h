// SPDX-License-Identifier: GPL-2.0
// A packet on the simulated wire: the EQDS header as real encoded bytes
// (eqds_encode() at the sender, eqds_decode() at the receiver, so the wire
// code runs too), the outer addressing the switches look at (hosts and the
// path id that stands for the outer UDP source port), and the identity of
// the application data it carries in place of a payload.
#pragma once

#include <cstdint>
#include <vector>

#include "wire.h"

namespace eqdssim {

// Outer IPv4 + UDP, as the kernel's eqds_overhead() counts besides the
// EQDS header itself.
constexpr uint32_t kOuterIpUdpBytes = 20 + 8;

// What a packet is, for per-type fault injection and counters.
enum class PacketKind : uint8_t {
	kData,
	kRts,		// data header without payload: a request for credit
	kAck,		// control: ACK (and SYN, SACK) only
	kNack,
	kPull,		// control with PULL (carries an ACK too)
	kRst,
	kFin,		// data header without payload: the sender disowns an epoch
	kCount
};

const char *packet_kind_name(PacketKind k);

// The application data a data packet carries (its "payload").
struct AppData {
	uint32_t flow = 0;	// flow id, index into the traffic's flow table
	uint32_t index = 0;	// packet number within the flow
	uint32_t inner_bytes = 0;	// inner IP packet length
};

struct Packet {
	uint8_t hdr[EQDS_MAX_HLEN];	// encoded EQDS header
	uint16_t hlen = 0;
	uint32_t payload_len = 0;	// bytes after the EQDS header (0 once trimmed)
	uint32_t src = 0, dst = 0;	// host ids: outer source and destination
	uint8_t path_id = 0;		// outer UDP source port entropy
	PacketKind kind = PacketKind::kData;
	bool ce = false;		// ECN congestion experienced, outer header
	bool trimmed = false;		// a switch cut the payload off
	AppData app;
	Packet *next = nullptr;		// queue / free list link

	// Outer IP packet length: what credit counts and links carry (plus framing).
	uint32_t ip_bytes() const { return kOuterIpUdpBytes + hlen + payload_len; }
};

// Packets are recycled through a free list: a big run moves hundreds of
// millions of them and must not hit the allocator for each.
class PacketPool {
public:
	PacketPool() = default;
	PacketPool(const PacketPool &) = delete;
	PacketPool &operator=(const PacketPool &) = delete;
	~PacketPool();

	Packet *get();
	void put(Packet *p);
	uint64_t allocated() const { return allocated_; }
	uint64_t in_use() const { return in_use_; }

private:
	Packet *free_ = nullptr;
	std::vector<Packet *> chunks_;
	uint64_t allocated_ = 0, in_use_ = 0;
};

}  // namespace eqdssim
