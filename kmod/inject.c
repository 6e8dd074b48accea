// SPDX-License-Identifier: GPL-2.0
/*
 * Deliberate bugs, for tests only: the debug kernel's stage of `make check`
 * loads a module built with EQDS_TEST_INJECT=y with one of them switched on
 * and asserts that the kernel's checkers report it, which proves that stage
 * can fail (selftests/vm/debug-run.sh). Never built into a normal module:
 * its parameter (params.c) does not exist there.
 */
#include <linux/atomic.h>
#include <linux/skbuff.h>
#include "eqds.h"
#include "params.h"

static atomic_t leaked = ATOMIC_INIT(0);

void eqds_test_inject_rx(const struct sk_buff *skb)
{
	struct sk_buff *copy;

	if (atomic_read(&leaked) >= READ_ONCE(eqds_test_leak_skb) ||
	    atomic_inc_return(&leaked) > READ_ONCE(eqds_test_leak_skb))
		return;
	/* A copy that holds no reference to anything but its own memory. */
	copy = alloc_skb(skb_headlen(skb), GFP_ATOMIC);
	if (copy)
		skb_put_data(copy, skb->data, skb_headlen(skb));
	/* The bug: copy is neither queued nor freed. */
}
