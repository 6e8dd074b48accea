// SPDX-License-Identifier: GPL-2.0
// A host's pull pacer: what kmod/pull.c does around the core
// (core/grant.h): a timer that runs eqds_pacer_run() no more often than
// the floor (10 us, the module's), and sends the PULLs it grants.
#pragma once

#include <cstdint>

#include "congestion.h"
#include "grant.h"
#include "pacer.h"
#include "timer.h"

namespace eqdssim {

class Host;

class PullPacer {
public:
	explicit PullPacer(Host &host);

	// Set the rate from the configuration or the link (eqds_pacer_rate()).
	void configure();
	// A sender joined the list: make sure the pacer runs (pull.c's
	// eqds_pacer_kick(), around eqds_pacer_wake()).
	void kick();
	// The busy time every control packet advertises (en->busy_us), kept
	// up to date from the scheduler's backlog.
	void update_busy() { busy_us_ = eqds_sched_busy_us(&sched_); }
	uint16_t busy_us() const { return busy_us_; }
	// A data packet arrived (CE-marked or not): counted in the totals that
	// the next run passes the congestion reaction (socket.c's counters).
	void data_arrived(uint32_t bytes, bool ce);
	const struct eqds_cc &cc() const { return cc_; }
	uint64_t rate_bps() const { return sched_.rate_bps; }
	uint64_t max_rate_bps() const { return max_bps_; }
	struct eqds_sched &sched() { return sched_; }
	const struct eqds_sched &sched() const { return sched_; }

private:
	void run();	// pull.c's pacer_fn()

	Host &host_;
	struct eqds_sched sched_;
	struct eqds_cc cc_;
	uint64_t max_bps_ = 0;	// the configured rate, the reaction's ceiling
	uint64_t arrived_bytes_ = 0;	// data bytes arrived, running total
	uint64_t ce_bytes_ = 0;	// ... of which CE-marked
	bool armed_ = false;
	uint16_t busy_us_ = 0;
	Timer timer_;
};

}  // namespace eqdssim
