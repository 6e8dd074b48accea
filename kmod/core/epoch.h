/* SPDX-License-Identifier: GPL-2.0 */
/*
 * epoch.h - who may replace the epoch a receiving tunnel follows.
 *
 * A sender's epoch names one incarnation of its tunnel, and a data packet
 * with SYN for another epoch is how a new incarnation announces itself. If
 * such a packet simply replaced the receiver's epoch, anyone able to spoof
 * the sender's address could reset the tunnel: the real sender's next
 * packets draw RSTs, and if its new epoch compares older than the forged
 * one it is refused until the tunnel idles out.
 *
 * So, in the spirit of TCP's challenge ACK (RFC 5961), once a tunnel
 * follows an epoch a SYN for another one does not replace it. It is dropped
 * and answered with a challenge: an ordinary ACK for the *current* epoch,
 * sent to the sender's address, at most once per EQDS_EPOCH_CHALLENGE_NS
 * per tunnel. Only the real sender sees it, and what it does depends on
 * what it is:
 *  - still in that epoch: the ACK is one more acknowledgment, and the SYN
 *    was forged or a straggler of an older incarnation; nothing changes;
 *  - in a new epoch it has not had confirmed (it restarted, lost its tunnel,
 *    or the module was reloaded): the challenge names an epoch that is no
 *    longer its own, and it disowns it with a FIN for that epoch
 *    (eqds_epoch_answer). The receiver takes the FIN only for the epoch it
 *    follows (eqds_epoch_fin); from then on the next SYN of any other epoch
 *    begins a new one.
 * An off-path attacker never sees the challenge, and forging the FIN needs
 * the current epoch: the same secret a forged RST needs at the sender.
 *
 * The receiver's pulls and acks for the old epoch reach a restarted sender
 * too, and are answered the same way, so a restart is usually disowned
 * before the new incarnation's first SYN arrives.
 */
#ifndef _EQDS_CORE_EPOCH_H
#define _EQDS_CORE_EPOCH_H

#include "platform.h"
#include "wire.h"
#include "tx.h"

/*
 * At most one challenge per receiving tunnel, and one FIN per sending
 * tunnel, in this long: a flood of forged SYNs costs the real sender at most
 * a thousand extra acks a second, and a restarted sender needs only one.
 */
#define EQDS_EPOCH_CHALLENGE_NS	1000000ull

/* One event per interval at most. */
struct eqds_ratelimit {
	u64	last_ns;
	bool	used;		/* last_ns is valid */
};

/*
 * True, and the interval restarts, if the last event allowed was at least
 * interval_ns ago (or there was none).
 */
bool eqds_ratelimit_ok(struct eqds_ratelimit *rl, u64 now_ns, u64 interval_ns);

/* The receiving side's view of its sender's epochs. */
struct eqds_epoch_guard {
	bool	disowned;	/* the sender disowned the current epoch (FIN) */
	bool	answered;	/* a packet of the current epoch came without SYN */
	struct eqds_ratelimit	challenge;
};

enum eqds_epoch_verdict {
	EQDS_EPOCH_CURRENT,	/* the tunnel's epoch: go on */
	EQDS_EPOCH_BEGIN,	/* a SYN that begins a new epoch: reset to it */
	EQDS_EPOCH_UNKNOWN,	/* not a SYN, not the tunnel's epoch: drop, RST */
	EQDS_EPOCH_DISOWNED,	/* the tunnel's epoch, disowned: drop (stale) */
	EQDS_EPOCH_CHALLENGE,	/* SYN for another epoch: drop, challenge */
	EQDS_EPOCH_REFUSED,	/* the same, a challenge is out already: drop */
};

void eqds_epoch_guard_init(struct eqds_epoch_guard *g);

/*
 * A data packet of epoch, with SYN or not, for a tunnel that follows the
 * epoch followed (0: none yet, the tunnel is new). On EQDS_EPOCH_BEGIN the caller
 * resets the tunnel to epoch and calls eqds_epoch_guard_init(). A packet of
 * the current epoch without SYN marks the guard answered.
 */
enum eqds_epoch_verdict eqds_epoch_data(struct eqds_epoch_guard *g,
					u32 followed, u32 epoch, bool syn,
					u64 now_ns);

/*
 * Is a receiving tunnel half open: what a spoofed SYN leaves behind, or a
 * sender that went away before it heard from us? Yes while it follows no
 * epoch, or while its sender has not shown that it heard us (answered: a
 * sender sets SYN on every packet until our acknowledgment confirms its
 * epoch, core/tx.h) and no more than the epoch's first packet was delivered
 * (rcv_nxt within EQDS_MAX_SEGS of its first seq). The caller reaps half
 * open tunnels sooner than idle ones. A short flow whose sender heard us
 * is not half open however few packets it sent, so it does not lose its
 * tunnel between two flows and restart. A spoofer who knows the epoch it
 * chose can send a packet without SYN just as it can send a second
 * packet: this tells the soft state of a dead sender from a live one, and
 * the creation limits bound what forgery costs.
 */
bool eqds_epoch_half_open(bool answered, u32 followed, u32 rcv_nxt);

/*
 * A FIN from the sender for epoch. True if it disowns the epoch the tunnel
 * follows (followed): the tunnel must stop pulling for it and drop what it
 * holds. False for any other epoch, or one disowned already: stale.
 */
bool eqds_epoch_fin(struct eqds_epoch_guard *g, u32 followed, u32 epoch);

/*
 * The sending side: a control packet the sender's ctrl_check found stale
 * (another epoch than the tunnel's). Is it a challenge to disown? Only an
 * acknowledgment (ACK) of an epoch other than the current one, while the
 * current one is unconfirmed (a confirmed sender and its receiver agree on
 * the epoch; what else arrives is a straggler or forged), and at most once
 * per EQDS_EPOCH_CHALLENGE_NS (rl). Then *fin is the FIN to send: a data
 * packet without payload for the challenged epoch, whose seq echoes the
 * challenge's ack.
 */
bool eqds_epoch_answer(struct eqds_ratelimit *rl, const struct eqds_tx *tx,
		       const struct eqds_pkt *ctrl, u64 now_ns,
		       struct eqds_pkt *fin);

#endif /* _EQDS_CORE_EPOCH_H */
