/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eqds module-wide definitions shared by the kernel glue files.
 */
#ifndef _EQDS_H
#define _EQDS_H

#define EQDS_VERSION "0.1.0"

#define pr_fmt_eqds(fmt) KBUILD_MODNAME ": " fmt

struct eqds_config;

/* The configuration every new network namespace starts with (main.c). */
const struct eqds_config *eqds_initial_config(void);

#endif /* _EQDS_H */
