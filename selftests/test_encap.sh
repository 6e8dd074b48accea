#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Traffic that is not plain TCP over IP, and underlays that do not keep the
# outer header as sent:
#  - VXLAN, Geneve and GRE tunnels whose underlay addresses are EQDS
#    destinations (already-encapsulated packets, GSO included, over EQDS):
#    a TCP transfer over the overlay arrives intact;
#  - a router that rewrites the outer IPv4 ID of EQDS packets (RFC 6864
#    allows it for DF datagrams) to a constant, then to random values: the
#    transfer arrives intact, the receiver counts the rewritten IDs and
#    the sender falls back to numbering every segment itself;
#  - data packets leave with an ECN-capable outer header (ECT(0)) though
#    their inner packets are not;
#  - the outer DS field of RTS probes (packets without an inner header) is
#    0, never bytes of an uninitialised buffer.
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

# mangled NS: what a host's stack and EQDS threw away as damaged (IP header,
# TCP and UDP checksums, EQDS headers and inner packets it could not parse).
mangled() {
	local c n=0
	for c in IpInHdrErrors IpExtInCsumErrors IpExtInTruncatedPkts TcpInCsumErrors \
		UdpInCsumErrors Udp6InCsumErrors Ip6InHdrErrors Ip6InTruncatedPkts; do
		n=$((n + $(nstat_get "$1" "$c")))
	done
	for c in drop_decode drop_inner drop_segs; do
		n=$((n + $(stat "$1" "$c") + 0))
	done
	echo "$n"
}

# over NAME DESC ADDR: a transfer over the overlay arrives whole and nothing on
# the way was damaged. A GSO packet that EQDS splits with the wrong headers
# or checksums is thrown away on the way, and TCP resends it: before
# f17cd86, 1196 to 1467 of the 5800 segments of 8 MiB. TCP also resends
# what EQDS's queue tail-dropped at the sender (counted): a tunnel's GSO
# packet is split before it is queued, so the queue's 100 packets fill
# sooner than with plain TCP, and under emulation how often follows the
# host's load (0 to 486 drops for the same transfer). What TCP resent
# beyond those drops stays under 10%, and nothing was counted as damaged
# where the receiver's stack or EQDS looks (checksums, headers,
# undecodable). The holes the receiver gave up on are printed beside them.
over() {
	local r0 m0 q0 s0 r q sk
	r0=$(nstat_get h1 TcpRetransSegs)
	m0=$(mangled h2)
	q0=$(($(stat h1 drop_queue_full) + 0))
	s0=$(($(stat h2 reorder_skipped) + 0))
	xfer "$1" h2 "$2" h1 $((8 << 20))
	r=$(($(nstat_get h1 TcpRetransSegs) - r0))
	q=$(($(stat h1 drop_queue_full) + 0 - q0))
	sk=$(($(stat h2 reorder_skipped) + 0 - s0))
	echo "$1: TCP retransmitted $r segments; EQDS tail-dropped $q packets at the" \
		"sender, gave up on $sk holes at the receiver"
	eqds_stats h2
	check "$1: TCP resent under 10% beyond EQDS's tail drops ($r - $q segments)" \
		test $((r - q)) -lt 580
	expect_eq "$1: nothing counted as damaged (checksums, headers, undecodable)" \
		0 $(($(mangled h2) - m0))
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
ns_del_all

# ---- a router that rewrites the outer IPv4 ID ----
# h1 -- r -- h2; h1 segments its outer packets in software, so the router
# sees (and rewrites) each piece, as a router behind a TSO NIC would.
router_ns r || { fail "router"; exit 1; }
ns_add h1 h2 || { fail "hosts"; exit 1; }
uplink h1 v1 10.0.1.1/24 r r1 10.0.1.254/24
uplink h2 v2 10.0.2.1/24 r r2 10.0.2.254/24
ctl h1 set dests 10.0.2.1/32
ctl h2 set dests 10.0.1.1/32
ip netns exec h1 ethtool -K v1 tso off gso off tx-udp_tnl-segmentation off \
	tx-udp_tnl-csum-segmentation off > /dev/null 2>&1
# The outer DS field of every RTS probe (flags byte 0x10 or 0x11, no
# payload): captured at the router before anything rewrites it.
capture r r1 /tmp/encap.rts.pcap -c 2000 \
	'udp dst port 6666 and udp[9] & 0x10 != 0 and udp[8] & 0x0f = 1'
# The outer ECN field of data packets (type 1, next_proto not 0): TCP here
# does not negotiate ECN, so the inner packets are Not-ECT, and the outer
# header must be ECT(0) all the same, so switches mark instead of dropping
# and the receiver can echo the marked path (eqds.rst, "ECN").
capture r r1 /tmp/encap.data.pcap -c 200 \
	'udp dst port 6666 and udp[8] & 0x0f = 1 and udp[11] != 0'

# rewrite MODE: constant (0), random, or off.
rewrite() {
	ip netns exec r nft list table ip mangle 2> /dev/null | grep -o "counter.*"
	ip netns exec r nft delete table ip mangle 2> /dev/null
	[ "$1" = off ] && return 0
	local val=0
	[ "$1" = random ] && val="numgen random mod 65536"
	ip netns exec r nft -f - <<-EOF
	table ip mangle {
		chain rewriter {
			type filter hook forward priority mangle;
			udp dport 6666 ip id set $val counter
		}
	}
	EOF
}

xfer "through the router, IDs kept" h2 10.0.2.1 h1 $((4 << 20))
fb0=$(stat h1 outer_id_fallback)
rw0=$(stat h2 outer_id_rewritten)
expect_eq "no ID rewritten yet" "0 0" "${fb0:-0} ${rw0:-0}"

check "router rewrites the outer ID to 0" rewrite constant
xfer "through the router, outer IDs set to 0" h2 10.0.2.1 h1 $((8 << 20))
check "the receiver counted rewritten IDs" test "$(stat h2 outer_id_rewritten)" -gt 0
check "the sender fell back to numbering each segment" \
	test "$(stat h1 outer_id_fallback)" -gt 0

check "router rewrites the outer ID to random values" rewrite random
# New tunnels that learnt nothing yet, counters from 0.
check "reload eqds" eqds_load
ctl h1 set dests 10.0.2.1/32
ctl h2 set dests 10.0.1.1/32
xfer "through the router, random outer IDs" h2 10.0.2.1 h1 $((8 << 20))
check "the receiver counted rewritten IDs (random)" \
	test "$(stat h2 outer_id_rewritten)" -gt 0
check "the sender fell back to numbering each segment (random)" \
	test "$(stat h1 outer_id_fallback)" -gt 0
rewrite off
eqds_stats h1
eqds_stats h2

# ---- outer DS field of RTS probes and ECN field of data packets ----
capture_stop
tcpdump -nn -v -r /tmp/encap.data.pcap > /tmp/encap.data.$$ 2> /dev/null
tcpdump -nn -v -r /tmp/encap.rts.pcap > /tmp/encap.rts.$$ 2> /dev/null
ndata=$(grep -c "tos 0x" /tmp/encap.data.$$)
ect0=$(grep -c "tos 0x[0-9a-f]*,ECT(0)" /tmp/encap.data.$$)
echo "data packets captured: $ndata; with an ECT(0) outer header: $ect0"
grep -o "tos 0x[0-9a-f]*[^ ]*" /tmp/encap.data.$$ | sort | uniq -c | head
check "data packets were captured" test "$ndata" -gt 0
expect_eq "outer ECN of $ndata data packets (inner Not-ECT) is ECT(0)" "$ndata" "$ect0"
nrts=$(grep -c "tos 0x" /tmp/encap.rts.$$)
bad=$(grep -o "tos 0x[0-9a-f]*" /tmp/encap.rts.$$ | grep -vc "tos 0x0$")
echo "RTS probes captured: $nrts; with a non-zero outer DS field: $bad"
grep -o "tos 0x[0-9a-f]*" /tmp/encap.rts.$$ | sort | uniq -c | head
if [ "$nrts" -gt 0 ]; then
	expect_eq "outer DS field of $nrts RTS probes is 0" 0 "$bad"
else
	skip "outer DS field of RTS probes" "no RTS probe was sent"
fi
test_failed && exit 1
exit 0
