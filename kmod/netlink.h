/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EQDS_NETLINK_H
#define _EQDS_NETLINK_H

int eqds_genl_register(void);
void eqds_genl_unregister(void);

#endif /* _EQDS_NETLINK_H */
