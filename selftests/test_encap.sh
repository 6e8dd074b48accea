#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Traffic that is not plain TCP over IP:
#  - VXLAN, Geneve and GRE tunnels whose underlay addresses are EQDS
#    destinations (already-encapsulated packets, GSO included, over EQDS):
#    a TCP transfer over the overlay has the same sha256 at both ends.
source "$(dirname "$0")/lib.sh"
cleanup() {
	ns_del_all
	rm -f /tmp/encap.*.$$
}
trap cleanup EXIT

check "load eqds" eqds_load

# ---- already-encapsulated traffic ----
two_hosts || { fail "two hosts"; exit 1; }
modprobe -q vxlan 2> /dev/null
modprobe -q geneve 2> /dev/null
modprobe -q ip_gre 2> /dev/null

# overlay KIND NAME PREFIX4 ARGS-FOR-h1 -- ARGS-FOR-h2: a tunnel device on
# each host, PREFIX4.1 on h1 and PREFIX4.2 on h2.
overlay() {
	local kind=$1 name=$2 prefix=$3 a1=() a2=()
	shift 3
	while [ "$1" != -- ]; do a1+=("$1"); shift; done
	shift
	a2=("$@")
	ip -n h1 link add "$name" type "$kind" "${a1[@]}" || return 1
	ip -n h2 link add "$name" type "$kind" "${a2[@]}" || return 1
	ip -n h1 addr add "$prefix.1/24" dev "$name"
	ip -n h2 addr add "$prefix.2/24" dev "$name"
	ip -n h1 link set "$name" up
	ip -n h2 link set "$name" up
}

# over NAME DESC ADDR: a transfer over the overlay; what TCP and the stack
# saw of it (retransmissions, bad checksums) is printed.
over() {
	local r0 c0
	r0=$(nstat_get h1 TcpRetransSegs)
	c0=$(($(nstat_get h2 TcpInCsumErrors) + $(nstat_get h2 UdpInCsumErrors)))
	xfer "$1" h2 "$2" h1 $((8 << 20))
	r0=$(($(nstat_get h1 TcpRetransSegs) - r0))
	echo "$1: TCP retransmitted $r0 segments," \
		"$(($(nstat_get h2 TcpInCsumErrors) + $(nstat_get h2 UdpInCsumErrors) - c0))" \
		"checksum errors at the receiver"
	eqds_stats h2
	# The link loses nothing: what TCP resends is what EQDS's queue
	# dropped (tail drop, about 1% here) or what arrived mangled. 8 MiB
	# is about 5800 segments; mangled GSO packets cost TCP a quarter.
	check "$1: TCP resent under 10% ($r0 segments)" test "$r0" -lt 580
}

tx0=$(stat h1 tx_packets)
if overlay vxlan vx4 192.168.41 id 41 remote 10.0.1.2 local 10.0.1.1 dstport 4789 dev v1 \
	-- id 41 remote 10.0.1.1 local 10.0.1.2 dstport 4789 dev v2; then
	over "TCP over VXLAN over EQDS (IPv4 underlay)" 192.168.41.2
else
	fail "VXLAN device over IPv4"
fi
if overlay vxlan vx6 192.168.46 id 46 remote fd00:1::2 local fd00:1::1 dstport 4789 \
	dev v1 -- id 46 remote fd00:1::1 local fd00:1::2 dstport 4789 dev v2; then
	over "TCP over VXLAN over EQDS (IPv6 underlay)" 192.168.46.2
else
	fail "VXLAN device over IPv6"
fi
if overlay geneve gnv 192.168.43 id 43 remote 10.0.1.2 -- id 43 remote 10.0.1.1; then
	over "TCP over Geneve over EQDS" 192.168.43.2
else
	fail "Geneve device"
fi
if overlay gre gre4 192.168.44 remote 10.0.1.2 local 10.0.1.1 \
	-- remote 10.0.1.1 local 10.0.1.2; then
	over "TCP over GRE over EQDS" 192.168.44.2
else
	fail "GRE device"
fi
tx=$(($(stat h1 tx_packets) - tx0))
check "the tunnels' packets went over EQDS ($tx packets)" test "$tx" -gt 10000
eqds_stats h1
eqds_stats h2
test_failed && exit 1
exit 0
