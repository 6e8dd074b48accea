// SPDX-License-Identifier: GPL-2.0
// A control packet from the receiver, as the sender's tests see it: built,
// encoded and decoded as on the wire (tx_test.cc, txq_test.cc).
#ifndef EQDS_TESTS_CTRL_PKT_H
#define EQDS_TESTS_CTRL_PKT_H

#include <gtest/gtest.h>

#include "wire.h"

static inline struct eqds_pkt ctrl(u32 epoch, u8 flags, u32 ack = 0, u32 pull_no = 0,
				   u16 quantum = 4096 >> EQDS_QUANTUM_SHIFT, u64 sack = 0)
{
	struct eqds_pkt p, out;
	u8 buf[EQDS_MAX_HLEN];

	memset(&p, 0, sizeof(p));
	p.type = EQDS_TYPE_CTRL;
	p.flags = flags;
	p.epoch = epoch;
	if (flags & EQDS_F_ACK)
		p.ctrl.ack = ack;
	if (flags & EQDS_F_PULL) {
		p.ctrl.pull_no = pull_no;
		p.ctrl.quantum = quantum;
	}
	if (flags & EQDS_F_SACK)
		p.ctrl.sack = sack;
	int n = eqds_encode(buf, sizeof(buf), &p);

	EXPECT_EQ(n, EQDS_CTRL_HLEN) << eqds_decode_err_name(n);
	EXPECT_EQ(eqds_decode(buf, (u32)n, &out), EQDS_CTRL_HLEN);
	return out;
}

#endif
