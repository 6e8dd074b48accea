// SPDX-License-Identifier: GPL-2.0
/*
 * Per network namespace lifetime: each namespace gets an instance configured
 * from the module parameters, with its capture hooks, sockets, tunnel tables
 * and pull pacer, all torn down when the namespace goes away.
 */
#include <linux/slab.h>
#include "eqds.h"
#include "netns.h"
#include "capture.h"
#include "socket.h"
#include "tunnels.h"
#include "pull.h"
#include "params.h"
#include "deliver.h"
#include "policy.h"
#include "events.h"

unsigned int eqds_net_id __read_mostly;

/*
 * The closest of the kernel's generic drop reasons to each drop_* counter's:
 * what skb:kfree_skb reports for the packet (perf, dropwatch, pwru), where
 * eqds_drop has the counter's. Only reasons every supported kernel has.
 * Documentation/counters.rst ("Drop reasons for the kernel's tools") says
 * why each. drop_xmit and drop_local_port are freed by the kernel, not by
 * eqds: the IP output path and netfilter (at our NF_DROP) give their own.
 */
static const u8 eqds_generic_drop_reasons[__EQDS_STATS_A_MAX] = {
	[EQDS_STATS_A_DROP_QUEUE_FULL] = SKB_DROP_REASON_QDISC_DROP,
	[EQDS_STATS_A_DROP_NOMEM] = SKB_DROP_REASON_NOMEM,
	[EQDS_STATS_A_DROP_NOROUTE] = SKB_DROP_REASON_IP_OUTNOROUTES,
	[EQDS_STATS_A_DROP_DECODE] = SKB_DROP_REASON_INVALID_PROTO,
	[EQDS_STATS_A_DROP_INNER] = SKB_DROP_REASON_IP_INHDR,
	[EQDS_STATS_A_DROP_UNKNOWN] = SKB_DROP_REASON_NO_SOCKET,
	[EQDS_STATS_A_DROP_DUP] = SKB_DROP_REASON_TCP_OLD_DATA,
	[EQDS_STATS_A_DROP_WINDOW] = SKB_DROP_REASON_TCP_OVERWINDOW,
	[EQDS_STATS_A_DROP_STALE] = SKB_DROP_REASON_NO_SOCKET,
	[EQDS_STATS_A_DROP_SEGS] = SKB_DROP_REASON_INVALID_PROTO,
	[EQDS_STATS_A_DROP_TUNNEL_LIMIT] = SKB_DROP_REASON_PROTO_MEM,
	[EQDS_STATS_A_DROP_NO_SOCKET] = SKB_DROP_REASON_NO_SOCKET,
	[EQDS_STATS_A_DROP_XMIT] = SKB_DROP_REASON_NOT_SPECIFIED,
	[EQDS_STATS_A_DROP_PEER] = SKB_DROP_REASON_SOCKET_FILTER,
	[EQDS_STATS_A_DROP_CTRL] = SKB_DROP_REASON_INVALID_PROTO,
	[EQDS_STATS_A_DROP_TUNNEL_RATE] = SKB_DROP_REASON_PROTO_MEM,
	[EQDS_STATS_A_DROP_EPOCH] = SKB_DROP_REASON_TCP_INVALID_SYN,
	[EQDS_STATS_A_DROP_QUEUED_LIMIT] = SKB_DROP_REASON_QDISC_DROP,
	[EQDS_STATS_A_DROP_DELIVER] = SKB_DROP_REASON_CPU_BACKLOG,
	[EQDS_STATS_A_DROP_LOCAL_PORT] = SKB_DROP_REASON_NETFILTER_DROP,
};

enum skb_drop_reason eqds_skb_drop_reason(enum eqds_stats_attr why)
{
	BUILD_BUG_ON(SKB_DROP_REASON_MAX > U8_MAX);
	if (why >= __EQDS_STATS_A_MAX || !eqds_generic_drop_reasons[why])
		return SKB_DROP_REASON_NOT_SPECIFIED;
	return eqds_generic_drop_reasons[why];
}

static int __net_init eqds_net_init(struct net *net)
{
	struct eqds_net *en = eqds_net(net);
	struct eqds_config *cfg;
	int err;

	cfg = kmemdup(eqds_initial_config(), sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	en->stats = eqds_stats_alloc();
	if (!en->stats) {
		kfree(cfg);
		return -ENOMEM;
	}
	en->net = net;
	mutex_init(&en->lock);
	RCU_INIT_POINTER(en->config, cfg);
	err = eqds_deliver_init(en);
	if (err)
		goto err_stats;
	err = eqds_tunnels_init(en);
	if (err)
		goto err_deliver;
	eqds_pull_init(en);

	/* A busy port must not stop the namespace from coming up. */
	mutex_lock(&en->lock);
	err = eqds_sockets_open(en, cfg->port, NULL);
	mutex_unlock(&en->lock);
	if (err)
		pr_warn_ratelimited("eqds: cannot bind UDP port %u (error %d); set another with eqdsctl\n",
				    cfg->port, err);

	err = eqds_capture_register(en);
	if (err)
		goto err_sockets;
	return 0;

err_sockets:
	eqds_sockets_close(en);
	WRITE_ONCE(en->exiting, true);
	eqds_tunnels_destroy(en);
	eqds_pull_stop(en);
err_deliver:
	eqds_deliver_destroy(en);
err_stats:
	eqds_stats_free(en->stats);
	kfree(cfg);
	return err;
}

static void __net_exit eqds_net_exit(struct net *net)
{
	struct eqds_net *en = eqds_net(net);

	/*
	 * Stop what feeds the tunnels, then the tunnels, then the pacer, and
	 * last the delivery that receive and the tunnels' timers use.
	 */
	WRITE_ONCE(en->exiting, true);
	eqds_capture_unregister(en);
	eqds_sockets_close(en);
	eqds_tunnels_destroy(en);
	eqds_pull_stop(en);
	eqds_deliver_destroy(en);
	kfree(rcu_dereference_protected(en->config, true));
	eqds_stats_free(en->stats);
}

static struct pernet_operations eqds_net_ops = {
	.init = eqds_net_init,
	.exit = eqds_net_exit,
	.id = &eqds_net_id,
	.size = sizeof(struct eqds_net),
};

/*
 * Publish a new configuration (ownership of cfg passes here, even on
 * error). A new port needs new sockets first: if they cannot be opened,
 * nothing changes. Caller holds en->lock.
 */
int eqds_net_set_config(struct eqds_net *en, struct eqds_config *cfg,
			struct netlink_ext_ack *extack)
{
	struct eqds_config *old;
	int err;

	lockdep_assert_held(&en->lock);
	old = rcu_dereference_protected(en->config, lockdep_is_held(&en->lock));
	/*
	 * Queued packets are charged to no socket or memory cgroup: a
	 * namespace of a container (owned by another user namespace than the
	 * host's) keeps a bound of its own, under the host's.
	 */
	if (!cfg->queued_limit_kb && en->net->user_ns != &init_user_ns) {
		NL_SET_ERR_MSG(extack, "only the host's namespaces may queue without a limit");
		kfree(cfg);
		return -EPERM;
	}
	if (cfg->port != old->port || !rcu_access_pointer(en->sock4)) {
		err = eqds_sockets_open(en, cfg->port, extack);
		if (err) {
			kfree(cfg);
			return err;
		}
	}
	rcu_assign_pointer(en->config, cfg);
	if (cfg->idle_timeout_ms < old->idle_timeout_ms)
		eqds_tunnels_timeout_changed(en);
	if (eqds_policy_changed(old, cfg)) {
		eqds_policy_apply_all(en);
		eqds_event_policy(en);
	}
	kfree_rcu(old, rcu);
	eqds_pull_config_changed(en);
	return 0;
}

int eqds_netns_register(void)
{
	return register_pernet_subsys(&eqds_net_ops);
}

void eqds_netns_unregister(void)
{
	unregister_pernet_subsys(&eqds_net_ops);
}
