// SPDX-License-Identifier: GPL-2.0
/*
 * The receiver's pull pacer: one hrtimer per namespace (the receiving host)
 * grants credit to the senders on the active sender list at the host's link
 * rate, in PULL packets. The core (core/pacer.h) computes what is due from
 * the time elapsed, so a late timer neither lowers the rate nor bursts, up
 * to a bound; what a later timer loses is counted (pacer_late_bytes).
 *
 * The timer is a soft hrtimer. Its work waits for ksoftirqd when that runs
 * (irq_exit() leaves it every softirq but HI and TASKLET), which makes it
 * late on a busy host. A hard timer scheduling a HI tasklet was tried: it
 * ran half as often again, but in the emulated incast the switch's drops
 * rose two- to threefold (its tbf drains in NET_TX softirq, which still
 * waited) for no more goodput. Documentation/eqds.rst, "The pull pacer".
 *
 * The rate is the configured pull_rate or, when that is 0, the speed of the
 * device EQDS data arrives on (refreshed once a second in process context,
 * since reading it needs RTNL), less the configured headroom (5% by
 * default), which lets the last switch queue drain: credit already counts
 * link time, Ethernet framing included (core/tx.h, eqds_tx_cost()). The
 * host's bound on the namespace (policy.c) caps the result.
 */
#include <linux/netdevice.h>
#include <linux/ethtool.h>
#include <linux/rtnetlink.h>
#include <linux/math64.h>
#include "eqds.h"
#include "netns.h"
#include "tunnel.h"
#include "tunnels.h"
#include "pull.h"
#include "xmit.h"

#define EQDS_PACER_MIN_NS	(10 * NSEC_PER_USEC)
/*
 * The most credit one timer expiry may grant: what accrues at the rate over
 * a late expiry (up to 1 ms), and never less than one sender's turn. A
 * larger bound turns a late timer into a burst that a shallow switch buffer
 * in front of the receiver cannot take.
 */
#define EQDS_PACER_LATE_NS	(1000 * NSEC_PER_USEC)
#define EQDS_PACER_MIN_BURST	(EQDS_SCHED_MAX_QUANTA * EQDS_QUANTUM)
#define EQDS_GRANTS_PER_RUN	16
#define EQDS_DEFAULT_LINK_MBIT	10000

struct grant {
	struct eqds_rxt *t;
	u32 pull_no;
	u32 epoch;
};

static void send_pull(struct eqds_net *en, const struct grant *g)
{
	struct eqds_rxt *t = g->t;
	struct eqds_pkt pkt = {};
	struct eqds_addr local;

	spin_lock_bh(&t->lock);
	if (t->dead || t->rx.epoch != g->epoch) {
		spin_unlock_bh(&t->lock);
		return;
	}
	pkt.ctrl.ack = t->rx.rcv_nxt;
	pkt.ctrl.sack = eqds_rx_sack(&t->rx);
	pkt.path_id = t->path++;
	t->rx.since_ack = 0;
	local = t->local;
	t->counters.pulls++;
	trace_eqds_pull(t->en->net->ns.inum, t->id, &t->peer, g->epoch, g->pull_no);
	spin_unlock_bh(&t->lock);

	pkt.type = EQDS_TYPE_CTRL;
	pkt.hlen = EQDS_CTRL_HLEN;
	pkt.flags = EQDS_F_SYN | EQDS_F_ACK | EQDS_F_PULL;
	if (pkt.ctrl.sack)
		pkt.flags |= EQDS_F_SACK;
	pkt.epoch = g->epoch;
	pkt.ctrl.pull_no = g->pull_no;
	pkt.ctrl.quantum = EQDS_QUANTUM / 64;
	pkt.ctrl.busy_us = READ_ONCE(en->busy_us);
	if (eqds_xmit_ctrl(en, &local, &t->peer, &pkt) == 0)
		eqds_count(en, EQDS_STATS_A_PULLS_SENT);
}

static enum hrtimer_restart pacer_fn(struct hrtimer *timer)
{
	struct eqds_net *en = container_of(timer, struct eqds_net, pacer);
	struct grant g[EQDS_GRANTS_PER_RUN];
	struct eqds_asl_node *node;
	u64 now = ktime_get_ns();
	int n = 0, i;

	rcu_read_lock();
	spin_lock_bh(&en->sched_lock);
	eqds_sched_advance(&en->sched, now);
	eqds_count(en, EQDS_STATS_A_PACER_RUNS);
	if (en->sched.late_bytes) {
		eqds_stats_add(en->stats, EQDS_STATS_A_PACER_LATE_BYTES, en->sched.late_bytes);
		en->sched.late_bytes = 0;
	}
	while (n < EQDS_GRANTS_PER_RUN && (node = eqds_sched_peek(&en->sched))) {
		struct eqds_rxt *t = container_of(node, struct eqds_rxt, rx.asl);
		u32 want = eqds_pullgen_outstanding(&t->rx.pulls);
		u32 q = eqds_sched_quanta(&en->sched, node, want);

		if (!q) {
			eqds_sched_granted(&en->sched, node, 0, want);
			if (want)
				break;
			continue;
		}
		g[n].t = t;
		g[n].epoch = t->rx.epoch;
		g[n].pull_no = eqds_rxt_pull_grant(t, q);
		eqds_sched_set_backlog(&en->sched, node, want - q);
		eqds_sched_granted(&en->sched, node, q, want - q);
		n++;
	}
	/*
	 * Once per run, not per data packet (a division under the shared
	 * lock): new demand kicks the pacer, so this is at most one run old.
	 */
	WRITE_ONCE(en->busy_us, eqds_sched_busy_us(&en->sched));
	if (en->sched.active && !READ_ONCE(en->exiting)) {
		u64 next = max_t(u64, eqds_sched_next_ns(&en->sched, now), EQDS_PACER_MIN_NS);

		hrtimer_start(&en->pacer, ns_to_ktime(now + next), HRTIMER_MODE_ABS_SOFT);
	} else {
		en->pacer_armed = false;
	}
	spin_unlock_bh(&en->sched_lock);

	for (i = 0; i < n; i++)
		send_pull(en, &g[i]);
	rcu_read_unlock();
	return HRTIMER_NORESTART;
}

/* A sender joined the list: make sure the pacer runs. Holds sched_lock. */
void eqds_pacer_kick(struct eqds_net *en)
{
	lockdep_assert_held(&en->sched_lock);
	if (en->pacer_armed || READ_ONCE(en->exiting))
		return;
	en->pacer_armed = true;
	/* Idle until now: start the clock afresh so no credit was saved up. */
	eqds_sched_advance(&en->sched, ktime_get_ns());
	hrtimer_start(&en->pacer, 0, HRTIMER_MODE_REL_SOFT);
}

static u64 link_rate_bps(struct eqds_net *en)
{
	struct ethtool_link_ksettings ks;
	struct net_device *dev;
	u64 mbit = EQDS_DEFAULT_LINK_MBIT;
	int ifindex = READ_ONCE(en->rx_ifindex);

	if (!ifindex)
		return mbit * 1000000;
	rtnl_lock();
	dev = __dev_get_by_index(en->net, ifindex);
	if (dev && !__ethtool_get_link_ksettings(dev, &ks) &&
	    ks.base.speed && ks.base.speed != SPEED_UNKNOWN)
		mbit = ks.base.speed;
	rtnl_unlock();
	return mbit * 1000000;
}

static u32 max_burst(u64 bps)
{
	return max_t(u64, EQDS_PACER_MIN_BURST,
		     div_u64(bps / 8 * EQDS_PACER_LATE_NS, NSEC_PER_SEC));
}

/*
 * The receiver's reaction to core congestion (core/congestion.h; eqds.rst,
 * "Core congestion"), for every namespace when the module is loaded with
 * core_cc=1: CE marks on arriving data lower the pull rate, DCTCP-like, down
 * to 1/64 of the rate below. Off by default: it takes sched_lock for every
 * data packet, and it has run in the simulator, not yet in the selftests.
 */
bool eqds_core_cc;
module_param_named(core_cc, eqds_core_cc, bool, 0444);
MODULE_PARM_DESC(core_cc, "Lower the pull rate on CE-marked data (core congestion); default off");

void __eqds_pull_data(struct eqds_net *en, u32 bytes, bool ce)
{
	u64 now = ktime_get_ns();

	spin_lock_bh(&en->sched_lock);
	if (eqds_cc_data(&en->cc, bytes, ce, now))
		eqds_sched_set_rate(&en->sched, eqds_cc_rate(&en->cc), now);
	spin_unlock_bh(&en->sched_lock);
}

static void update_rate(struct eqds_net *en)
{
	const struct eqds_config *cfg;
	u32 mbit, headroom, bound;
	u64 bps;

	rcu_read_lock();
	cfg = rcu_dereference(en->config);
	mbit = cfg->pull_rate_mbit;
	headroom = cfg->headroom;
	bound = cfg->bound.pull_rate_mbit;
	rcu_read_unlock();
	bps = mbit ? (u64)mbit * 1000000 :
		     div_u64(link_rate_bps(en) * (100 - headroom), 100);
	/* The host's bound on this namespace (policy.c) holds over both. */
	if (bound)
		bps = min_t(u64, bps, (u64)bound * 1000000);
	if (bps == en->link_rate_bps)
		return;
	spin_lock_bh(&en->sched_lock);
	en->link_rate_bps = bps;
	eqds_cc_set_max(&en->cc, bps);
	eqds_sched_set_rate(&en->sched, eqds_core_cc ? eqds_cc_rate(&en->cc) : bps,
			    ktime_get_ns());
	en->sched.max_burst = max_burst(bps);
	spin_unlock_bh(&en->sched_lock);
}

static void rate_work(struct work_struct *work)
{
	struct eqds_net *en = container_of(to_delayed_work(work), struct eqds_net, rate_work);

	update_rate(en);
	if (!READ_ONCE(en->exiting))
		schedule_delayed_work(&en->rate_work, HZ);
}

void eqds_pull_config_changed(struct eqds_net *en)
{
	update_rate(en);
}

void eqds_pull_init(struct eqds_net *en)
{
	struct eqds_cc_params ccp;

	spin_lock_init(&en->sched_lock);
	eqds_cc_default_params(&ccp);
	eqds_cc_init(&en->cc, &ccp, (u64)EQDS_DEFAULT_LINK_MBIT * 1000000);
	eqds_sched_init(&en->sched, (u64)EQDS_DEFAULT_LINK_MBIT * 1000000, EQDS_QUANTUM,
			max_burst((u64)EQDS_DEFAULT_LINK_MBIT * 1000000), ktime_get_ns());
	hrtimer_init(&en->pacer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	en->pacer.function = pacer_fn;
	INIT_DELAYED_WORK(&en->rate_work, rate_work);
	update_rate(en);
	schedule_delayed_work(&en->rate_work, HZ);
}

/* After every tunnel is gone; en->exiting is set. */
void eqds_pull_stop(struct eqds_net *en)
{
	cancel_delayed_work_sync(&en->rate_work);
	hrtimer_cancel(&en->pacer);
}
