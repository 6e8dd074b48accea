// SPDX-License-Identifier: GPL-2.0
// An output port and the link behind it: a drop-tail FIFO of packets, a
// serialiser at the link rate, and a propagation delay to the next node.
// Optional ECN marking (CE when the queue is above a threshold on arrival)
// and optional NDP-style trimming (a data packet that finds the buffer full
// loses its payload and jumps into a small priority queue of headers).
#pragma once

#include <cstdint>

#include "event_queue.h"
#include "packet.h"

namespace eqdssim {

class Node;

// Where a port sits: statistics are reported per role.
enum class PortRole : uint8_t {
	kHostNic,	// host to its first switch
	kToHost,	// last switch to a host: the receiver's bottleneck
	kFabric,	// switch to switch
};

const char *port_role_name(PortRole r);

struct PortConfig {
	uint64_t rate_bps = 10000000000ull;
	SimTime delay = 1 * kUs;
	uint32_t buffer_pkts = 100;	// packets waiting, not counting the one on the wire
	uint32_t ecn_threshold_pkts = 0;	// 0: no ECN marking
	bool trim = false;
};

struct PortStats {
	uint64_t tx_pkts = 0;
	uint64_t tx_ip_bytes = 0;	// every packet's outer IP bytes
	uint64_t tx_data_ip_bytes = 0;	// data packets only
	uint64_t drops = 0;
	uint64_t trims = 0;
	uint64_t ecn_marks = 0;
	uint32_t max_queue = 0;		// packets
	// The same from the warm-up on (Port::set_measure_from): a start-up
	// transient (850 RTS probes at once) is not the steady state.
	uint64_t drops_measured = 0;
	uint32_t max_queue_measured = 0;
	double queue_pkt_ns = 0;	// time integral of the queue length
};

class Port : public EventTarget {
public:
	// Ethernet preamble, header, FCS and inter-frame gap: each packet
	// occupies the link for its IP bytes plus this.
	static constexpr uint32_t kFramingBytes = 38;

	Port(EventQueue &q, PacketPool &pool, Node *from, Node *to,
	     const PortConfig &cfg, PortRole role);

	// Queue a packet for transmission (or drop / trim it).
	void send(Packet *p);
	void fire(uint32_t kind, uint64_t arg) override;

	Node *from() const { return from_; }
	Node *to() const { return to_; }
	PortRole role() const { return role_; }
	const PortConfig &config() const { return cfg_; }
	const PortStats &stats() const { return stats_; }
	uint32_t queue_len() const { return qlen_ + hqlen_; }
	// Bring the queue-length integral up to now (before reading stats).
	void account(SimTime now);
	// Where the *_measured stats begin (the run's warm-up).
	void set_measure_from(SimTime t) { measure_from_ = t; }
	// A slower link (from the next packet), or a failed one: every packet
	// sent to it is lost (counted in drops), what is queued drains.
	void set_rate(uint64_t bps) { cfg_.rate_bps = bps; }
	void set_failed(bool failed) { failed_ = failed; }
	bool failed() const { return failed_; }

private:
	void start_next();
	SimTime serialisation(const Packet *p) const;
	void push(Packet *&head, Packet *&tail, Packet *p);
	Packet *pop(Packet *&head, Packet *&tail);

	EventQueue &q_;
	PacketPool &pool_;
	Node *from_, *to_;
	PortConfig cfg_;
	PortRole role_;
	PortStats stats_;
	SimTime measure_from_ = 0;
	Packet *head_ = nullptr, *tail_ = nullptr;	// full packets
	Packet *hhead_ = nullptr, *htail_ = nullptr;	// trimmed headers
	uint32_t qlen_ = 0, hqlen_ = 0;
	bool busy_ = false;
	bool failed_ = false;
	SimTime last_account_ = 0;
};

}  // namespace eqdssim
