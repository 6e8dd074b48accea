// SPDX-License-Identifier: GPL-2.0
// One simulation run: build the topology with EQDS hosts, add the
// workload, inject faults, run for the simulated duration (optionally
// draining finite flows afterwards), sampling queues, reorder state and
// credit in circulation as it goes.
#pragma once

#include <array>
#include <memory>
#include <random>
#include <vector>

#include "credit_audit.h"
#include "event_queue.h"
#include "faults.h"
#include "host.h"
#include "network.h"
#include "topology.h"
#include "traffic.h"
#include "workload.h"

namespace eqdssim {

struct ScenarioConfig {
	TopologyConfig topo;
	WorkloadConfig work;
	EqdsConfig eqds;
	EcmpMode ecmp = EcmpMode::kPerPacket;
	uint64_t seed = 1;
	SimTime duration = 10 * kMs;
	SimTime warmup = 0;		// throughput is measured after this
	SimTime sample_interval = 100 * kUs;
	// Keep running after duration until every finite flow is done and
	// every tunnel idle, for at most this long (0: stop at duration).
	SimTime drain = 0;
	std::array<double, (size_t)PacketKind::kCount> loss{};	// per packet kind
	SimTime forget_at = 0;		// a host loses its receive state (0: never)
	uint32_t forget_host = 0;
	SimTime forget_send_at = 0;	// a host loses its sending tunnels (0: never)
	uint32_t forget_send_host = 0;
	// One core link (the last fabric link built: between the last
	// aggregation and core switch of a FatTree, the last leaf and spine
	// of a leaf-spine), both ways: its rate divided by slow_link (1:
	// unchanged), and failing (every packet lost) from fail_link_at on
	// (0: never). Routes do not change: switches keep hashing onto it.
	uint32_t slow_link = 1;
	SimTime fail_link_at = 0;
	bool progress = false;		// report each tenth of the run on stderr
};

// One point of the time series.
struct Sample {
	SimTime t = 0;
	uint32_t max_queue[3] = {};	// by PortRole
	uint64_t credit_in_circulation = 0;	// bytes, all tunnels
	double max_tunnel_circulation = 0;	// worst tunnel, in windows
	uint32_t active_tunnels = 0;	// senders with queued or unacknowledged data
	uint32_t held_packets = 0;	// all reorder buffers
	uint32_t max_held = 0;		// worst reorder buffer
	double mean_pull_rate = 0;	// receivers with tunnels: pull rate / its ceiling
	double min_pull_rate = 0;
};

class Scenario : public EventTarget {
public:
	explicit Scenario(const ScenarioConfig &cfg);
	// The agenda empties first: the hosts' timers need not each search it.
	~Scenario() override { events_.clear(); }
	// Run to the end; returns when done. Wall time is measured.
	void run();
	void fire(uint32_t kind, uint64_t arg) override;

	const ScenarioConfig &config() const { return cfg_; }
	EventQueue &events() { return events_; }
	const EventQueue &events() const { return events_; }
	Network &net() { return *net_; }
	const Network &net() const { return *net_; }
	const Traffic &traffic() const { return *traffic_; }
	// Flows may be added before run() (the workload made its own).
	Traffic &traffic() { return *traffic_; }
	const CreditAudit &audit() const { return audit_; }
	const FaultInjector &faults() const { return faults_; }
	const std::vector<Sample> &samples() const { return samples_; }
	Host &host(uint32_t id) const { return *static_cast<Host *>(net_->host(id)); }
	double wall_seconds() const { return wall_seconds_; }
	SimTime end_time() const { return end_; }
	// Every finite flow finished and every tunnel idle.
	bool quiescent() const;

	// The link slow_link and fail_link_at act on: its two ports.
	std::vector<Port *> core_link() const;

private:
	void sample();

	ScenarioConfig cfg_;
	EventQueue events_;
	CreditAudit audit_;
	FaultInjector faults_;
	HostEnv env_;
	std::unique_ptr<Network> net_;
	std::unique_ptr<Traffic> traffic_;
	std::vector<Sample> samples_;
	double wall_seconds_ = 0;
	SimTime end_ = 0;
};

}  // namespace eqdssim
