// SPDX-License-Identifier: GPL-2.0
// Per-host counters, named after the module's (Documentation/counters.rst)
// where one exists, plus what only a simulator can see.
#pragma once

#include <cstdint>

namespace eqdssim {

struct HostCounters {
	uint64_t tx_data = 0;		// data packets sent, retransmissions included
	uint64_t retransmits = 0;
	uint64_t timeouts = 0;
	uint64_t rts_sent = 0;
	uint64_t restarts = 0;
	uint64_t rsts_sent = 0, rsts_rcvd = 0;
	uint64_t nacks_sent = 0, nacks_rcvd = 0;
	uint64_t acks_sent = 0;
	uint64_t fins_sent = 0, fins_rcvd = 0;	// epochs disowned (core/epoch.h)
	uint64_t challenges_sent = 0;	// ACKs answering a SYN for another epoch
	uint64_t drop_epoch = 0;	// data for an epoch being challenged
	uint64_t pulls_sent = 0, pull_quanta_sent = 0, pulls_rcvd = 0;
	uint64_t credit_refused = 0;	// control packets that refused some credit
	uint64_t ring_full = 0;		// sends blocked with credit held: EQDS_TX_SLOTS in flight
	uint64_t drop_queue_full = 0;	// EQIF tail drops
	uint64_t drop_ctrl = 0;		// control packets failing eqds_tx_ctrl_verdict()
	uint64_t drop_stale = 0, drop_unknown = 0, drop_dup = 0, drop_window = 0;
	uint64_t drop_trimmed = 0;	// trimmed headers: the core has no use for them
	uint64_t decode_errors = 0;
	uint64_t reorder_held = 0, reorder_late = 0, reorder_skipped = 0;
	uint64_t rx_delivered = 0;
	uint64_t ce_rcvd = 0;
	// Path choice (core/paths.h): ids penalised, packets sent around them,
	// penalties refused at the cap.
	uint64_t path_penalties = 0, path_repaths = 0, path_ignored = 0;
	uint32_t max_reorder_depth = 0;	// most packets one tunnel held at once

	void add(const HostCounters &o);
};

}  // namespace eqdssim
