/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernels eqds builds on (6.1 to 6.12,
 * Documentation/kernels.rst), in one place. Kbuild probes the headers
 * (compat/probe.sh) and writes compat-probes.h, EQDS_HAVE_* for what they
 * offer; the code uses the newest kernel's interface where it can be given
 * to the older ones, and an eqds_ helper where it cannot. No version numbers:
 * a distribution kernel with a backport gets what its headers say.
 */
#ifndef EQDS_COMPAT_H
#define EQDS_COMPAT_H

#include <linux/netdevice.h>
#include <net/genetlink.h>
#include <net/ip.h>
#include "compat-probes.h"

/* skb_gso_segment() and friends moved from netdevice.h to net/gso.h. */
#ifdef EQDS_HAVE_NET_GSO_H
#include <net/gso.h>
#endif

#ifdef EQDS_HAVE_NET_HOTDATA_MAX_BACKLOG
#include <net/hotdata.h>
#endif

/* The length of the backlog a device may queue for the stack (sysctl). */
static inline int eqds_max_backlog(void)
{
#ifdef EQDS_HAVE_NET_HOTDATA_MAX_BACKLOG
	return READ_ONCE(net_hotdata.max_backlog);
#else
	return READ_ONCE(netdev_max_backlog);
#endif
}

/* The attributes of a dump request, parsed against the op's policy. */
static inline struct nlattr **eqds_dump_attrs(struct netlink_callback *cb)
{
#ifdef EQDS_HAVE_GENL_DUMPIT_INFO_INFO
	return genl_dumpit_info(cb)->info.attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * An IPv4 packet's length as IP input takes it: with IPv4 BIG TCP a GSO
 * packet over 64 KB has tot_len 0. A kernel without BIG TCP for IPv4 has
 * no such packet, and its IP input reads tot_len as it is (6.1's stable
 * updates have iph_totlen(), its first releases do not).
 */
#ifndef EQDS_HAVE_IPH_TOTLEN
static inline unsigned int iph_totlen(const struct sk_buff *skb, const struct iphdr *iph)
{
	return ntohs(iph->tot_len);
}
#endif

#endif /* EQDS_COMPAT_H */
