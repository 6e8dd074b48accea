// SPDX-License-Identifier: GPL-2.0
/*
 * For test VMs under QEMU's multi-threaded TCG only: never on a real host.
 *
 * The kernel patches its own text (static keys, tracepoints, kprobes) with
 * text_poke_bp(): an int3 over the site's first byte, the rest, the first
 * byte, with every CPU serialised after each step, so that no CPU runs the
 * int3 once the patch is done. QEMU 7.2's multi-threaded TCG sometimes keeps
 * a translation made while the int3 was there and goes on running it after
 * the patch: the kernel, which no longer claims the trap, dies ("Oops: int3"
 * in __dev_queue_xmit or __schedule on 6.12). selftests/vm/textpoke.sh shows
 * it without eqds.
 *
 * A kernel-mode int3 whose byte in memory is an int3 no more is such a stale
 * one. Backing up over it is not enough (the stale translation would run
 * again): the byte is written back as it is, with CR0.WP off for the moment,
 * which makes QEMU drop its translations of it, and the site runs again
 * from memory. The cmpxchg writes back only what is there, so a patch begun
 * meanwhile on another CPU is not undone. How many were absorbed:
 * /sys/module/tcg_int3/parameters/recovered.
 *
 * Where the trap goes first decides where that is done. Up to 6.1 the x86
 * kprobes handler, which runs before the die notifiers, takes any int3 whose
 * byte is gone for a probe just removed and backs up over it itself: the
 * stale translation then traps again forever (6.1 hangs in textpoke.sh). So
 * the byte is written back from an ftrace hook on kprobe_int3_handler(),
 * before it decides; the die notifier backs up over what kprobes no longer
 * claims (6.12), and writes the byte back itself only without the hook.
 */
#include <linux/ftrace.h>
#include <linux/kdebug.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/uaccess.h>
#include <asm/processor-flags.h>

#define INT3_OPCODE	0xcc

static atomic_long_t recovered = ATOMIC_LONG_INIT(0);

static int recovered_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&recovered));
}

static const struct kernel_param_ops recovered_ops = {
	.get = recovered_get,
};
module_param_cb(recovered, &recovered_ops, NULL, 0444);
MODULE_PARM_DESC(recovered, "stale int3 traps absorbed");

/* Not the kernel's: it pins CR0.WP on, with a warning. */
static inline unsigned long raw_cr0(void)
{
	unsigned long v;

	asm volatile("mov %%cr0, %0" : "=r" (v));
	return v;
}

static inline void raw_write_cr0(unsigned long v)
{
	asm volatile("mov %0, %%cr0" : : "r" (v) : "memory");
}

static bool hooked;

/*
 * Int3 context (NMI-like, interrupts off, so nothing runs between the two
 * CR0 writes on this CPU): no locks, no printk.
 */
static bool stale_int3_flush(struct pt_regs *regs)
{
	unsigned long cr0;
	u8 *addr, op;

	if (!regs || user_mode(regs))
		return false;
	addr = (u8 *)(regs->ip - 1);
	if (copy_from_kernel_nofault(&op, addr, 1) || op == INT3_OPCODE)
		return false;
	cr0 = raw_cr0();
	raw_write_cr0(cr0 & ~X86_CR0_WP);
	/* Writes back what is there: the emulator then drops its stale copy. */
	cmpxchg(addr, op, op);
	raw_write_cr0(cr0);
	atomic_long_inc(&recovered);
	return true;
}

/* Entry of kprobe_int3_handler(struct pt_regs *regs), in int3 context. */
static void stale_int3_kprobes(unsigned long ip, unsigned long parent_ip,
			       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *fr = ftrace_get_regs(fregs);

	if (fr)
		stale_int3_flush((struct pt_regs *)regs_get_kernel_argument(fr, 0));
}

static struct ftrace_ops stale_int3_ops = {
	.func = stale_int3_kprobes,
	.flags = FTRACE_OPS_FL_SAVE_REGS,
};

static int stale_int3(struct notifier_block *nb, unsigned long val, void *data)
{
	struct die_args *args = data;
	struct pt_regs *regs = args->regs;
	u8 op;

	if (val != DIE_INT3 || !regs || user_mode(regs))
		return NOTIFY_DONE;
	if (READ_ONCE(hooked)) {
		if (copy_from_kernel_nofault(&op, (u8 *)(regs->ip - 1), 1) ||
		    op == INT3_OPCODE)
			return NOTIFY_DONE;
	} else if (!stale_int3_flush(regs)) {
		return NOTIFY_DONE;
	}
	regs->ip--;
	return NOTIFY_STOP;
}

static struct notifier_block stale_int3_nb = {
	.notifier_call = stale_int3,
	.priority = INT_MIN,	/* after every real int3 user */
};

static int __init tcg_int3_init(void)
{
	static unsigned char func[] = "kprobe_int3_handler";
	int err;

	err = register_die_notifier(&stale_int3_nb);
	if (err)
		return err;
	if (!IS_ENABLED(CONFIG_KPROBES))
		return 0;
	err = ftrace_set_filter(&stale_int3_ops, func, sizeof(func) - 1, 0);
	if (!err)
		err = register_ftrace_function(&stale_int3_ops);
	if (err) {
		ftrace_free_filter(&stale_int3_ops);
		/* 6.12's kprobes leave stale traps to the notifier anyway. */
		pr_info("tcg_int3: no ftrace hook on %s (%d): die notifier only\n", func, err);
		return 0;
	}
	/* The notifier sees no trap that the hook has not seen first. */
	WRITE_ONCE(hooked, true);
	return 0;
}

static void __exit tcg_int3_exit(void)
{
	if (hooked) {
		unregister_ftrace_function(&stale_int3_ops);
		ftrace_free_filter(&stale_int3_ops);
	}
	unregister_die_notifier(&stale_int3_nb);
}

module_init(tcg_int3_init);
module_exit(tcg_int3_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test VMs under QEMU TCG: survive stale int3 translations of patched kernel text");
