// SPDX-License-Identifier: GPL-2.0
/*
 * Tunnel tables. Tunnels are soft state: created by the first packet (a
 * captured one for the sending side, a SYN for the receiving side), dropped
 * by the reaper (process context) after the idle timeout, recreated when
 * traffic comes back. Lookups are RCU; creation may race, and the loser
 * frees its copy.
 */
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/jhash.h>
#include <linux/moduleparam.h>
#include "eqds.h"
#include "netns.h"
#include "tunnels.h"
#include "events.h"
#include "admit.h"

static const struct rhashtable_params txt_params = {
	.key_len = sizeof(struct eqds_addr),
	.key_offset = offsetof(struct eqds_txt, peer),
	.head_offset = offsetof(struct eqds_txt, node),
	.automatic_shrinking = true,
};

/*
 * A receiving tunnel is one (sender, our address) pair, the two addresses
 * of its packets' outer header, as a sending tunnel is one destination
 * address (whatever the route picks as source): a host with two addresses
 * we both send to gets two sending tunnels, each with its own epoch and
 * sequence space, and needs two receiving ones, each answering from its
 * own address. Keyed by the sender alone, both would share one tunnel that
 * follows one epoch and challenges the other's SYNs, from the wrong
 * address, forever. The key is peer and local, adjacent in struct
 * eqds_rxt (checked at init), as in struct rxt_key.
 */
struct rxt_key {
	struct eqds_addr peer;
	struct eqds_addr local;
};

static const struct rhashtable_params rxt_params = {
	.key_len = sizeof(struct rxt_key),
	.key_offset = offsetof(struct eqds_rxt, peer),
	.head_offset = offsetof(struct eqds_rxt, node),
	.automatic_shrinking = true,
};

/*
 * Each direction has a budget of its own (max_tx_tunnels, max_rx_tunnels):
 * local senders, who can name any address of a captured prefix, must not
 * use up the receiving tunnels real peers need, nor the reverse. Checked
 * against the table's size, which concurrent creators may overshoot by one
 * each.
 */
static bool tunnel_budget(struct eqds_net *en, struct rhashtable *table, unsigned int max,
			  enum eqds_stats_attr *why)
{
	if (atomic_read(&table->nelems) >= max) {
		*why = EQDS_STATS_A_DROP_TUNNEL_LIMIT;
		return false;
	}
	atomic_inc(&en->ntunnels);
	return true;
}

/*
 * IDs are reserved (a NULL entry, which lookups and dumps skip) before the
 * tunnel is published in the hash table and filled in once it has won any
 * creation race, so a dump never meets a tunnel that is freed at once. The
 * store into a reserved slot allocates nothing and cannot fail.
 */
static int id_reserve(struct xarray *ids, u32 *next, u32 *id)
{
	int err = xa_alloc_cyclic_bh(ids, id, NULL, XA_LIMIT(1, U32_MAX), next, GFP_ATOMIC);

	return err < 0 ? err : 0;
}

static bool txt_remove(struct eqds_net *en, struct eqds_txt *t, unsigned long timeout);
static bool rxt_remove(struct eqds_net *en, struct eqds_rxt *t, unsigned long idle);

/*
 * Enter a tunnel that won its creation race in the ID table, unless the
 * reaper took it since it became visible in the hash table: removal erases
 * the ID (the reservation, then) after marking the tunnel dead under its
 * lock, so an entry made after that would outlive the tunnel and be met
 * by every later dump and policy change. Returns whether it was entered;
 * only then is the tunnel announced, and its removal too. The store fills
 * a reserved slot: it allocates nothing. Caller holds t->lock.
 */
static bool txt_list(struct eqds_txt *t)
{
	lockdep_assert_held(&t->lock);
	if (t->dead)
		return false;
	xa_store_bh(&t->en->txt_ids, t->id, t, GFP_ATOMIC);
	t->listed = true;
	return true;
}

static bool rxt_list(struct eqds_rxt *t)
{
	lockdep_assert_held(&t->lock);
	if (t->dead)
		return false;
	xa_store_bh(&t->en->rxt_ids, t->id, t, GFP_ATOMIC);
	t->listed = true;
	return true;
}

struct eqds_txt *eqds_txt_lookup(struct eqds_net *en, const struct eqds_addr *peer)
{
	return rhashtable_lookup(&en->txts, peer, txt_params);
}

/* Caller holds rcu_read_lock(), as for every lookup: t is freed after RCU. */
struct eqds_txt *eqds_txt_get(struct eqds_net *en, const struct eqds_addr *peer,
			      enum eqds_stats_attr *why)
{
	struct eqds_txt *t = eqds_txt_lookup(en, peer), *old;

	RCU_LOCKDEP_WARN(!rcu_read_lock_any_held(), "tunnel lookup outside RCU");

	if (likely(t) || READ_ONCE(en->exiting))
		return t;
	if (!tunnel_budget(en, &en->txts, READ_ONCE(eqds_max_tx_tunnels), why))
		return NULL;
	t = kzalloc(sizeof(*t), GFP_ATOMIC);
	if (!t || dst_cache_init(&t->dst_cache, GFP_ATOMIC)) {
		kfree(t);
		atomic_dec(&en->ntunnels);
		*why = EQDS_STATS_A_DROP_NOMEM;
		return NULL;
	}
	if (id_reserve(&en->txt_ids, &en->txt_next, &t->id)) {
		dst_cache_destroy(&t->dst_cache);
		kfree(t);
		atomic_dec(&en->ntunnels);
		*why = EQDS_STATS_A_DROP_NOMEM;
		return NULL;
	}
	t->peer = *peer;
	t->en = en;
	eqds_txt_setup(t, rcu_dereference(en->config));
	old = rhashtable_lookup_get_insert_fast(&en->txts, &t->node, txt_params);
	if (old) {
		/* Lost a race (or the insert failed): use the winner. */
		xa_erase_bh(&en->txt_ids, t->id);
		dst_cache_destroy(&t->dst_cache);
		kfree(t);
		atomic_dec(&en->ntunnels);
		return IS_ERR(old) ? NULL : old;
	}
	if (unlikely(READ_ONCE(eqds_test_reap_new_tunnels)))
		txt_remove(en, t, 0);
	eqds_count(en, EQDS_STATS_A_TUNNELS_CREATED);
	eqds_stats_add(en->stats, EQDS_STATS_A_TUNNELS, 1);
	spin_lock_bh(&t->lock);
	if (txt_list(t))
		eqds_event_tunnel(en, EQDS_CMD_TUNNEL_NEW, EQDS_TUNNEL_DIR_TX, t->id,
				  &t->peer, t->q.tx.epoch, -1);
	spin_unlock_bh(&t->lock);
	return t;
}

struct eqds_rxt *eqds_rxt_lookup(struct eqds_net *en, const struct eqds_addr *peer,
				 const struct eqds_addr *local)
{
	const struct rxt_key key = { .peer = *peer, .local = *local };

	return rhashtable_lookup(&en->rxts, &key, rxt_params);
}

struct eqds_rxt *eqds_rxt_get(struct eqds_net *en, const struct eqds_addr *peer,
			      const struct eqds_addr *local, enum eqds_stats_attr *why)
{
	struct eqds_rxt *t = eqds_rxt_lookup(en, peer, local), *old;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "caller must hold rcu_read_lock()");

	if (likely(t) || READ_ONCE(en->exiting))
		return t;
	if (!tunnel_budget(en, &en->rxts, READ_ONCE(eqds_max_rx_tunnels), why))
		return NULL;
	t = kzalloc(sizeof(*t), GFP_ATOMIC);
	if (!t || dst_cache_init(&t->dst_cache, GFP_ATOMIC)) {
		kfree(t);
		atomic_dec(&en->ntunnels);
		*why = EQDS_STATS_A_DROP_NOMEM;
		return NULL;
	}
	if (id_reserve(&en->rxt_ids, &en->rxt_next, &t->id)) {
		dst_cache_destroy(&t->dst_cache);
		kfree(t);
		atomic_dec(&en->ntunnels);
		*why = EQDS_STATS_A_DROP_NOMEM;
		return NULL;
	}
	t->peer = *peer;
	t->local = *local;
	t->en = en;
	eqds_rxt_setup(t, rcu_dereference(en->config));
	old = rhashtable_lookup_get_insert_fast(&en->rxts, &t->node, rxt_params);
	if (old) {
		xa_erase_bh(&en->rxt_ids, t->id);
		dst_cache_destroy(&t->dst_cache);
		kfree(t);
		atomic_dec(&en->ntunnels);
		return IS_ERR(old) ? NULL : old;
	}
	if (unlikely(READ_ONCE(eqds_test_reap_new_tunnels)))
		rxt_remove(en, t, 0);
	eqds_count(en, EQDS_STATS_A_TUNNELS_CREATED);
	eqds_stats_add(en->stats, EQDS_STATS_A_TUNNELS, 1);
	spin_lock_bh(&t->lock);
	/* Its epoch is the first SYN's, set after this. */
	if (rxt_list(t))
		eqds_event_tunnel(en, EQDS_CMD_TUNNEL_NEW, EQDS_TUNNEL_DIR_RX, t->id,
				  &t->peer, 0, -1);
	spin_unlock_bh(&t->lock);
	return t;
}

/* Runs after every RCU reader that could still be sending through t. */
static void txt_free_rcu(struct rcu_head *head)
{
	struct eqds_txt *t = container_of(head, struct eqds_txt, rcu);

	dst_cache_destroy(&t->dst_cache);
	kfree(t);
}

static void rxt_free_rcu(struct rcu_head *head)
{
	struct eqds_rxt *t = container_of(head, struct eqds_rxt, rcu);

	dst_cache_destroy(&t->dst_cache);
	kfree(t);
}

/*
 * Why the reaper takes a sending tunnel that eqds_txt_idle() calls idle:
 * with nothing waiting it is plain idleness (its peer is usually silent
 * too, having nothing to acknowledge); with packets waiting, the peer
 * stopped answering. Caller holds t->lock.
 */
static int txt_del_reason(struct eqds_txt *t, unsigned long timeout)
{
	lockdep_assert_held(&t->lock);
	if (!timeout)
		return EQDS_TUNNEL_DEL_SHUTDOWN;
	if (eqds_txt_queue_len(t) || eqds_tx_inflight(&t->q.tx))
		return EQDS_TUNNEL_DEL_PEER_SILENT;
	return EQDS_TUNNEL_DEL_IDLE;
}

/*
 * Idleness is decided again under the lock: traffic may have come since
 * the reaper looked. Returns whether t was removed.
 */
static bool txt_remove(struct eqds_net *en, struct eqds_txt *t, unsigned long timeout)
{
	bool listed;
	int reason;
	u32 epoch;

	spin_lock_bh(&t->lock);
	if (timeout && !eqds_txt_idle(t, timeout)) {
		spin_unlock_bh(&t->lock);
		return false;
	}
	t->dead = true;
	listed = t->listed;
	reason = txt_del_reason(t, timeout);
	epoch = t->q.tx.epoch;
	spin_unlock_bh(&t->lock);
	rhashtable_remove_fast(&en->txts, &t->node, txt_params);
	xa_erase_bh(&en->txt_ids, t->id);
	if (listed)
		eqds_event_tunnel(en, EQDS_CMD_TUNNEL_DEL, EQDS_TUNNEL_DIR_TX, t->id,
				  &t->peer, epoch, reason);
	hrtimer_cancel(&t->timer);
	eqds_txt_purge(t);
	atomic_dec(&en->ntunnels);
	eqds_stats_add(en->stats, EQDS_STATS_A_TUNNELS, -1ull);
	call_rcu(&t->rcu, txt_free_rcu);
	return true;
}

/*
 * A receiving tunnel whose sender has not shown that it heard us, and that
 * delivered no more than its first packet, is half open (a protocol
 * decision: eqds_epoch_half_open()): a sender that never came back, or a
 * spoofed source (a SYN from anyone who can spoof a peer's address creates
 * one). It is reaped after half_open_ms (module parameter,
 * EQDS_HALF_OPEN_MS by default) unless the idle timeout is shorter. An
 * honest tunnel that is reaped this way and then used again costs an RST
 * and a restart. Read without the tunnel's lock by the reaper's first look
 * and by netlink, which only need a recent view; removal decides again
 * under the lock.
 */
bool eqds_rxt_half_open(const struct eqds_rxt *t)
{
	return eqds_epoch_half_open(READ_ONCE(t->guard.answered), READ_ONCE(t->rx.epoch),
				    READ_ONCE(t->rx.rcv_nxt));
}

static unsigned long rxt_timeout(struct eqds_rxt *t, unsigned long idle)
{
	if (!eqds_rxt_half_open(t))
		return idle;
	return min(idle, msecs_to_jiffies(READ_ONCE(eqds_half_open_ms)));
}

/*
 * idle: the idle timeout; 0 removes t whatever its state. Else t goes only
 * if it is still idle, for the half-open timeout if it is still half open:
 * packets may have come since the reaper looked. (A half-open timeout of 0
 * is not "whatever its state": such a tunnel goes once idle at all.)
 */
static bool rxt_remove(struct eqds_net *en, struct eqds_rxt *t, unsigned long idle)
{
	int reason = EQDS_TUNNEL_DEL_SHUTDOWN;
	unsigned long timeout;
	bool listed;
	u32 epoch;

	spin_lock_bh(&t->lock);
	if (idle) {
		timeout = rxt_timeout(t, idle);
		if (!eqds_rxt_idle(t, timeout)) {
			spin_unlock_bh(&t->lock);
			return false;
		}
		reason = timeout < idle ? EQDS_TUNNEL_DEL_HALF_OPEN : EQDS_TUNNEL_DEL_IDLE;
	}
	t->dead = true;
	listed = t->listed;
	epoch = t->rx.epoch;
	spin_lock(&en->sched_lock);
	eqds_sched_deactivate(&en->sched, &t->rx.asl);
	spin_unlock(&en->sched_lock);
	spin_unlock_bh(&t->lock);
	rhashtable_remove_fast(&en->rxts, &t->node, rxt_params);
	xa_erase_bh(&en->rxt_ids, t->id);
	if (listed)
		eqds_event_tunnel(en, EQDS_CMD_TUNNEL_DEL, EQDS_TUNNEL_DIR_RX, t->id,
				  &t->peer, epoch, reason);
	hrtimer_cancel(&t->timer);
	eqds_rxt_purge(t);
	atomic_dec(&en->ntunnels);
	eqds_stats_add(en->stats, EQDS_STATS_A_TUNNELS, -1ull);
	call_rcu(&t->rcu, rxt_free_rcu);
	return true;
}

/*
 * The reaper's first look at a sending tunnel, without its lock: only the
 * time stamps, which every idle tunnel has old (eqds_txt_idle(), which
 * needs the lock, decides in txt_remove()).
 */
static bool txt_may_be_idle(const struct eqds_txt *t, unsigned long timeout)
{
	unsigned long now = jiffies;

	return time_after(now, READ_ONCE(t->last_heard) + timeout) ||
	       time_after(now, READ_ONCE(t->last_used) + timeout);
}

/*
 * Tear down idle tunnels, or all of them. Process context: walking may
 * sleep, and removal waits for the tunnel's timer.
 */
void eqds_tunnels_reap(struct eqds_net *en, bool all)
{
	struct rhashtable_iter it;
	unsigned long timeout;
	struct eqds_txt *tt;
	struct eqds_rxt *rt;
	void *obj;

	rcu_read_lock();
	timeout = msecs_to_jiffies(rcu_dereference(en->config)->idle_timeout_ms);
	rcu_read_unlock();

again:
	rhashtable_walk_enter(&en->txts, &it);
	rhashtable_walk_start(&it);
	while ((obj = rhashtable_walk_next(&it))) {
		if (IS_ERR(obj))
			continue;
		tt = obj;
		if (!all && !txt_may_be_idle(tt, timeout))
			continue;
		rhashtable_walk_stop(&it);
		if (txt_remove(en, tt, all ? 0 : timeout) && !all)
			eqds_count(en, EQDS_STATS_A_TUNNELS_REAPED);
		rhashtable_walk_start(&it);
	}
	rhashtable_walk_stop(&it);
	rhashtable_walk_exit(&it);

	rhashtable_walk_enter(&en->rxts, &it);
	rhashtable_walk_start(&it);
	while ((obj = rhashtable_walk_next(&it))) {
		if (IS_ERR(obj))
			continue;
		rt = obj;
		if (!all && !eqds_rxt_idle(rt, rxt_timeout(rt, timeout)))
			continue;
		rhashtable_walk_stop(&it);
		if (rxt_remove(en, rt, all ? 0 : timeout) && !all)
			eqds_count(en, EQDS_STATS_A_TUNNELS_REAPED);
		rhashtable_walk_start(&it);
	}
	rhashtable_walk_stop(&it);
	rhashtable_walk_exit(&it);

	/*
	 * A walker whose current entry was removed while it was stopped skips
	 * the entry after it in the same bucket: when everything must go, walk
	 * again until nothing is left (nothing adds tunnels any more).
	 */
	if (all && (atomic_read(&en->txts.nelems) || atomic_read(&en->rxts.nelems))) {
		cond_resched();
		goto again;
	}
}

static void reaper_work(struct work_struct *work)
{
	struct eqds_net *en = container_of(to_delayed_work(work), struct eqds_net, reaper);
	unsigned int ms;

	eqds_tunnels_reap(en, false);
	rcu_read_lock();
	ms = min(rcu_dereference(en->config)->idle_timeout_ms, READ_ONCE(eqds_half_open_ms));
	rcu_read_unlock();
	/*
	 * A quarter of the shortest timeout, but at least once a second: the
	 * timeouts may be lowered at any time (eqdsctl, sysfs) and must then
	 * take effect within about a second, not a quarter of the old ones.
	 */
	ms = clamp(ms / 4, 25U, 1000U);
	if (!READ_ONCE(en->exiting))
		schedule_delayed_work(&en->reaper, msecs_to_jiffies(ms));
}

/*
 * A lowered idle timeout takes effect now rather than at the reaper's next
 * run, which the old timeout may have put up to a second away. Process
 * context, under en->lock (the configuration is being replaced).
 */
void eqds_tunnels_timeout_changed(struct eqds_net *en)
{
	lockdep_assert_held(&en->lock);
	if (!READ_ONCE(en->exiting))
		mod_delayed_work(system_wq, &en->reaper, 0);
}

int eqds_tunnels_init(struct eqds_net *en)
{
	int err;

	BUILD_BUG_ON(offsetof(struct eqds_rxt, local) - offsetof(struct eqds_rxt, peer) !=
		     offsetof(struct rxt_key, local));

	atomic_set(&en->ntunnels, 0);
	xa_init_flags(&en->txt_ids, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
	xa_init_flags(&en->rxt_ids, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
	err = rhashtable_init(&en->txts, &txt_params);
	if (err)
		return err;
	err = rhashtable_init(&en->rxts, &rxt_params);
	if (err) {
		rhashtable_destroy(&en->txts);
		return err;
	}
	INIT_DELAYED_WORK(&en->reaper, reaper_work);
	schedule_delayed_work(&en->reaper, HZ / 4);
	return 0;
}

/* Nothing feeds the tables any more (hooks and sockets are gone). */
void eqds_tunnels_destroy(struct eqds_net *en)
{
	WRITE_ONCE(en->exiting, true);
	cancel_delayed_work_sync(&en->reaper);
	eqds_tunnels_reap(en, true);
	rhashtable_destroy(&en->txts);
	rhashtable_destroy(&en->rxts);
	/*
	 * Empty once every tunnel is gone: an ID left is a tunnel that was
	 * freed while still listed, which every dump would have met.
	 */
	if (!xa_empty(&en->txt_ids) || !xa_empty(&en->rxt_ids))
		pr_err("eqds: leak: tunnel IDs left at namespace exit\n");
	xa_destroy(&en->txt_ids);
	xa_destroy(&en->rxt_ids);
	if (atomic_read(&en->ntunnels))
		pr_err("eqds: leak: %d tunnels left at namespace exit\n",
		       atomic_read(&en->ntunnels));
}
