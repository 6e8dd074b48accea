#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A SYN-data flood from 100,000 spoofed sources, half inside h2's peer
# prefixes and half outside, while h1 sends to h2 (Documentation/
# threat-model.rst). Outsiders create nothing and are counted; insiders
# create tunnels at most at tunnel_rate a second and up to max_rx_tunnels,
# each asking for two quanta of credit at most; the half-open tunnels are
# reaped a second later. h1 keeps its throughput within the stated margin.
source "$(dirname "$0")/lib.sh"
trap ns_del_all EXIT
HOSTILE="python3 $TOP/selftests/tools/eqds_hostile.py"
SOURCES=${EQDS_FLOOD_SOURCES:-100000}
PPS=${EQDS_FLOOD_PPS:-4000}
MAXT=100 TRATE=100 RATE=10
# h1 must keep this percentage of its throughput without the flood. Under
# emulation most of the loss is CPU: the flooder and h2's work for 2500
# packets a second share the two CPUs with the transfer. The pull credit
# the spoofed tunnels can take is bounded by 2 quanta per tunnel created.
MARGIN=60

check "load eqds: at most $MAXT receiving tunnels, $TRATE new ones a second" \
	eqds_load max_rx_tunnels=$MAXT tunnel_rate=$TRATE
two_hosts || { fail "two hosts"; exit 1; }
ns_add m
veth m e0 10.3.0.2/24 h2 e2 10.3.0.1/24
ip -n m route add 10.0.1.2/32 via 10.3.0.1
ip -n h2 route add 10.2.0.0/16 via 10.3.0.2
ip -n h2 route add 10.9.0.0/16 via 10.3.0.2
check "h2 accepts 10.2.0.0/16 as peers too, pulls at $RATE Mbit/s" \
	ctl h2 set dests 10.0.1.1/32,10.2.0.0/16 pull-rate $RATE

slab() { awk '$1 == "Slab:" {print $2}' /proc/meminfo; }
base=$(iperf h2 10.0.1.2 h1 5 | cut -d' ' -f1)
echo "h1 -> h2 without the flood: $base Mbit/s"

c0=$(stat h2 tunnels_created) r0=$(stat h2 drop_tunnel_rate) l0=$(stat h2 drop_tunnel_limit)
p0=$(stat h2 drop_peer) s0=$(slab)
ip netns exec m $HOSTILE flood --dst 10.0.1.2 --peers 10.2.0.0/16 --outside 10.9.0.0/16 \
	--count "$SOURCES" --pps "$PPS" > /tmp/flood.$$ &
fpid=$!
sleep 1
iperf h2 10.0.1.2 h1 10 > /tmp/flood.iperf.$$ &
ipid=$!
peak=0 speak=0
while kill -0 $fpid 2> /dev/null; do
	n=$(stat h2 tunnels) s=$(slab)
	[ "$n" -gt "$peak" ] && peak=$n
	[ "$s" -gt "$speak" ] && speak=$s
	sleep 0.5
done
wait $ipid
under=$(cut -d' ' -f1 /tmp/flood.iperf.$$)
sent=$(cat /tmp/flood.$$)
rm -f /tmp/flood.$$ /tmp/flood.iperf.$$
echo "flood: $sent; h1 -> h2 during it: $under Mbit/s; tunnels at most $peak;" \
	"slab grew by at most $(((speak - s0) / 1024)) MiB"
echo "h2: $(eqds_stats h2)"
inside=$(json_get "$sent" "j['peers']") outside=$(json_get "$sent" "j['outside']")
[ $((inside + outside)) -eq "$SOURCES" ] && ok "m flooded from $SOURCES spoofed sources" ||
	fail "m flooded from $SOURCES spoofed sources" "$sent"
sleep 0.5
expect_eq "every outsider's packet dropped as not a peer ($outside)" "$outside" \
	$(($(stat h2 drop_peer) - p0))
c=$(($(stat h2 tunnels_created) - c0)) r=$(($(stat h2 drop_tunnel_rate) - r0))
l=$(($(stat h2 drop_tunnel_limit) - l0))
echo "insiders: $c tunnels created, $r refused by the rate limit, $l by the tunnel limit"
expect_eq "every insider created a tunnel or was refused by a limit ($inside)" "$inside" \
	$((c + r + l))
secs=$(json_get "$sent" "j['secs']")
[ "$c" -le "$(awk -v s="$secs" -v r=$TRATE 'BEGIN{printf "%d", (s + 1) * r * 1.2 + r / 10}')" ] &&
	ok "tunnels created at most at the rate limit ($c in ${secs}s)" ||
	fail "tunnels created at most at the rate limit" "$c in ${secs}s"
[ "$peak" -le $((MAXT + 2)) ] && ok "tunnels never above the limit ($peak <= $MAXT + 2)" ||
	fail "tunnels never above the limit" "$peak"
echo "pull credit the spoofed tunnels could take: at most" \
	"$(awk -v c="$c" -v s="$secs" 'BEGIN{printf "%.1f", c * 2 * 1536 * 8 / s / 1e6}') Mbit/s of $RATE"
[ "$((under * 100))" -ge "$((base * MARGIN))" ] &&
	ok "h1 kept its throughput within $((100 - MARGIN))% ($under of $base Mbit/s)" ||
	fail "h1 kept its throughput within $((100 - MARGIN))%" "$under of $base Mbit/s"

# Half-open state goes away.
for i in $(seq 60); do [ "$(stat h2 tunnels)" -le 2 ] && break; sleep 0.1; done
n=$(stat h2 tunnels)
[ "$n" -le 2 ] && ok "half-open tunnels reaped after the flood ($n left)" ||
	fail "half-open tunnels reaped after the flood" "$n left"
echo "slab after: $((($(slab) - s0) / 1024)) MiB above the start"
xfer "h1 -> h2 after the flood" h2 10.0.1.2 h1 $((8 << 20))
