// SPDX-License-Identifier: GPL-2.0
// One sending tunnel of a simulated host: the event glue around the core's
// sending queue (kmod/core/txq.h), as kmod/tx_tunnel.c is in the module.
// Every decision (admission, the pump's order, retransmissions, restart and
// requeue, what an ack frees) is the core's; this keeps the AppData records
// where the module keeps sk_buffs (one class queue, a ring of kept copies
// indexed as the core's), sends what the pump says, and runs the timer.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "app.h"
#include "epoch.h"
#include "timer.h"
#include "tx.h"
#include "txq.h"

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
	const struct eqds_tx &tx() const { return q_.tx; }
	const struct eqds_paths &paths() const { return q_.paths; }
	const CreditLedger &ledger() const { return ledger_; }
	uint32_t queue_len() const { return (uint32_t)queue_.size(); }
	uint64_t queued_bytes() const { return q_.queued_bytes; }
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

	void pump(SimTime now);
	void send_data(const AppData *app, const struct eqds_txq_step &st);
	void keep(const AppData &app, const struct eqds_txq_step &st);
	void arm_timer(u64 when);
	void on_timer();
	void audit();
	void count_paths();

	Host &host_;
	uint32_t peer_;
	struct eqds_txq q_;
	std::deque<Queued> queue_;	// class 0's packets: the simulator has one class
	uint64_t inflight_bytes_ = 0;	// wire bytes kept: sent and not yet acknowledged
	// The core's ring of kept packets and, slot for slot, their records;
	// full size from the start (a simulator need not save the memory).
	std::vector<struct eqds_txq_desc> ring_;
	std::vector<AppData> kept_;
	bool filling_ = false;
	Timer timer_;
	CreditLedger ledger_;
	struct eqds_paths_stats paths_counted_ = {};	// what count_paths() added
};

}  // namespace eqdssim
