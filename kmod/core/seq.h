/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seq.h - wrapping 32-bit sequence and pull-number arithmetic.
 *
 * Sequence numbers and pull numbers are 32-bit counters that wrap. They are
 * compared in serial-number style (RFC 1982, like TCP's before()/after()):
 * a is before b when the signed 32-bit distance b - a is positive. That is
 * only meaningful while the two numbers are less than 2^31 apart, which the
 * window (at most 65535 packets or quanta) guarantees for live state. At a
 * distance of exactly 2^31 the order is undefined: both a before b and b
 * before a hold; callers bound distances long before that.
 */
#ifndef _EQDS_CORE_SEQ_H
#define _EQDS_CORE_SEQ_H

#include "platform.h"

/* Signed distance from b to a: positive when a is after b. */
static inline s32 eqds_seq_diff(u32 a, u32 b)
{
	return (s32)(a - b);
}

static inline bool eqds_seq_before(u32 a, u32 b)
{
	return eqds_seq_diff(a, b) < 0;
}

static inline bool eqds_seq_after(u32 a, u32 b)
{
	return eqds_seq_diff(a, b) > 0;
}

static inline bool eqds_seq_before_eq(u32 a, u32 b)
{
	return eqds_seq_diff(a, b) <= 0;
}

static inline bool eqds_seq_after_eq(u32 a, u32 b)
{
	return eqds_seq_diff(a, b) >= 0;
}

/* The later of two numbers; at the undefined distance 2^31, b. */
static inline u32 eqds_seq_max(u32 a, u32 b)
{
	return eqds_seq_before(a, b) ? b : a;
}

/*
 * True when seq lies in [base, base + len), modulo 2^32. An empty window
 * (len 0) contains nothing; len up to 2^32 - 1 works since the test is an
 * unsigned offset compare, not a serial-number one.
 */
static inline bool eqds_seq_in_window(u32 seq, u32 base, u32 len)
{
	return seq - base < len;
}

#endif /* _EQDS_CORE_SEQ_H */
