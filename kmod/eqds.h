/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eqds module-wide definitions shared by the kernel glue files.
 */
#ifndef _EQDS_H
#define _EQDS_H

#define EQDS_VERSION "0.1.0"

#define pr_fmt_eqds(fmt) KBUILD_MODNAME ": " fmt

struct sk_buff;

/*
 * Deliberate bugs for the debug kernel's stage of `make check` to catch
 * (inject.c, built only with EQDS_TEST_INJECT=y; a no-op otherwise).
 */
#ifdef EQDS_TEST_INJECT
void eqds_test_inject_rx(const struct sk_buff *skb);
#else
static inline void eqds_test_inject_rx(const struct sk_buff *skb) { }
#endif

#endif /* _EQDS_H */
