/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EQDS_PULL_H
#define _EQDS_PULL_H

#include "params.h"

struct eqds_net;

/* Credit per pull quantum, in bytes on the wire (a 1500-byte MTU's packet). */
#define EQDS_QUANTUM	1536

void eqds_pull_init(struct eqds_net *en);
void eqds_pull_stop(struct eqds_net *en);
void eqds_pacer_kick(struct eqds_net *en);
void eqds_pull_config_changed(struct eqds_net *en);

#endif /* _EQDS_PULL_H */
