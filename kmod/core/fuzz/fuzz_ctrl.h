// SPDX-License-Identifier: GPL-2.0
// A control packet the fuzz input described, kept only if it is one the
// wire can carry: the fields its flags do not cover are cleared, and it
// goes through the real encoder and decoder (fuzz_tx.cc, fuzz_txq.cc).
#ifndef EQDS_FUZZ_CTRL_H
#define EQDS_FUZZ_CTRL_H

#include <cstring>

#include "wire.h"

static inline void fuzz_ctrl_init(struct eqds_pkt *p, u8 flags)
{
	memset(p, 0, sizeof(*p));
	p->type = EQDS_TYPE_CTRL;
	p->hlen = EQDS_CTRL_HLEN;
	p->flags = flags;
}

static inline bool fuzz_ctrl_codec(struct eqds_pkt *p, struct eqds_pkt *out)
{
	u8 buf[EQDS_MAX_HLEN];

	if (!(p->flags & (EQDS_F_ACK | EQDS_F_NACK)))
		p->ctrl.ack = 0;
	if (!(p->flags & EQDS_F_PULL))
		p->ctrl.pull_no = p->ctrl.quantum = 0;
	if (!(p->flags & EQDS_F_SACK))
		p->ctrl.sack = 0;
	if (eqds_encode(buf, sizeof(buf), p) != EQDS_CTRL_HLEN)
		return false;
	return eqds_decode(buf, EQDS_CTRL_HLEN, out) == EQDS_CTRL_HLEN;
}

#endif
