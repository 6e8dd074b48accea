// SPDX-License-Identifier: GPL-2.0
// One receiving tunnel of a simulated host: what kmod/rx_tunnel.c does
// around the core's struct eqds_rx (epoch checks, demand and backlog to the
// pull scheduler, hold/release through the reorder window, ACK every 16
// packets or after 1 ms, NACKs of holes that outlive the paths' learnt skew
// and of holes given up on, duplicate re-ack, busy time in every ACK; a SYN
// for another epoch is challenged, not taken, until a FIN disowns the old).
#pragma once

#include <cstdint>

#include "app.h"
#include "epoch.h"
#include "grant.h"
#include "rx.h"
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
	// A control packet to send once the decision is made (ctrl_msg).
	struct CtrlMsg {
		uint8_t flags = 0;
		uint8_t path = 0;
		uint32_t ack = 0;
		uint64_t sack = 0;
	};
	// An acknowledgment (which may carry the first NACK) and NACKs of
	// further holes, which acknowledge nothing (rx_tunnel.c's ack_plan).
	struct AckPlan {
		bool send = false;
		uint32_t nnacks = 0;
		uint32_t epoch = 0;
		CtrlMsg ack;
		CtrlMsg nack[8];
	};
	struct Held {
		AppData app;
		bool used;
	};

	void plan(AckPlan *a, uint8_t extra, uint32_t ack, uint64_t sack);
	void plan_ack(AckPlan *a);
	void plan_nack(AckPlan *a, uint32_t seq, uint64_t sack);
	void send_ctrl(uint32_t epoch, const CtrlMsg &m);
	void send_acks(const AckPlan &a);
	void release(SimTime now, AckPlan *ack);
	void new_epoch(uint32_t epoch);
	void demand(uint16_t pull_target);
	void deliver(const AppData &app, bool late);
	void arm_timer(SimTime when);
	void on_timer();

	Host &host_;
	uint32_t peer_;
	RxCore core_;
	struct eqds_epoch_guard guard_;	// who may replace rx.epoch (core/epoch.h)
	Held held_[EQDS_RX_SLOTS];
	uint8_t path_ = 0;
	uint64_t epoch_rx_bytes_ = 0;
	Timer timer_;
};

}  // namespace eqdssim
