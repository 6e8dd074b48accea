/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EQDS_CAPTURE_H
#define _EQDS_CAPTURE_H

struct eqds_net;

int eqds_capture_register(struct eqds_net *en);
void eqds_capture_unregister(struct eqds_net *en);

#endif /* _EQDS_CAPTURE_H */
