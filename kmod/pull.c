// SPDX-License-Identifier: GPL-2.0
/*
 * The receiver's pull pacer: one hrtimer per namespace (the receiving host)
 * runs the core's pacer (core/grant.h) and sends the PULL packets it
 * grants. The core computes what is due from the time elapsed, so a late
 * timer neither lowers the rate nor bursts, up to a bound; what a later
 * timer loses is counted (pacer_late_bytes).
 *
 * The timer is a soft hrtimer: its work waits for ksoftirqd when that runs,
 * so it is late on a busy host. Why it is not a hard one:
 * Documentation/eqds.rst, "The pull pacer".
 *
 * The rate is the configured pull_rate or, when that is 0, the speed of the
 * device EQDS data arrives on (refreshed once a second in process context,
 * since reading it needs RTNL), less the configured headroom (5% by
 * default), which lets the last switch queue drain: credit already counts
 * link time, Ethernet framing included (core/tx.h, eqds_tx_cost()). The
 * host's bound on the namespace (policy.c) caps the result. The turn time
 * (module parameter pull_turn_us, core/pacer.h) is applied with the rate.
 *
 * With core_cc, the receive path counts arriving data bytes, and those
 * with a CE-marked outer header, in the per-CPU counters (socket.c); the
 * timer passes their totals to the core congestion reaction when a window
 * is due, so no lock is taken per packet.
 *
 * Locking: the pacer's state (en->sched, en->cc, every receiving tunnel's
 * rx.pulls and rx.asl) is under en->sched_lock; a PULL's contents are
 * taken from its tunnel under t->lock, after sched_lock is dropped.
 */
#include <linux/netdevice.h>
#include <linux/ethtool.h>
#include <linux/rtnetlink.h>
#include "eqds.h"
#include "netns.h"
#include "tunnel.h"
#include "tunnels.h"
#include "pull.h"
#include "xmit.h"
#include "core/grant.h"

#define EQDS_DEFAULT_LINK_MBIT	10000

static void send_pull(struct eqds_net *en, const struct eqds_grant *g)
{
	struct eqds_rxt *t = container_of(g->rx, struct eqds_rxt, rx);
	struct eqds_pkt pkt;
	struct eqds_addr local;

	spin_lock_bh(&t->lock);
	eqds_rxt_learn_paths(t);
	if (t->dead || !eqds_grant_pull(&t->rx, g, EQDS_QUANTUM, READ_ONCE(en->busy_us),
					&t->path, &pkt)) {
		spin_unlock_bh(&t->lock);
		return;
	}
	local = t->local;
	t->counters.pulls++;
	trace_eqds_pull(t->en->net->ns.inum, t->id, &t->peer, g->epoch, g->pull_no);
	spin_unlock_bh(&t->lock);

	if (eqds_xmit_ctrl(en, &t->dst_cache, &local, &t->peer, &pkt) == 0)
		eqds_count(en, EQDS_STATS_A_PULLS_SENT);
}

static enum hrtimer_restart pacer_fn(struct hrtimer *timer)
{
	struct eqds_net *en = container_of(timer, struct eqds_net, pacer);
	struct eqds_pacer_plan plan;
	u64 now = ktime_get_ns();
	u32 i;

	rcu_read_lock();
	spin_lock_bh(&en->sched_lock);
	if (eqds_core_cc && eqds_cc_due(&en->cc, now)) {
		/* Marks first: the receive path counts a packet's bytes first. */
		u64 ce = eqds_stats_read(en->stats, EQDS_STATS_A_RX_CE_BYTES);
		u64 bytes = eqds_stats_read(en->stats, EQDS_STATS_A_RX_ARRIVED_BYTES);

		eqds_pacer_observe(&en->sched, &en->cc, bytes, ce, now);
	}
	eqds_pacer_run(&en->sched, now, EQDS_PACER_MIN_NS, &plan);
	eqds_count(en, EQDS_STATS_A_PACER_RUNS);
	if (plan.late_bytes)
		eqds_stats_add(en->stats, EQDS_STATS_A_PACER_LATE_BYTES, plan.late_bytes);
	WRITE_ONCE(en->busy_us, plan.busy_us);
	if (plan.rearm && !READ_ONCE(en->exiting))
		hrtimer_start(&en->pacer, ns_to_ktime(plan.next_ns), HRTIMER_MODE_ABS_SOFT);
	else
		en->pacer_armed = false;
	spin_unlock_bh(&en->sched_lock);

	for (i = 0; i < plan.ngrants; i++)
		send_pull(en, &plan.grant[i]);
	rcu_read_unlock();
	return HRTIMER_NORESTART;
}

/* A sender joined the list: make sure the pacer runs. Holds sched_lock. */
void eqds_pacer_kick(struct eqds_net *en)
{
	lockdep_assert_held(&en->sched_lock);
	if (!READ_ONCE(en->exiting) &&
	    eqds_pacer_wake(&en->sched, &en->pacer_armed, ktime_get_ns()))
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

static void update_rate(struct eqds_net *en)
{
	const struct eqds_config *cfg;
	u32 mbit, headroom, bound, turn_ns;
	u64 bps;

	rcu_read_lock();
	cfg = rcu_dereference(en->config);
	mbit = cfg->pull_rate_mbit;
	headroom = cfg->headroom;
	bound = cfg->bound.pull_rate_mbit;
	rcu_read_unlock();
	turn_ns = min(READ_ONCE(eqds_pull_turn_us), 1000000u) * NSEC_PER_USEC;
	/* Only auto (mbit 0) needs the link's speed, and RTNL for it. */
	bps = eqds_pacer_rate((u64)mbit * 1000000, mbit ? 0 : link_rate_bps(en), headroom,
			      (u64)bound * 1000000);
	if (bps == en->link_rate_bps && turn_ns == READ_ONCE(en->sched.turn_ns))
		return;
	spin_lock_bh(&en->sched_lock);
	en->link_rate_bps = bps;
	eqds_pacer_set_rate(&en->sched, &en->cc, bps, eqds_core_cc, ktime_get_ns());
	eqds_sched_set_turn(&en->sched, turn_ns);
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
			eqds_pacer_max_burst((u64)EQDS_DEFAULT_LINK_MBIT * 1000000, EQDS_QUANTUM),
			ktime_get_ns());
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
