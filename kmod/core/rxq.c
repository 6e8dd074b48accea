// SPDX-License-Identifier: GPL-2.0
/*
 * rxq.c - the receiving tunnel's decisions: epoch admission, acknowledgment
 * and NACK plans, release and the timer.
 */
#include "rxq.h"
#include "seq.h"
#include "wire.h"

const struct eqds_rxq_cfg eqds_rxq_defaults = {
	EQDS_RXQ_REORDER_TIMEOUT_NS,
	EQDS_RXQ_ACK_DELAY_NS,
	EQDS_RXQ_ACK_EVERY,
	EQDS_RXQ_NACK_BURST,
};

void eqds_rxq_ctrl_pkt(const struct eqds_rxq_ctrl *m, u32 epoch, struct eqds_pkt *pkt)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->type = EQDS_TYPE_CTRL;
	pkt->hlen = EQDS_CTRL_HLEN;
	pkt->flags = m->flags;
	pkt->epoch = epoch;
	pkt->path_id = m->path;
	pkt->next_proto = m->opts;
	pkt->ctrl.ack = m->ack;
	pkt->ctrl.sack = m->sack;
}

void eqds_rxq_rst_pkt(u32 epoch, struct eqds_pkt *pkt)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->type = EQDS_TYPE_CTRL;
	pkt->hlen = EQDS_CTRL_HLEN;
	pkt->flags = EQDS_F_RST;
	pkt->epoch = epoch;
}

u32 eqds_rxq_plan_nacks(const struct eqds_rxq_plan *p)
{
	return p->nnacks + (p->send && (p->ack.flags & EQDS_F_NACK) ? 1 : 0);
}

u64 eqds_rxq_commit(const struct eqds_rxq_plan *p, u8 *path, u64 *nacks, u64 *skipped)
{
	*path = p->path;
	if (nacks)
		*nacks += eqds_rxq_plan_nacks(p);
	if (skipped)
		*skipped += p->skipped;
	return p->timer_ns;
}

/*
 * The acknowledgment: the cumulative ack and the holes after it. A later
 * plan replaces an earlier one of the same event; each takes a path id,
 * except one that keeps an earlier plan's echo (and its path id).
 */
static void plan(struct eqds_rx *rx, struct eqds_rxq_plan *p, u8 extra, u32 ack,
		 u64 sack)
{
	p->epoch = rx->epoch;
	p->ack.flags = EQDS_F_SYN | EQDS_F_ACK | extra | (sack ? EQDS_F_SACK : 0);
	p->ack.ack = ack;
	p->ack.sack = sack;
	/*
	 * An echo an earlier plan of this event took from rx stays: rx has
	 * no copy of it any more.
	 */
	if (!(p->send && (p->ack.opts & EQDS_CO_CE))) {
		p->ack.opts = 0;
		p->ack.path = eqds_paths_next_clear(rx->avoid, &p->path);
		eqds_rx_echo_ce(rx, &p->ack.opts, &p->ack.path);
	}
	p->send = true;
	rx->since_ack = 0;
}

static void plan_ack(struct eqds_rx *rx, struct eqds_rxq_plan *p)
{
	plan(rx, p, 0, rx->rcv_nxt, eqds_rx_sack(rx));
}

/* A hole beyond rcv_nxt: a NACK that acknowledges nothing. */
static void plan_nack(struct eqds_rx *rx, struct eqds_rxq_plan *p, u32 seq, u64 sack)
{
	struct eqds_rxq_ctrl *m = &p->nack[p->nnacks++];

	p->epoch = rx->epoch;
	m->flags = EQDS_F_NACK | (sack ? EQDS_F_SACK : 0);
	m->ack = seq;
	m->sack = sack;
	m->path = eqds_paths_next_clear(rx->avoid, &p->path);
}

/* Fire at when, unless the timer is due earlier already. */
static void plan_timer(struct eqds_rxq_plan *p, u64 when)
{
	if (!p->timer_ns || when < p->timer_ns)
		p->timer_ns = when;
}

enum eqds_rxq_admit eqds_rxq_admit(struct eqds_rx *rx, struct eqds_epoch_guard *g,
				   u32 epoch, bool syn, u64 now_ns,
				   struct eqds_rxq_plan *p)
{
	switch (eqds_epoch_data(g, rx->epoch, epoch, syn, now_ns)) {
	case EQDS_EPOCH_CURRENT:
		return EQDS_RXQ_TAKE;
	case EQDS_EPOCH_BEGIN:
		return EQDS_RXQ_BEGIN;
	case EQDS_EPOCH_UNKNOWN:
		return EQDS_RXQ_RST;
	case EQDS_EPOCH_DISOWNED:
		return EQDS_RXQ_STALE;
	case EQDS_EPOCH_CHALLENGE:
		/* An ack for our epoch: only its real sender can act on it. */
		plan_ack(rx, p);
		return EQDS_RXQ_REFUSED;
	case EQDS_EPOCH_REFUSED:
	default:
		return EQDS_RXQ_REFUSED;
	}
}

void eqds_rxq_begin(struct eqds_rx *rx, struct eqds_epoch_guard *g,
		    struct eqds_rxq_plan *p)
{
	eqds_epoch_guard_init(g);
	plan_ack(rx, p);
}

u32 eqds_rxq_demand(struct eqds_sched *s, struct eqds_rx *rx, u16 pull_target,
		    bool probe)
{
	u32 want;

	eqds_pullgen_demand(&rx->pulls, pull_target, probe);
	want = eqds_pullgen_outstanding(&rx->pulls);
	eqds_sched_set_backlog(s, &rx->asl, want);
	if (want)
		eqds_sched_activate(s, &rx->asl);
	return want;
}

enum eqds_rx_verdict eqds_rxq_data(struct eqds_rx *rx, u32 seq, u32 nsegs,
				   bool retransmit, u64 now_ns,
				   struct eqds_rxq_plan *p)
{
	enum eqds_rx_verdict v = eqds_rx_packet(rx, seq, nsegs, retransmit, now_ns);

	if (v == EQDS_RX_DUP)
		plan_ack(rx, p);
	return v;
}

bool eqds_rxq_release(struct eqds_rx *rx, const struct eqds_rxq_cfg *cfg,
		      u64 now_ns, struct eqds_rxq_plan *p, u32 *seq)
{
	u32 from = rx->rcv_nxt;
	u64 before = rx->stats.skipped;

	p->last_skipped = 0;
	if (!eqds_rx_release(rx, now_ns, cfg->reorder_timeout_ns, seq))
		return false;
	p->last_skipped = (u32)(rx->stats.skipped - before);
	p->skipped += p->last_skipped;
	/* A release that skipped a hole started at the old rcv_nxt. */
	if (p->last_skipped && !p->gave_up) {
		p->gave_up = true;
		p->first_missing = from;
	}
	return true;
}

void eqds_rxq_done(struct eqds_rx *rx, const struct eqds_rxq_cfg *cfg,
		   u64 now_ns, bool timer, struct eqds_rxq_plan *p)
{
	u64 tmo = cfg->reorder_timeout_ns, sack, when, nack_when;
	u32 burst = eqds_min_u32(cfg->nack_burst, EQDS_RXQ_NACK_BURST), seq;

	if (p->gave_up)
		plan(rx, p, EQDS_F_NACK, p->first_missing, 0);
	while (p->nnacks < burst && eqds_rx_nack(rx, now_ns, tmo, &seq, &sack)) {
		/* The hole at rcv_nxt: the acknowledgment names it. */
		if (seq == rx->rcv_nxt && !p->gave_up)
			plan(rx, p, EQDS_F_NACK, seq, sack);
		else
			plan_nack(rx, p, seq, sack);
	}
	if (rx->nheld) {
		when = eqds_rx_deadline(rx, tmo);
		nack_when = eqds_rx_nack_deadline(rx, tmo);
		plan_timer(p, nack_when ? eqds_min_u64(when, nack_when) : when);
	}
	if (p->send || !rx->since_ack)
		return;
	if (timer || rx->since_ack >= cfg->ack_every)
		plan_ack(rx, p);
	else
		plan_timer(p, now_ns + cfg->ack_delay_ns);
}
