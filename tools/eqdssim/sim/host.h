// SPDX-License-Identifier: GPL-2.0
// A simulated host running EQDS: the receive demultiplexer of
// kmod/socket.c (decode, then control packets to the sending tunnel and
// data to the receiving one), the two tunnel tables of kmod/tunnels.c, and
// the pull pacer. Tunnels are created on demand as in the module; they are
// never reaped for idleness (a run is short), but a fault can make the host
// forget its receive state, which is what the RST path exists for.
#pragma once

#include <memory>
#include <random>
#include <unordered_map>

#include "app.h"
#include "credit_audit.h"
#include "eqds_config.h"
#include "eqds_pacer.h"
#include "eqds_receiver.h"
#include "eqds_sender.h"
#include "faults.h"
#include "host_counters.h"
#include "network.h"

namespace eqdssim {

// What every host shares.
struct HostEnv {
	Network *net = nullptr;
	EqdsConfig cfg;
	Application *app = nullptr;
	FaultInjector *faults = nullptr;
	CreditAudit *audit = nullptr;
};

class Host : public Node {
public:
	Host(uint32_t id, HostEnv &env, uint64_t seed);
	bool is_host() const override { return true; }
	void receive(Packet *p) override;

	// The sending tunnel to dst, created on first use.
	SenderTunnel &sender(uint32_t dst);
	SenderTunnel *find_sender(uint32_t dst) const;
	ReceiverTunnel *find_receiver(uint32_t src) const;
	const std::unordered_map<uint32_t, std::unique_ptr<SenderTunnel>> &senders() const
	{
		return senders_;
	}
	const std::unordered_map<uint32_t, std::unique_ptr<ReceiverTunnel>> &receivers() const
	{
		return receivers_;
	}
	// Lose every receiving tunnel, as a reboot or the idle reaper would.
	void forget_receive_state();
	// Lose every sending tunnel and what it held, as a module reload would.
	void forget_send_state();

	// Encode a header into a packet and send it out of the NIC (subject
	// to injected loss).
	void send_packet(uint32_t dst, const struct eqds_pkt &hdr, const AppData *app);

	EventQueue &events() { return env_.net->events(); }
	SimTime now() const { return env_.net->events().now(); }
	const EqdsConfig &cfg() const { return env_.cfg; }
	Application *app() { return env_.app; }
	CreditAudit *audit() { return env_.audit; }
	Network &net() { return *env_.net; }
	Host *peer(uint32_t id) { return static_cast<Host *>(env_.net->host(id)); }
	PullPacer &pacer() { return pacer_; }
	const PullPacer &pacer() const { return pacer_; }
	HostCounters &counters() { return counters_; }
	const HostCounters &counters() const { return counters_; }
	std::mt19937_64 &rng() { return rng_; }
	// The sender's epoch clock: wall time in microseconds (tx_tunnel.c's
	// epoch_clock()); each host's clock has its own offset.
	uint32_t epoch_clock() const;
	// Receive link rate the pacer paces at when no pull rate is configured.
	uint64_t link_rate_bps() const;

	// Data of an epoch this host holds no state for: the sender restarts.
	void send_rst(uint32_t peer, uint32_t epoch);

private:
	void data_rcv(Packet *p, const struct eqds_pkt &pkt);

	HostEnv &env_;
	std::mt19937_64 rng_;
	uint64_t clock_offset_us_;
	HostCounters counters_;
	PullPacer pacer_;
	std::unordered_map<uint32_t, std::unique_ptr<SenderTunnel>> senders_;
	std::unordered_map<uint32_t, std::unique_ptr<ReceiverTunnel>> receivers_;
};

}  // namespace eqdssim
