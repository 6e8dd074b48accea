/* SPDX-License-Identifier: GPL-2.0 */
/*
 * platform.h - the only door between the eqds protocol core and its host.
 *
 * The files in kmod/core/ are built twice: by Kbuild into the kernel module
 * (as kernel C) and by CMake into userspace unit tests and fuzzers (as
 * C++17). Everything the core needs from its environment comes from here, so
 * no other core file includes a kernel or libc header directly.
 *
 * Rules for core code, so that both compilers accept it:
 *  - fixed-width kernel types (u8..u64, s32, s64) and bool only;
 *  - no implicit conversion from void *, cast explicitly;
 *  - no C++ keywords as identifiers (new, class, this, delete, ...);
 *  - no designated initializers, no anonymous structs or unions;
 *  - byte order only through the eqds_get/put_be* helpers below, which work
 *    on unaligned bytes: packet headers need not be aligned.
 */
#ifndef _EQDS_CORE_PLATFORM_H
#define _EQDS_CORE_PLATFORM_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/string.h>
#include <linux/kernel.h>
#include <linux/build_bug.h>
#include <linux/math64.h>
#include <linux/bitops.h>

#define eqds_likely(x)		likely(x)
#define eqds_unlikely(x)	unlikely(x)
#define EQDS_ARRAY_SIZE(a)	ARRAY_SIZE(a)

/*
 * 64-bit division: a plain / on u64 needs libgcc helpers that 32-bit
 * kernels do not have, so core code divides only through these.
 */
static inline u64 eqds_div_u64(u64 n, u32 d)
{
	return div_u64(n, d);
}

static inline u64 eqds_div_u64_rem(u64 n, u32 d, u32 *rem)
{
	return div_u64_rem(n, d, rem);
}

static inline u64 eqds_div64_u64(u64 n, u64 d)
{
	return div64_u64(n, d);
}

/* Position of the most significant bit set, 1..64; 0 for 0. */
static inline int eqds_fls64(u64 x)
{
	return fls64(x);
}

#else /* userspace: unit tests, fuzzers, simulator */

#include <linux/types.h>	/* __u8.., __be16/__be32 for the uapi headers */
#include <stddef.h>
#include <string.h>
#ifndef __cplusplus
#include <stdbool.h>
#include <assert.h>		/* static_assert in C11 */
#endif

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#define eqds_likely(x)		__builtin_expect(!!(x), 1)
#define eqds_unlikely(x)	__builtin_expect(!!(x), 0)
#define EQDS_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static inline u64 eqds_div_u64(u64 n, u32 d)
{
	return n / d;
}

static inline u64 eqds_div_u64_rem(u64 n, u32 d, u32 *rem)
{
	*rem = (u32)(n % d);
	return n / d;
}

static inline u64 eqds_div64_u64(u64 n, u64 d)
{
	return n / d;
}

static inline int eqds_fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

#endif /* __KERNEL__ */

/*
 * Byte-wise big-endian access. Compilers turn these into a load plus bswap,
 * and they never depend on alignment or on the host's byte order.
 */
static inline u16 eqds_get_be16(const void *p)
{
	const u8 *b = (const u8 *)p;

	return (u16)((u16)b[0] << 8 | (u16)b[1]);
}

static inline u32 eqds_get_be32(const void *p)
{
	const u8 *b = (const u8 *)p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | (u32)b[3];
}

static inline u64 eqds_get_be64(const void *p)
{
	const u8 *b = (const u8 *)p;

	return (u64)eqds_get_be32(b) << 32 | (u64)eqds_get_be32(b + 4);
}

static inline void eqds_put_be16(void *p, u16 v)
{
	u8 *b = (u8 *)p;

	b[0] = (u8)(v >> 8);
	b[1] = (u8)v;
}

static inline void eqds_put_be32(void *p, u32 v)
{
	u8 *b = (u8 *)p;

	b[0] = (u8)(v >> 24);
	b[1] = (u8)(v >> 16);
	b[2] = (u8)(v >> 8);
	b[3] = (u8)v;
}

static inline void eqds_put_be64(void *p, u64 v)
{
	u8 *b = (u8 *)p;

	eqds_put_be32(b, (u32)(v >> 32));
	eqds_put_be32(b + 4, (u32)v);
}

static inline u32 eqds_min_u32(u32 a, u32 b)
{
	return a < b ? a : b;
}

static inline u64 eqds_min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u32 eqds_max_u32(u32 a, u32 b)
{
	return a > b ? a : b;
}

static inline u64 eqds_max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

/*
 * Nanoseconds from then to now, 0 if now is earlier: a time read on one CPU
 * may be older than one another CPU stored meanwhile, and must not look
 * like an age of nearly 2^64 ns.
 */
static inline u64 eqds_time_since(u64 now, u64 then)
{
	return now > then ? now - then : 0;
}

#endif /* _EQDS_CORE_PLATFORM_H */
