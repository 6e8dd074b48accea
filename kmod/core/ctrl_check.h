/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctrl_check.h - is a control packet believable for a sending tunnel?
 *
 * Control packets steer the sender: acks free what was sent, pulls grant
 * credit, RSTs restart the tunnel. Anyone who can send a UDP packet with the
 * receiver's address as its source can send one. The epoch, chosen by the
 * sender and carried by every packet of the tunnel, is what an off-path
 * attacker does not know; the numbers must then be possible ones, or the
 * packet is dropped whole before it changes anything:
 *  - an ack may not acknowledge what was never sent (beyond snd_nxt);
 *  - a pull may not jump more than EQDS_PULL_JUMP_WINDOWS windows of quanta
 *    ahead of the highest pull seen. An honest receiver is at most about two
 *    windows ahead (one window of demand plus the pulls in flight); a pull
 *    far ahead would otherwise be taken as the new highest pull number, and
 *    every honest pull after it would be stale: the sender would starve.
 * A pull behind the highest one is an honest, reordered pull: it is valid
 * and grants nothing (credit.c).
 */
#ifndef _EQDS_CORE_CTRL_CHECK_H
#define _EQDS_CORE_CTRL_CHECK_H

#include "platform.h"
#include "wire.h"
#include "tx.h"

#define EQDS_PULL_JUMP_WINDOWS	4

enum eqds_ctrl_verdict {
	EQDS_CTRL_OK,
	EQDS_CTRL_STALE,	/* for another epoch than the tunnel's */
	EQDS_CTRL_BAD_ACK,	/* acknowledges what was never sent */
	EQDS_CTRL_BAD_PULL,	/* pull number implausibly far ahead */
};

enum eqds_ctrl_verdict eqds_tx_ctrl_verdict(const struct eqds_tx *tx,
					    const struct eqds_pkt *pkt);

#endif /* _EQDS_CORE_CTRL_CHECK_H */
