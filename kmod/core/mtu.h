/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mtu.h - what fits in the path MTU once encapsulated.
 *
 * The inner packet was sized by its sender for the route's MTU, which knows
 * nothing of the outer headers; and the path's MTU may shrink later (ICMP
 * "fragmentation needed" or "packet too big" from a router lowers the route
 * to the peer, which is also the inner packet's route: the outer destination
 * is the inner one). Every outer packet is checked against the MTU of now,
 * and what does not fit is made to fit, never dropped for its size:
 *
 *   WHOLE     every piece fits as it is (the outer packet is sent with DF,
 *             so routers report a smaller MTU);
 *   RESIZE    a TCP GSO packet whose segments are too large: its segment
 *             size is lowered to *gso_size (TCP segments may be cut
 *             anywhere; the receiver's TCP sees smaller segments);
 *   SEGMENT   any other GSO packet with pieces too large (UDP_SEGMENT
 *             datagrams must keep their boundaries): segmented into its
 *             datagrams, each of which is then one packet as below;
 *   FRAGMENT  one packet too large: the outer packet is fragmented (IPv4
 *             without DF, IPv6 by the sender), reassembled by the peer.
 *
 * The inner sender is not told with an ICMP error, as a tunnel device does:
 * the PMTU it would learn is that of the route to the peer, which is the
 * outer packets' route too, so each error would lower the outer MTU as well,
 * and the next one would be computed from the lowered value.
 */
#ifndef _EQDS_CORE_MTU_H
#define _EQDS_CORE_MTU_H

#include "platform.h"

/* Smallest TCP payload a segment is resized to; below it, fragment. */
#define EQDS_MTU_MIN_SEG	64

enum eqds_fit {
	EQDS_FIT_WHOLE,
	EQDS_FIT_RESIZE,
	EQDS_FIT_SEGMENT,
	EQDS_FIT_FRAGMENT,
};

/* An inner packet, from its IP header on. */
struct eqds_fit_pkt {
	u32 len;	/* all of it */
	u32 gso_size;	/* payload per GSO segment; 0: not GSO */
	u32 seg_hlen;	/* GSO: headers repeated in each segment (IP, L4...) */
	bool tcp;	/* TCP GSO: the segment size may be lowered */
};

/* Largest inner packet that fits path_mtu under overhead bytes of headers. */
static inline u32 eqds_mtu_budget(u32 path_mtu, u32 overhead)
{
	return path_mtu > overhead ? path_mtu - overhead : 0;
}

/* Length of the largest piece the packet becomes (before any fragmenting). */
static inline u32 eqds_fit_piece(const struct eqds_fit_pkt *p)
{
	if (!p->gso_size || p->len < p->seg_hlen + p->gso_size)
		return p->len;
	return p->seg_hlen + p->gso_size;
}

/*
 * How p fits a path of path_mtu bytes with overhead bytes of outer headers;
 * for EQDS_FIT_RESIZE, *gso_size is the new segment size. path_mtu 0 (not
 * known) fits anything.
 */
static inline enum eqds_fit eqds_fit(const struct eqds_fit_pkt *p, u32 path_mtu,
				     u32 overhead, u32 *gso_size)
{
	u32 budget = eqds_mtu_budget(path_mtu, overhead);

	if (!path_mtu || eqds_fit_piece(p) <= budget)
		return EQDS_FIT_WHOLE;
	if (!p->gso_size)
		return EQDS_FIT_FRAGMENT;
	if (p->tcp && budget >= p->seg_hlen + EQDS_MTU_MIN_SEG) {
		*gso_size = budget - p->seg_hlen;
		return EQDS_FIT_RESIZE;
	}
	return EQDS_FIT_SEGMENT;
}

/* Segments of payload bytes at gso_size each (gso_size > 0). */
static inline u32 eqds_fit_nsegs(const struct eqds_fit_pkt *p, u32 gso_size)
{
	u32 payload = p->len > p->seg_hlen ? p->len - p->seg_hlen : 0;

	return payload ? (payload + gso_size - 1) / gso_size : 1;
}

#endif /* _EQDS_CORE_MTU_H */
