// SPDX-License-Identifier: GPL-2.0
// One receiving tunnel of a simulated host: the event glue kmod/rx_tunnel.c
// is around the core's receiver (core/rxq.h: epoch admission, demand to the
// pull scheduler, hold and release, the ACK and NACK plans and the timer),
// with simulated packets, timers and counters. The policy (reorder timeout,
// ACK every / delay, NACK burst) is the host's configuration.
#pragma once

#include <cstdint>

#include "app.h"
#include "epoch.h"
#include "grant.h"
#include "rx.h"
#include "rxq.h"
#include "timer.h"

namespace eqdssim {

class Host;
class ReceiverTunnel;

// The core state and a way back to its tunnel: the pacer's grants name
// the struct eqds_rx (as the module's container_of() walks back from it).
struct RxCore {
	struct eqds_rx rx;	// first member: &core == &core.rx
	ReceiverTunnel *owner;
};

class ReceiverTunnel {
public:
	ReceiverTunnel(Host &host, uint32_t peer);
	~ReceiverTunnel();

	// A data packet or RTS from the peer, already decoded (eqds_rx_data_rcv
	// after the tunnel lookup). Returns false if the packet was refused
	// with an RST because the epoch is unknown.
	void data_rcv(const struct eqds_pkt &pkt, const AppData &app, uint32_t ip_bytes, bool ce);
	// A FIN for epoch: true if it disowned the epoch this tunnel follows
	// (then the tunnel stops pulling for it and drops what it holds).
	bool fin_rcv(uint32_t epoch);
	// The PULL packet of the pacer's grant g (eqds_grant_pull()): false
	// if the tunnel has left g's epoch since.
	bool pull_pkt(const struct eqds_grant &g, uint16_t busy_us, struct eqds_pkt *pkt);

	static ReceiverTunnel *from_rx(struct eqds_rx *rx);

	uint32_t peer() const { return peer_; }
	const struct eqds_rx &rx() const { return core_.rx; }
	struct eqds_rx &rx() { return core_.rx; }
	// Data wire bytes received in the current epoch (credit audit).
	uint64_t epoch_rx_bytes() const { return epoch_rx_bytes_; }

private:
	struct Held {
		AppData app;
		bool used;
	};

	// rx_tunnel.c's eqds_rxt_learn_paths(): control packets skip the ids
	// that the host's data to the peer avoids.
	void learn_paths();
	void send_ctrl(uint32_t epoch, const struct eqds_rxq_ctrl &m);
	void send_acks(const struct eqds_rxq_plan &p);
	void commit(const struct eqds_rxq_plan &p);
	void release(SimTime now, struct eqds_rxq_plan *p);
	void new_epoch(uint32_t epoch);
	void demand(uint16_t pull_target, bool probe);
	void deliver(const AppData &app, bool late);
	void arm_timer(SimTime when);
	void on_timer();

	Host &host_;
	uint32_t peer_;
	RxCore core_;
	struct eqds_epoch_guard guard_;	// who may replace rx.epoch (core/epoch.h)
	struct eqds_rxq_cfg rxq_cfg_;	// the host's receiver policy
	Held held_[EQDS_RX_AHEAD];	// at eqds_rx_held_slot() of their seq
	uint8_t path_ = 0;
	uint64_t epoch_rx_bytes_ = 0;
	Timer timer_;
};

}  // namespace eqdssim
