// SPDX-License-Identifier: GPL-2.0
// A simulated host's EQDS settings. The first group are the module's
// configuration (uapi/linux/eqds.h defaults, set with eqdsctl); the second
// are constants of the kernel glue, copied here with the file they come
// from, because kmod/*.c cannot be included in userspace. If the glue
// changes one of them, change it here too.
#pragma once

#include <cstdint>
#include <linux/eqds.h>

#include "congestion.h"
#include "grant.h"
#include "paths.h"
#include "rxq.h"
#include "txq.h"

#include "event_queue.h"

namespace eqdssim {

struct EqdsConfig {
	// Module configuration.
	uint32_t window_pkts = EQDS_DEFAULT_WINDOW;	// credit window, packets
	uint32_t queue_limit = EQDS_DEFAULT_QUEUE_LIMIT;	// per-destination queue
	bool burst_mode = false;			// EQDS_MODE_BURST
	uint64_t pull_rate_bps = 0;			// 0: the host link less headroom
	uint32_t headroom = EQDS_DEFAULT_HEADROOM;	// percent
	// What small packets may borrow per sending tunnel, bytes (core/tx.h;
	// the module's parameter small_overdraft).
	uint32_t small_overdraft = 1536;
	// The most link time of a sender's turn at the pull pacer
	// (core/pacer.h, eqds_sched_set_turn(); the module's parameter
	// pull_turn_us, 50 us there). 0 here: a hardware receiver, for which
	// a pull costs next to nothing, pulls 8 quanta at a time at any rate,
	// the smoothest arrivals at the last switch.
	SimTime pull_turn = 0;
	// Spray around path ids that lost or had marked a packet
	// (core/paths.h; the module's parameter path_choice).
	bool path_choice = true;
	// The receiver's reaction to CE marks (core/congestion.h): off by
	// default, as in the module (kmod/pull.c, module parameter core_cc).
	bool cc = false;
	struct eqds_cc_params cc_params = { EQDS_CC_INTERVAL_NS, EQDS_CC_G_SHIFT,
					    EQDS_CC_AI_DIV, EQDS_CC_MIN_DIV };

	// kmod/pull.h; the timer floor is core/grant.h's, an option here
	uint32_t quantum = 1536;			// EQDS_QUANTUM
	SimTime pacer_min_interval = EQDS_PACER_MIN_NS;
	// kmod/core/txq.h (an option here)
	SimTime rto_min = EQDS_TXQ_RTO_MIN_NS;
	// The receiver's timeouts and ack policy: the core's (core/rxq.h)
	struct eqds_rxq_cfg rxq = eqds_rxq_defaults;
};

}  // namespace eqdssim
