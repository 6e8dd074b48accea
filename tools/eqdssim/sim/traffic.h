// SPDX-License-Identifier: GPL-2.0
// Flows and the application model above EQDS. A flow is size bytes from
// src to dst (size 0: greedy, never ends), cut into packets whose inner
// length makes MTU-sized outer packets. The application keeps each
// tunnel's EQIF queue topped up from the flows that use it, round robin,
// without ever overflowing it: an ideal transport with backpressure, not a
// TCP. EQDS is best effort: a packet lost in the network and given up on by
// the reorder queue is gone, and recovering it is the transport's job. The
// model of that recovery is TCP's, reduced to its timing: a packet found
// missing when a later one arrives is sent again after a fast-retransmit
// delay (a dupack round trip), and a flow that makes no progress for a
// tail-loss timeout resends everything missing. Closed-loop flows start
// their successor when they complete.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "app.h"
#include "event_queue.h"

namespace eqdssim {

class Network;

struct Flow {
	uint32_t id = 0;
	uint32_t src = 0, dst = 0;
	uint64_t size = 0;		// bytes; 0: greedy
	SimTime start = 0;
	bool closed_loop = false;	// start a successor on completion
	// Progress.
	uint32_t next_index = 0;	// packets handed to EQDS
	uint64_t delivered = 0;		// unique bytes delivered
	uint64_t measured = 0;		// bytes delivered inside the measurement window
	uint64_t duplicates = 0;
	SimTime finish = 0;		// 0: not finished
	std::vector<bool> got;		// per packet, finite flows
	// Transport recovery (finite flows).
	std::vector<bool> resend_scheduled;	// found missing, resend pending or done
	std::deque<uint32_t> resend;	// indices to hand down again first
	uint32_t next_missing = 0;	// lowest index not delivered
	uint32_t scanned_to = 0;	// indices below were checked for holes
	uint64_t delivered_at_last_tail_check = 0;
	uint64_t resent = 0;
	bool in_pending = false;	// on its tunnel's pending list

	bool finite() const { return size != 0; }
	uint32_t packets(uint32_t mss) const { return (uint32_t)((size + mss - 1) / mss); }
};

class Traffic : public Application, public EventTarget {
public:
	// Flow sizes count transport payload. Each packet carries up to kMss
	// of it behind 40 bytes of inner IPv4 and TCP headers: 1416 is the
	// MSS the module clamps TCP to at a 1500-byte MTU, so a full packet
	// is 1500 outer IP bytes and the smallest still holds an IP header.
	static constexpr uint32_t kMss = 1416;
	static constexpr uint32_t kInnerHeaders = 40;
	static constexpr uint32_t kFullPacketIpBytes = 1500;

	explicit Traffic(Network &net) : net_(net) {}

	// Transport recovery timing (see above).
	SimTime fast_retransmit_delay = 100 * kUs;
	SimTime tail_timeout = 10 * kMs;	// Linux's tail loss probe floor

	// Add a flow; it starts at f.start.
	uint32_t add(Flow f);
	// Bytes delivered from this time on count as measured throughput.
	void set_measure_from(SimTime t) { measure_from_ = t; }

	void fill(Host &host, SenderTunnel &tunnel) override;
	void delivered(Host &host, uint32_t src, const AppData &d, bool late) override;
	void fire(uint32_t kind, uint64_t arg) override;

	const std::vector<Flow> &flows() const { return flows_; }
	uint64_t late_packets() const { return late_; }
	uint64_t resent_packets() const;
	// The host lost its sending tunnels: hand what its flows still have
	// to send to new ones (the transport keeps sending; what was in the
	// lost tunnels is recovered as lost).
	void restart_sender(uint32_t host);

private:
	static uint64_t pair_key(uint32_t src, uint32_t dst)
	{
		return ((uint64_t)src << 32) | dst;
	}
	void start(uint32_t flow);
	void make_pending(Flow &f);
	void resend_later(Flow &f, uint32_t index);
	void on_resend(uint32_t flow, uint32_t index);
	void on_tail_check(uint32_t flow);

	Network &net_;
	std::vector<Flow> flows_;
	// Flows with packets not yet handed down, per (src, dst) tunnel.
	std::unordered_map<uint64_t, std::deque<uint32_t>> pending_;
	SimTime measure_from_ = 0;
	uint64_t late_ = 0;
};

}  // namespace eqdssim
