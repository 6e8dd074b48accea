// SPDX-License-Identifier: GPL-2.0
/*
 * grant.c - the pull pacer's runs and PULL packets, around the scheduler
 * (pacer.c).
 */
#include "grant.h"

#define EQDS_NS_PER_SEC		1000000000u

u64 eqds_pacer_rate(u64 pull_bps, u64 link_bps, u32 headroom, u64 bound_bps)
{
	u64 bps = pull_bps;

	if (!bps)
		bps = eqds_div_u64(link_bps * (100 - eqds_min_u32(headroom, 100)), 100);
	if (bound_bps)
		bps = eqds_min_u64(bps, bound_bps);
	return bps;
}

u32 eqds_pacer_max_burst(u64 rate_bps, u32 quantum)
{
	/* Bytes at the rate over EQDS_PACER_LATE_NS, a fraction of a second. */
	u64 late = eqds_div_u64(rate_bps >> 3, EQDS_NS_PER_SEC / EQDS_PACER_LATE_NS);

	late = eqds_max_u64(late, (u64)EQDS_SCHED_TURN_QUANTA * quantum);
	return (u32)eqds_min_u64(late, 0xffffffffu);
}

void eqds_pacer_set_rate(struct eqds_sched *s, struct eqds_cc *cc, u64 rate_bps,
			 bool react, u64 now_ns)
{
	eqds_cc_set_max(cc, rate_bps);
	eqds_sched_set_rate(s, react ? eqds_cc_rate(cc) : rate_bps, now_ns);
	s->max_burst = eqds_pacer_max_burst(rate_bps, s->quantum);
}

bool eqds_pacer_wake(struct eqds_sched *s, bool *armed, u64 now_ns)
{
	if (*armed)
		return false;
	*armed = true;
	eqds_sched_advance(s, now_ns);
	return true;
}

void eqds_pacer_observe(struct eqds_sched *s, struct eqds_cc *cc, u64 bytes,
			u64 ce_bytes, u64 now_ns)
{
	if (eqds_cc_observe(cc, bytes, ce_bytes, now_ns))
		eqds_sched_set_rate(s, eqds_cc_rate(cc), now_ns);
}

/* The receive state a node on the active sender list is part of. */
static struct eqds_rx *eqds_rx_of_asl(struct eqds_asl_node *n)
{
	return (struct eqds_rx *)((u8 *)n - offsetof(struct eqds_rx, asl));
}

void eqds_pacer_run(struct eqds_sched *s, u64 now_ns, u64 min_ns,
		    struct eqds_pacer_plan *out)
{
	struct eqds_asl_node *node;

	out->ngrants = 0;
	eqds_sched_advance(s, now_ns);
	out->late_bytes = s->late_bytes;
	s->late_bytes = 0;
	while (out->ngrants < EQDS_PACER_GRANTS && (node = eqds_sched_peek(s))) {
		struct eqds_rx *rx = eqds_rx_of_asl(node);
		u32 want = eqds_pullgen_outstanding(&rx->pulls);
		u32 q = eqds_sched_quanta(s, node, want);
		struct eqds_grant *g;

		if (!q) {
			/* Nothing wanted: off the list. Else it passes its turn. */
			eqds_sched_granted(s, node, 0, want);
			if (want)
				break;
			continue;
		}
		g = &out->grant[out->ngrants++];
		g->rx = rx;
		g->epoch = rx->epoch;
		g->quanta = q;
		g->pull_no = eqds_pullgen_grant(&rx->pulls, q);
		eqds_sched_set_backlog(s, node, want - q);
		eqds_sched_granted(s, node, q, want - q);
	}
	/*
	 * Once per run, not per data packet (a division): new demand starts
	 * a run, so what is advertised is at most one run old.
	 */
	out->busy_us = eqds_sched_busy_us(s);
	out->rearm = s->active != 0;
	out->next_ns = now_ns + eqds_max_u64(eqds_sched_next_ns(s, now_ns), min_ns);
}

bool eqds_grant_pull(struct eqds_rx *rx, const struct eqds_grant *g, u32 quantum,
		     u16 busy_us, u8 *path, struct eqds_pkt *pkt)
{
	if (rx->epoch != g->epoch)
		return false;
	memset(pkt, 0, sizeof(*pkt));
	pkt->type = EQDS_TYPE_CTRL;
	pkt->hlen = EQDS_CTRL_HLEN;
	pkt->flags = EQDS_F_SYN | EQDS_F_ACK | EQDS_F_PULL;
	pkt->epoch = g->epoch;
	pkt->path_id = eqds_paths_next_clear(rx->avoid, path);
	eqds_rx_echo_ce(rx, &pkt->next_proto, &pkt->path_id);
	pkt->ctrl.ack = rx->rcv_nxt;
	pkt->ctrl.sack = eqds_rx_sack(rx);
	if (pkt->ctrl.sack)
		pkt->flags |= EQDS_F_SACK;
	pkt->ctrl.pull_no = g->pull_no;
	pkt->ctrl.quantum = (u16)(quantum >> EQDS_QUANTUM_SHIFT);
	pkt->ctrl.busy_us = busy_us;
	rx->since_ack = 0;
	return true;
}
