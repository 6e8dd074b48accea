// SPDX-License-Identifier: GPL-2.0
#include "host_counters.h"

#include <algorithm>

namespace eqdssim {

void HostCounters::add(const HostCounters &o)
{
	tx_data += o.tx_data;
	retransmits += o.retransmits;
	timeouts += o.timeouts;
	rts_sent += o.rts_sent;
	restarts += o.restarts;
	rsts_sent += o.rsts_sent;
	rsts_rcvd += o.rsts_rcvd;
	nacks_sent += o.nacks_sent;
	nacks_rcvd += o.nacks_rcvd;
	acks_sent += o.acks_sent;
	fins_sent += o.fins_sent;
	fins_rcvd += o.fins_rcvd;
	challenges_sent += o.challenges_sent;
	drop_epoch += o.drop_epoch;
	pulls_sent += o.pulls_sent;
	pull_quanta_sent += o.pull_quanta_sent;
	pulls_rcvd += o.pulls_rcvd;
	credit_refused += o.credit_refused;
	ring_full += o.ring_full;
	drop_queue_full += o.drop_queue_full;
	drop_ctrl += o.drop_ctrl;
	drop_stale += o.drop_stale;
	drop_unknown += o.drop_unknown;
	drop_dup += o.drop_dup;
	drop_window += o.drop_window;
	drop_trimmed += o.drop_trimmed;
	decode_errors += o.decode_errors;
	reorder_held += o.reorder_held;
	reorder_late += o.reorder_late;
	reorder_skipped += o.reorder_skipped;
	rx_delivered += o.rx_delivered;
	ce_rcvd += o.ce_rcvd;
	path_penalties += o.path_penalties;
	path_repaths += o.path_repaths;
	path_ignored += o.path_ignored;
	max_reorder_depth = std::max(max_reorder_depth, o.max_reorder_depth);
}

}  // namespace eqdssim
