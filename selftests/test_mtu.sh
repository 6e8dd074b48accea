#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Outer MTU and path-MTU discovery (issue 12, item 4). h1 and h2 talk through
# a router r; every check moves data over EQDS and compares it end to end.
#  - a TCP connection opened before `set dests` names the peer (its MSS is
#    the route's, never clamped) goes on over EQDS once capture begins;
#  - a UDP_SEGMENT (GSO) sender whose segments fill the route MTU, and a
#    datagram of the route MTU sent with DF, are delivered (split, or
#    fragmented outside);
#  - the router's link towards h2 shrinks from 1500 to 1400 to 1280 in the
#    middle of a transfer, IPv4 and IPv6: the ICMP errors of the router reach
#    the tunnel (the route to h2 learns the path MTU) and the transfer
#    completes in bounded time.
source "$(dirname "$0")/lib.sh"
MB=${EQDS_MTU_MB:-32}
LIMIT=${EQDS_MTU_SECS:-60}

# xfer_bounded_wait DESC: xfer_wait for the transfer xfer_bg started, failed
# if not done in LIMIT seconds (its processes are then killed, so the
# transfer reports its failure too).
xfer_bounded_wait() {
	local end=$((SECONDS + LIMIT))
	while kill -0 "$_xfer_pid" 2> /dev/null && [ $SECONDS -lt $end ]; do
		sleep 0.2
	done
	if kill -0 "$_xfer_pid" 2> /dev/null; then
		fail "$1: done within ${LIMIT}s" "still running"
		ip netns pids h1 | xargs -r kill
		ip netns pids h2 | xargs -r kill
	else
		ok "$1: done within ${LIMIT}s"
	fi
	xfer_wait
}

check "load eqds" eqds_load
router_ns r || { fail "router"; exit 1; }
ns_add h1 h2
uplink h1 v1 10.0.1.1/24 r r1 10.0.1.254/24
uplink h2 v2 10.0.2.1/24 r r2 10.0.2.254/24
ip -n h1 addr add fd00:1::1/64 dev v1 nodad
ip -n r addr add fd00:1::fe/64 dev r1 nodad
ip -n h2 addr add fd00:2::1/64 dev v2 nodad
ip -n r addr add fd00:2::fe/64 dev r2 nodad
ip -n h1 -6 route add default via fd00:1::fe
ip -n h2 -6 route add default via fd00:2::fe
# The router sends every ICMP error it has to (no rate limit in the test).
ip netns exec r sysctl -qw net.ipv4.icmp_ratelimit=0 net.ipv6.icmp.ratelimit=0
check "h1 reaches h2 natively" ip netns exec h1 ping -c 1 -W 5 -q 10.0.2.1

# fragfails: outer packets h1 had to drop for their size, counted by the
# errors h1 sends itself for them. IPv4: "fragmentation needed" for a packet
# with DF (the inner IPv4 packets are captured before their own MTU check;
# IpFragFails would also count fragments of a packet sent without DF that a
# full device queue refused). IPv6: "packet too big"; Ip6FragFails would
# also count inner TCP segments that ip6_xmit() refuses before capture,
# sized before the route's MTU fell (as natively, but inner TCP gets no ICMP
# error over EQDS: Documentation/eqds.rst, "Path MTU"), which the shrink
# below prints.
fragfails() {
	echo $(($(nstat_get h1 IcmpOutDestUnreachs) + $(nstat_get h1 Icmp6OutPktTooBigs)))
}

# Where a packet is refused for its size, for a failing check: the ICMP
# errors sent (also the router's) and inner IPv6 refusals, with stacks.
TRACING=/sys/kernel/tracing
mountpoint -q $TRACING || mount -t tracefs nodev $TRACING 2> /dev/null
too_big_probes="icmp4:__icmp_send type=%si code=%dx
icmp6:icmp6_send type=%si code=%dx
local6:ipv6_local_error"
too_big_trace() {
	local ev=$TRACING/events/eqds_mtu name def

	[ -w $TRACING/kprobe_events ] || return 0
	[ -d $ev ] && echo 0 > $ev/enable
	while IFS=: read -r name def; do
		[ -d $ev/$name ] && echo '!stacktrace' > $ev/$name/trigger 2> /dev/null
		echo "-:eqds_mtu/$name" >> $TRACING/kprobe_events 2> /dev/null
		[ "$1" = on ] || continue
		echo "p:eqds_mtu/$name $def" >> $TRACING/kprobe_events &&
			echo stacktrace > $ev/$name/trigger
	done <<< "$too_big_probes"
	[ "$1" = on ] && [ -d $ev ] && echo > $TRACING/trace && echo 1 > $ev/enable
	return 0
}
too_big_dump() {
	[ -d $TRACING/events/eqds_mtu ] || return 0
	grep -v '^#' $TRACING/trace | head -300 | sed 's/^/# /'
}
trap 'too_big_trace off; ns_del_all' EXIT
too_big_trace on

# ---- a connection that predates capture ----
ff=$(fragfails)
# Natively the transfer could end before capture begins: h1's link is slowed
# (40 Mbit/s, several seconds for the transfer) until then.
tc -n h1 qdisc add dev v1 root tbf rate 40mbit burst 64kb latency 200ms
xfer_bg "a connection opened before set dests" h2 10.0.2.1 h1 $((MB << 20))
# Capture must begin after the handshake (or the SYN is clamped) and while
# data still flows.
for i in $(seq 100); do
	ip netns exec h1 ss -Htn state established dst 10.0.2.1 | grep -q . && break
	sleep 0.1
done
sleep 0.5
ip netns exec h1 ss -Htn state established dst 10.0.2.1 | grep -q . &&
	kill -0 "$_xfer_pid" 2> /dev/null && ok "the transfer is under way when capture begins" ||
	fail "the transfer is under way when capture begins"
ctl h1 set dests 10.0.2.1/32,fd00:2::1/128
ctl h2 set dests 10.0.1.1/32,fd00:1::1/128
tc -n h1 qdisc del dev v1 root
xfer_bounded_wait "a connection opened before set dests"
n=$(($(fragfails) - ff))
expect_eq "h1 dropped no outer packet for its size" 0 $n
[ $n = 0 ] || too_big_dump
[ "$(stat h1 tx_packets)" -gt 100 ] && ok "it went on over EQDS" ||
	fail "it went on over EQDS" "tx_packets $(stat h1 tx_packets)"
n=$(stat h1 mtu_split)
[ "${n:-0}" -gt 0 ] && ok "h1 resized its too large GSO packets ($n, mtu_split)" ||
	fail "h1 resized its too large GSO packets (mtu_split)" "${n:-absent}"

# ---- UDP: GSO segments and a DF datagram as large as the route allows ----
# udp_test ADDR SEG COUNT MODE: COUNT datagrams of SEG bytes sent from h1 to
# ADDR:7777 in sends of 16 (MODE gso: UDP_SEGMENT) or one by one with DF
# (MODE df); prints how many arrived intact at h2.
udp_test() {
	local addr=$1 seg=$2 count=$3 mode=$4 out=/tmp/mtu.udp.$$
	ip netns exec h2 python3 -c '
import socket, sys
fam = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET
s = socket.socket(fam, socket.SOCK_DGRAM)
s.bind((sys.argv[1], 7777))
open(sys.argv[3], "w").close()
s.settimeout(3)
n = 0
try:
    while True:
        d = s.recv(65535)
        if len(d) == int(sys.argv[2]) and d == bytes([d[0]]) * len(d):
            n += 1
except socket.timeout:
    pass
print(n)' "$addr" "$seg" "$out.ready" > $out &
	local rpid=$! i
	for i in $(seq 100); do
		[ -e "$out.ready" ] && break
		sleep 0.1
	done
	ip netns exec h1 python3 -c '
import socket, sys, time
addr, seg, count, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
s = socket.socket(fam, socket.SOCK_DGRAM)
if mode == "gso":
    s.setsockopt(socket.SOL_UDP, 103, seg)      # UDP_SEGMENT
    for i in range(0, count, 16):
        s.sendto(b"".join(bytes([(i + k) & 0xff]) * seg for k in range(16)), (addr, 7777))
        time.sleep(0.02)
else:
    if fam == socket.AF_INET:
        s.setsockopt(socket.IPPROTO_IP, 10, 2)   # IP_MTU_DISCOVER, IP_PMTUDISC_DO
    else:
        s.setsockopt(socket.IPPROTO_IPV6, 23, 2) # IPV6_MTU_DISCOVER, IPV6_PMTUDISC_DO
    for i in range(count):
        s.sendto(bytes([i & 0xff]) * seg, (addr, 7777))
        time.sleep(0.005)' "$addr" "$seg" "$count" "$mode"
	wait $rpid
	cat $out
	rm -f $out $out.ready
}
ff=$(fragfails)
n=$(udp_test 10.0.2.1 1472 160 gso)
expect_eq "UDP_SEGMENT 1472-byte segments over IPv4 arrive" 160 "$n"
n=$(udp_test fd00:2::1 1452 160 gso)
expect_eq "UDP_SEGMENT 1452-byte segments over IPv6 arrive" 160 "$n"
n=$(udp_test 10.0.2.1 1472 50 df)
expect_eq "1472-byte datagrams with DF over IPv4 arrive" 50 "$n"
n=$(udp_test fd00:2::1 1452 50 df)
expect_eq "1452-byte datagrams with DF over IPv6 arrive" 50 "$n"
n=$(($(fragfails) - ff))
expect_eq "h1 dropped no outer UDP packet for its size" 0 $n
[ $n = 0 ] || too_big_dump

# ---- the underlay's MTU shrinks mid-transfer ----
# shrink: r's link towards h2 goes 1500 -> 1400 -> 1280 while data flows.
shrink() {
	sleep 1
	ip -n r link set r2 mtu 1400
	sleep 1.5
	ip -n r link set r2 mtu 1280
	sleep 0.5
}
for addr in 10.0.2.1 fd00:2::1; do
	ip -n r link set r2 mtu 1500
	ip -n h1 route flush cache 2> /dev/null
	ip -n h1 -6 route flush cache 2> /dev/null
	ff=$(fragfails)
	icmp=$(stat h1 icmp_rcvd)
	# h1's link is slowed (40 Mbit/s: 32 MiB take 7 s) while the MTU
	# shrinks, or a fast host finishes before the 3 s of changes are over.
	tc -n h1 qdisc add dev v1 root tbf rate 40mbit burst 64kb latency 200ms
	xfer_bg "TCP to $addr while the router's MTU shrinks" h2 "$addr" h1 $((MB << 20))
	shrink
	kill -0 "$_xfer_pid" 2> /dev/null && ok "the transfer to $addr outlives the changes" ||
		fail "the transfer to $addr outlives the changes"
	tc -n h1 qdisc del dev v1 root
	xfer_bounded_wait "TCP to $addr while the router's MTU shrinks"
	n=$(($(fragfails) - ff))
	expect_eq "h1 dropped no outer packet to $addr for its size" 0 $n
	[ $n = 0 ] || too_big_dump
	echo "# inner IPv6 packets refused for their size so far (ip6_xmit):" \
		$(($(nstat_get h1 Ip6FragFails) - $(nstat_get h1 Icmp6OutPktTooBigs)))
	mtu=$(ip -n h1 route get "$addr" | grep -o 'mtu [0-9]*')
	expect_eq "h1's route to $addr learnt the path MTU from the router's ICMP" \
		"mtu 1280" "$mtu"
	n=$(($(stat h1 icmp_rcvd) - ${icmp:-0}))
	[ "$n" -gt 0 ] && ok "h1's EQDS socket took the router's ICMP errors ($n, icmp_rcvd)" ||
		fail "h1's EQDS socket took the router's ICMP errors (icmp_rcvd)" "$n"
done
ctl h1 -s show
ctl h2 -s show
