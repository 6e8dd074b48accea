// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration values: defaults, destination prefixes and their matching.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/inet.h>
#include <linux/socket.h>
#include <linux/errno.h>
#include "config.h"

void eqds_config_set_defaults(struct eqds_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->port = EQDS_DEFAULT_PORT;
	cfg->mode = EQDS_MODE_RTS;
	cfg->window = EQDS_DEFAULT_WINDOW;
	cfg->idle_timeout_ms = EQDS_DEFAULT_IDLE_TIMEOUT_MS;
	cfg->headroom = EQDS_DEFAULT_HEADROOM;
	cfg->classes[EQDS_CLASS_TCP].queue_limit = EQDS_DEFAULT_QUEUE_LIMIT;
	cfg->classes[EQDS_CLASS_TCP].tc_priority = 0;	/* TC_PRIO_BESTEFFORT */
	cfg->classes[EQDS_CLASS_LL].queue_limit = EQDS_DEFAULT_LL_QUEUE_LIMIT;
	cfg->classes[EQDS_CLASS_LL].tc_priority = EQDS_DEFAULT_LL_TC_PRIORITY;
	cfg->ll_priority = EQDS_DEFAULT_LL_PRIORITY;
	cfg->queued_limit_kb = EQDS_DEFAULT_QUEUED_LIMIT_KB;
}

static void mask_bytes(u8 *addr, unsigned int nbytes, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < nbytes; i++) {
		if (len >= 8) {
			len -= 8;
			continue;
		}
		addr[i] &= (u8)(0xff00 >> len);
		len = 0;
	}
}

/* Host bits are cleared, as for wg allowed-ips, so "10.0.0.1/24" is 10.0.0.0/24. */
int eqds_prefix_init(struct eqds_prefix *p, u16 family, const void *addr, u8 len)
{
	memset(p, 0, sizeof(*p));
	if (family == AF_INET && len <= 32) {
		memcpy(&p->addr.v4, addr, 4);
		mask_bytes((u8 *)&p->addr.v4, 4, len);
	} else if (family == AF_INET6 && len <= 128) {
		memcpy(&p->addr.v6, addr, 16);
		mask_bytes(p->addr.v6.s6_addr, 16, len);
	} else {
		return -EINVAL;
	}
	p->family = family;
	p->len = len;
	return 0;
}

/* "ADDR[/LEN]"; a missing length means a host route. */
int eqds_prefix_parse(const char *str, struct eqds_prefix *p)
{
	const char *slash = strchr(str, '/');
	size_t alen = slash ? (size_t)(slash - str) : strlen(str);
	u8 buf[16];
	unsigned int len;
	u16 family;

	if (in4_pton(str, alen, buf, -1, NULL)) {
		family = AF_INET;
		len = 32;
	} else if (in6_pton(str, alen, buf, -1, NULL)) {
		family = AF_INET6;
		len = 128;
	} else {
		return -EINVAL;
	}
	if (slash && (kstrtouint(slash + 1, 10, &len) ||
		      len > (family == AF_INET ? 32U : 128U)))
		return -EINVAL;
	return eqds_prefix_init(p, family, buf, (u8)len);
}

/* Comma-separated prefixes, as in the "dests" module parameter. */
int eqds_dests_parse(const char *list, struct eqds_config *cfg)
{
	char item[INET6_ADDRSTRLEN + 5];
	const char *s = list;
	int err;

	cfg->ndests = 0;
	while (*s) {
		size_t n = strcspn(s, ",");

		if (n == 0 || n >= sizeof(item))
			return -EINVAL;
		if (cfg->ndests == EQDS_MAX_DESTS)
			return -E2BIG;
		memcpy(item, s, n);
		item[n] = '\0';
		err = eqds_prefix_parse(strim(item), &cfg->dests[cfg->ndests]);
		if (err)
			return err;
		cfg->ndests++;
		s += n;
		if (*s == ',')
			s++;
	}
	return 0;
}

static bool prefix_match(const struct eqds_prefix *p, const u8 *addr, unsigned int nbytes)
{
	const u8 *net = p->family == AF_INET ? (const u8 *)&p->addr.v4 : p->addr.v6.s6_addr;
	unsigned int full = p->len / 8, rest = p->len % 8;

	if (full > nbytes || memcmp(net, addr, full))
		return false;
	return !rest || !((net[full] ^ addr[full]) & (u8)(0xff00 >> rest));
}

bool eqds_prefix_match(const struct eqds_prefix *p, u16 family, const void *addr)
{
	return p->family == family && prefix_match(p, addr, family == AF_INET ? 4 : 16);
}

bool eqds_config_has_dest(const struct eqds_config *cfg, u16 family, const void *addr)
{
	unsigned int nbytes = family == AF_INET ? 4 : 16;
	u32 i;

	for (i = 0; i < cfg->ndests; i++)
		if (cfg->dests[i].family == family &&
		    prefix_match(&cfg->dests[i], addr, nbytes))
			return true;
	return false;
}
