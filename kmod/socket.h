/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EQDS_SOCKET_H
#define _EQDS_SOCKET_H

#include <linux/types.h>

struct eqds_net;
struct netlink_ext_ack;

int eqds_sockets_open(struct eqds_net *en, u16 port, struct netlink_ext_ack *extack);
void eqds_sockets_close(struct eqds_net *en);

#endif /* _EQDS_SOCKET_H */
