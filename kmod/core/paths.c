// SPDX-License-Identifier: GPL-2.0
/*
 * paths.c - penalised path ids and the spraying walk around them (paths.h).
 */
#include "paths.h"

#define UNIT_SHIFT	10	/* release times count 1024 ns */

static u32 units(u64 ns)
{
	return (u32)(ns >> UNIT_SHIFT);
}

/* The hold in clock units, rounded up: a penalty lasts at least hold_ns (> 0). */
static u32 hold_units(const struct eqds_paths *p)
{
	return (p->hold_ns + (1u << UNIT_SHIFT) - 1) >> UNIT_SHIFT;
}

/*
 * Is path's penalty over at now? Its release time is never more than the
 * longest penalty ahead; one further ahead is from before the clock
 * wrapped (2^32 units, 73 minutes), long over.
 */
static bool over(const struct eqds_paths *p, u8 path, u32 now)
{
	s32 d = (s32)(now - p->release[path]);

	return d >= 0 || d < -(s32)(hold_units(p) << EQDS_PATHS_MAX_STRIKES);
}

static bool bad_bit(const struct eqds_paths *p, u8 path)
{
	return p->bad[path / 32] & (1u << (path % 32));
}

void eqds_paths_init(struct eqds_paths *p, u8 first, u32 hold_ns)
{
	memset(p, 0, sizeof(*p));
	p->next = first;
	eqds_paths_set_hold(p, hold_ns);
}

void eqds_paths_set_hold(struct eqds_paths *p, u32 hold_ns)
{
	p->hold_ns = eqds_min_u32(hold_ns, EQDS_PATHS_HOLD_MAX_NS);
}

static void release(struct eqds_paths *p, u8 path)
{
	p->bad[path / 32] &= ~(1u << (path % 32));
	p->nbad--;
}

bool eqds_paths_is_bad(const struct eqds_paths *p, u8 path, u64 now_ns)
{
	return bad_bit(p, path) && !over(p, path, units(now_ns));
}

u8 eqds_paths_next(struct eqds_paths *p, u64 now_ns)
{
	u8 path = p->next;

	/* At most EQDS_PATHS_MAX_BAD ids are bad: the walk ends before it wraps. */
	while (p->nbad && bad_bit(p, path)) {
		if (over(p, path, units(now_ns))) {
			release(p, path);
			break;
		}
		p->stats.repaths++;
		path++;
	}
	p->next = path + 1;
	return path;
}

void eqds_paths_penalise(struct eqds_paths *p, u8 path, u64 now_ns)
{
	u32 now = units(now_ns);
	u8 *strikes = &p->strikes[path];
	s32 since;

	if (!p->hold_ns)
		return;
	if (bad_bit(p, path)) {
		/* Later news of packets sent before the penalty began. */
		if (!over(p, path, now))
			return;
		release(p, path);
	}
	if (p->nbad >= EQDS_PATHS_MAX_BAD) {
		p->stats.ignored++;
		return;
	}
	/*
	 * Penalised again within twice its last penalty after it ended: the
	 * path is still bad (a failed link, a link slower than its share):
	 * twice as long. Later: a first penalty again.
	 */
	since = (s32)(now - p->release[path]);
	if (!*strikes || since < 0 ||
	    (u32)since >= (hold_units(p) << *strikes))
		*strikes = 0;
	if (*strikes < EQDS_PATHS_MAX_STRIKES)
		(*strikes)++;
	p->release[path] = now + (hold_units(p) << (*strikes - 1));
	p->bad[path / 32] |= 1u << (path % 32);
	p->nbad++;
	p->stats.penalties++;
}

