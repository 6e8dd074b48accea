// SPDX-License-Identifier: GPL-2.0
// One sending tunnel of a simulated host: what kmod/tx_tunnel.c does around
// the core's struct eqds_tx, step for step (enqueue with tail drop, pump:
// retransmissions first (marked RTX) then new packets in order then an RTS,
// control packets checked by eqds_tx_ctrl_verdict() first, restart on RST,
// free on ack, retransmit on NACK (and every hole its SACK shows) or
// timeout, one timer for both).
// Function names follow the glue's so the two can be read side by side;
// only skbs became AppData records and the hrtimer became a Timer.
#pragma once

#include <cstdint>
#include <deque>

#include "app.h"
#include "epoch.h"
#include "timer.h"
#include "tx.h"

namespace eqdssim {

class Host;

// What the sender was granted and spent in the current epoch, counted by
// the glue independently of the core: the credit audit compares the two.
struct CreditLedger {
	uint64_t initial = 0;	// burst mode: the window granted unasked
	uint64_t gained = 0;	// credit the core reported from pulls
	uint64_t charged = 0;	// wire bytes of packets eqds_tx_send() let go
};

class SenderTunnel {
public:
	SenderTunnel(Host &host, uint32_t peer);
	~SenderTunnel() { timer_.cancel(); }

	// The application hands down a packet (eqds_tx_capture): queue it,
	// or drop it at the queue limit, then send what credit allows.
	// Returns false if it was dropped.
	bool capture(const AppData &d);
	// A control packet from the peer's receiver (eqds_tx_ctrl_rcv).
	void ctrl_rcv(const struct eqds_pkt &pkt);

	uint32_t peer() const { return peer_; }
	const struct eqds_tx &tx() const { return tx_; }
	const CreditLedger &ledger() const { return ledger_; }
	uint32_t queue_len() const { return (uint32_t)queue_.size(); }
	uint64_t queued_bytes() const { return queued_bytes_; }
	uint64_t inflight_bytes() const { return inflight_bytes_; }
	// Nothing queued, nothing to retransmit, nothing unacknowledged.
	bool idle() const;
	// Let the application top the queue up (not re-entered from inside it).
	void refill();

private:
	struct Queued {
		AppData app;
		uint32_t wire_bytes;
	};
	struct Sent {
		AppData app;
		uint32_t seq;		// the first it holds
		uint32_t nsegs;		// seqs it holds: always 1 here
		uint32_t wire_bytes;
		bool used;
	};

	void pump(SimTime now);
	void send_data(const AppData *app, uint32_t seq, uint32_t nsegs, uint8_t flags,
		       SimTime now);
	const Sent *inflight_find(uint32_t seq) const;
	void restart(SimTime now);
	void free_acked(uint32_t una, uint32_t acked_to);
	void add_rtx(uint32_t seq);
	void add_nack_holes(const struct eqds_tx_actions &act);
	void arm_timer();
	void on_timer();
	void audit();

	Host &host_;
	uint32_t peer_;
	struct eqds_tx tx_;
	std::deque<Queued> queue_;
	uint64_t queued_bytes_ = 0;	// wire bytes in queue_ (the glue's queued_bytes)
	uint64_t inflight_bytes_ = 0;	// wire bytes sent and not yet acknowledged
	Sent inflight_[EQDS_TX_SLOTS];
	uint32_t rtx_[64];
	uint32_t nrtx_ = 0;
	uint8_t path_;
	bool rts_due_;
	bool filling_ = false;
	struct eqds_ratelimit disown_rl_ = {};	// FINs for epochs we left
	Timer timer_;
	CreditLedger ledger_;
};

}  // namespace eqdssim
