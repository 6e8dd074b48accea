#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Path choice over a leaf-spine (eqds.rst, "Paths"): a sender skips the
# path ids whose packets were lost or came back CE-marked. Two leaves with
# two hosts each, joined by 4 spines (scripts/eval/topo.sh's fabric); the
# spine links are 25 Mbit/s, the hosts' 100, each queue towards leaf 2
# marks CE above 1 ms (fq_codel ce_threshold), and leaves route to the
# other leaf over ECMP hashed on L4 ports. Spine 4 is slowed to 5 Mbit/s,
# then spine 2 fails:
#  - natively each TCP flow takes one spine (per-flow ECMP), at most a
#    spine's rate, less where flows collide or hash to the slow spine;
#  - over EQDS with path choice off (path_choice=0) the flows are sprayed
#    evenly and the slow spine holds them back;
#  - with path choice on, the slow spine's path ids are held off, so the
#    hosts get at least what they get natively, on average, and more than
#    without path choice, and TCP retransmits next to nothing;
#  - receivers pulling at 95 Mbit/s each offer the spines twice what they
#    carry; TCP without ECN does not hear their marks, EQDS's receivers do
#    with core_cc=1 (eqds.rst, "Core congestion"): they pull more slowly and
#    less of their data arrives marked;
#  - a spine that drops every packet, both ways, during a transfer: the
#    transfer completes intact, and with path choice on at most half as
#    much of what follows goes to the failed spine as with it off.
#
#   h1 10.1.1.1, h2 10.1.2.1 -- l1 ==4 spines, 25/25/25/5 Mbit/s== l2 -- h3 10.2.3.1, h4 10.2.4.1
source "$(dirname "$0")/lib.sh"
source "$TOP/scripts/eval/topo.sh"
trap ns_del_all EXIT
SECS=${EQDS_PATHS_SECS:-10}
NSPINE=4
SLOW=4
DOWN=2
SRC=(h1 h2)
DST=(h3 h4)

setup() {
	local k rate q ns dev
	topo_fabric 4 $NSPINE 100 100 || return 1
	# Towards leaf 2: the leaf's uplink and the spine's downlink.
	for k in $(seq $NSPINE); do
		rate=25mbit
		[ "$k" = "$SLOW" ] && rate=5mbit
		for q in "l1 u$k" "sp$k d2"; do
			read -r ns dev <<< "$q"
			link_shaped "$ns" "$dev" rate $rate limit 100 || return 1
			ip netns exec "$ns" tc qdisc add dev "$dev" parent 20:1 handle 30: \
				fq_codel ce_threshold 1ms || return 1
		done
	done
	for h in h1 h2 h3 h4; do ip netns exec $h sysctl -qw net.ipv4.tcp_ecn=1; done
	# Penalties count laps of the walk over 256 path ids (a GSO packet
	# takes one), so at these rates 64 KB packets make laps of seconds:
	# 16 KB ones let a few laps fit in a run.
	ip -n h1 link set vh1 gso_max_size 16384
	ip -n h2 link set vh2 gso_max_size 16384
}

# spine_drops: packets the queues towards leaf 2 dropped so far, in all.
spine_drops() {
	local k n=0
	for k in $(seq $NSPINE); do
		n=$((n + $(qdisc_stat l1 "u$k" tbf drops) + $(qdisc_stat "sp$k" d2 tbf drops)))
	done
	echo $n
}

# spine_bytes: bytes each spine sent towards leaf 2 so far.
spine_bytes() {
	local k
	for k in $(seq $NSPINE); do if_stat "sp$k" d2 tx_bytes; done
}

# run LABEL: iperf3 h1 -> h3 and h2 -> h4 at once; sets res_mbit (both
# hosts' Mbit/s), res_retx and res_segs (TCP
# retransmissions and segments of both), res_share (the percentage of
# the bytes each spine carried to leaf 2) and res_drops (packets the
# queues towards leaf 2 dropped).
run() {
	local label=$1 i b0 b1 tb=0 n0=0 s0=0 d0
	read -ra b0 <<< "$(spine_bytes | tr '\n' ' ')"
	d0=$(spine_drops)
	for i in 0 1; do
		n0=$((n0 + $(nstat_get ${SRC[i]} TcpRetransSegs)))
		s0=$((s0 + $(nstat_get ${SRC[i]} TcpOutSegs)))
	done
	# Both servers listen before either client starts: the flows overlap.
	for i in 0 1; do
		ip netns exec ${DST[i]} iperf3 -s -1 -p $((6301 + i)) > /dev/null 2>&1 &
	done
	for i in 0 1; do wait_listen ${DST[i]} $((6301 + i)); done
	for i in 0 1; do
		ip netns exec ${SRC[i]} iperf3 -c "$(topo_fabric_addr $((i + 3)) 4)" \
			-p $((6301 + i)) -t "$SECS" -J > /tmp/paths.$$.$i 2> /dev/null &
	done
	wait
	read -ra res_mbit <<< "$(python3 -c 'import json, sys
for f in sys.argv[1:]:
    try:
        print("%.0f" % (json.load(open(f))["end"]["sum_received"]["bits_per_second"] / 1e6), end=" ")
    except Exception:
        print(0, end=" ")' /tmp/paths.$$.0 /tmp/paths.$$.1)"
	rm -f /tmp/paths.$$.*
	res_retx=$((-n0)) res_segs=$((-s0))
	for i in 0 1; do
		res_retx=$((res_retx + $(nstat_get ${SRC[i]} TcpRetransSegs)))
		res_segs=$((res_segs + $(nstat_get ${SRC[i]} TcpOutSegs)))
	done
	read -ra b1 <<< "$(spine_bytes | tr '\n' ' ')"
	res_drops=$(($(spine_drops) - d0))
	for i in $(seq 0 $((NSPINE - 1))); do
		b1[i]=$((b1[i] - b0[i]))
		tb=$((tb + b1[i]))
	done
	res_share=()
	for i in $(seq 0 $((NSPINE - 1))); do res_share[i]=$((tb ? 100 * b1[i] / tb : 0)); done
	echo "[${SECONDS}s] $label: ${res_mbit[*]/%/ Mbit/s}, TCP retransmitted $res_retx" \
		"of $res_segs; spine shares ${res_share[*]/%/%} (spine $SLOW is the slow one);" \
		"$res_drops dropped towards leaf 2"
}

# eqds_on 0|1 [PARAM...]: reload eqds with path choice off or on (and any
# other module parameters), every host over EQDS.
eqds_on() {
	local h pc=$1
	shift
	eqds_load path_choice="$pc" "$@" || return 1
	for h in h1 h2 h3 h4; do
		ctl $h set dests 10.1.0.0/16,10.2.0.0/16 window 500 || return 1
	done
}

check "load eqds" eqds_load
setup || fail "topology"
check "native ping across the spines" ip netns exec h1 ping -c 2 -i 0.2 -W 2 -q 10.2.3.1

run "native TCP, per-flow ECMP"
native_mbit=("${res_mbit[@]}") native_retx=$res_retx

check "EQDS, path choice off" eqds_on 0
run "EQDS, path choice off"
off_mbit=("${res_mbit[@]}") off_slow=${res_share[SLOW - 1]}
eqds_stats h1
eqds_stats h3

check "EQDS, path choice on" eqds_on 1
run "EQDS, path choice on"
on_mbit=("${res_mbit[@]}") on_retx=$res_retx on_segs=$res_segs
on_slow=${res_share[SLOW - 1]}
eqds_stats h1
eqds_stats h3
ctl h1 -s tunnel show 10.2.3.1 tx

# Core congestion: the receivers pull at their links' 95 Mbit/s (set: veth
# reports 10 Gbit/s), together more than twice what the spines carry to
# leaf 2; then the same with them reacting to the spines' marks (core_cc).
# TCP is not ECN-capable here (Linux's default asks for ECN only when the
# peer does): the outer headers still are, and only EQDS hears the marks.
pull_95() { ctl h3 set pull-rate 95 && ctl h4 set pull-rate 95; }
# marked_permille: the per mille of the data h3 and h4 received since eqds was
# loaded whose outer header a spine marked CE.
marked_permille() {
	local ce=$(($(stat h3 rx_ce_bytes) + $(stat h4 rx_ce_bytes)))
	local all=$(($(stat h3 rx_arrived_bytes) + $(stat h4 rx_arrived_bytes)))
	echo $((all ? ce * 1000 / all : 0))
}
for h in h1 h2 h3 h4; do ip netns exec $h sysctl -qw net.ipv4.tcp_ecn=0; done
check "EQDS, path choice on, pulling at 95 Mbit/s" eval "eqds_on 1 core_cc=0 && pull_95"
run "EQDS, path choice on, pulling at 95 Mbit/s"
p95_mbit=("${res_mbit[@]}") p95_retx=$res_retx p95_segs=$res_segs p95_drops=$res_drops
p95_marked=$(marked_permille)
check "EQDS, path choice and core_cc on" eval "eqds_on 1 core_cc=1 && pull_95"
run "EQDS, path choice and core_cc on"
cc_mbit=("${res_mbit[@]}") cc_retx=$res_retx cc_segs=$res_segs cc_drops=$res_drops
cc_rate=("$(stat h3 pull_rate)" "$(stat h4 pull_rate)")
cc_ce=("$(stat h3 rx_ce_bytes)" "$(stat h4 rx_ce_bytes)")
cc_marked=$(marked_permille)
eqds_stats h3
for h in h1 h2 h3 h4; do ip netns exec $h sysctl -qw net.ipv4.tcp_ecn=1; done

sum() { echo $(($1 + $2)); }
all_ran=1
for m in "${native_mbit[@]}" "${off_mbit[@]}" "${on_mbit[@]}"; do [ "$m" -gt 0 ] || all_ran=0; done
[ ${#native_mbit[@]} = 2 ] && [ ${#off_mbit[@]} = 2 ] && [ ${#on_mbit[@]} = 2 ] && [ $all_ran = 1 ] &&
	ok "every flow ran" ||
	fail "every flow ran" "native ${native_mbit[*]}, off ${off_mbit[*]}, on ${on_mbit[*]} Mbit/s"
[ "$off_slow" -ge 15 ] && ok "path choice off: the slow spine carries its even share ($off_slow%)" ||
	fail "path choice off sprays evenly" "slow spine share $off_slow%"
[ $((on_slow * 2)) -le "$off_slow" ] &&
	ok "path choice on: the slow spine carries less ($on_slow% against $off_slow%)" ||
	fail "path choice holds the slow spine off" "$on_slow% against $off_slow%"
[ "$(sum "${on_mbit[@]}")" -gt $(($(sum "${off_mbit[@]}") * 3 / 2)) ] &&
	ok "path choice on: ${on_mbit[*]} Mbit/s against ${off_mbit[*]} off" ||
	fail "path choice gains over even spraying" "${on_mbit[*]} against ${off_mbit[*]} Mbit/s"
# Per host on average (the two hosts' sum): natively the flows may hash to
# two fast spines, the best case, and EQDS must still match it.
[ "$(sum "${on_mbit[@]}")" -ge "$(sum "${native_mbit[@]}")" ] &&
	ok "EQDS with path choice (${on_mbit[*]} Mbit/s) at least native per-flow ECMP (${native_mbit[*]})" ||
	fail "EQDS at least native per-flow ECMP, per host" \
		"${on_mbit[*]} against ${native_mbit[*]} Mbit/s"
# Natively each flow sits on one spine whose fq_codel marks it (ECN), so
# it retransmits little; over EQDS, whose receiver repairs what the
# spines' queues reorder or lose, TCP retransmits no more than natively,
# or at most 0.1% of its segments (as test_spray asks of sprayed EQDS).
[ "$on_retx" -le "$native_retx" ] || [ $((on_retx * 1000)) -le "$on_segs" ] &&
	ok "TCP over EQDS with path choice: $on_retx retransmissions in $on_segs segments (natively $native_retx)" ||
	fail "TCP over EQDS with path choice retransmits no more than natively" \
		"$on_retx of $on_segs segments (natively $native_retx)"

# core_cc: the marks reach the receivers, which pull more slowly than the
# 95 Mbit/s set, so that the spines' queues stay shorter: less of the data
# arrives marked. (Drops are too few either way to compare: the spines'
# queues mark long before they fill.)
[ "${cc_ce[0]:-0}" -gt 0 ] && [ "${cc_ce[1]:-0}" -gt 0 ] &&
	[ "${cc_rate[0]:-0}" -gt 0 ] && [ "${cc_rate[0]}" -lt 95000000 ] &&
	[ "${cc_rate[1]:-0}" -gt 0 ] && [ "${cc_rate[1]}" -lt 95000000 ] &&
	ok "core_cc: marked data lowers the pull rate (${cc_rate[*]} bit/s; ${cc_ce[*]} CE bytes)" ||
	fail "core_cc: marked data lowers the pull rate" \
		"pull_rate ${cc_rate[*]}, rx_ce_bytes ${cc_ce[*]}"
[ "$cc_marked" -lt "$p95_marked" ] &&
	ok "core_cc: less data arrives marked ($cc_marked per mille against $p95_marked)" ||
	fail "core_cc: less data arrives marked" "$cc_marked per mille against $p95_marked"
echo "core_cc: ${cc_mbit[*]} Mbit/s, $cc_retx TCP retransmissions in $cc_segs segments," \
	"$cc_drops spine drops (without: ${p95_mbit[*]} Mbit/s, $p95_retx in $p95_segs," \
	"$p95_drops drops)"

# ---- a spine fails during a transfer ----
# Spine 2 drops everything it would forward, both ways (routes unchanged,
# as before a routing protocol reacts), a second into a transfer h1 -> h3:
# 4 MiB with path choice off (a quarter of everything lost, both ways:
# about 1 Mbit/s), then 16 MiB with it on. What it drops from leaf 1 is
# counted apart: h1's data, for the share sent to it.
fail_spine() {
	ip netns exec sp$DOWN nft -f - <<-EOF
	table inet failed {
		chain forward_drop {
			type filter hook forward priority 0;
			iifname "d1" counter drop
			counter drop
		}
	}
	EOF
}
lost_at_spine() {
	ip netns exec sp$DOWN nft list table inet failed 2> /dev/null |
		awk '/iifname/ && /counter packets/ {
			for (i = 1; i < NF; i++) if ($i == "packets") print $(i + 1) }'
}
# tunnel_stat NAME: a counter of h1's sending tunnel to h3.
tunnel_stat() {
	ctl h1 -j -s tunnel show 10.2.3.1 tx | grep -o "\"$1\":[0-9]*" | head -1 | cut -d: -f2
}
# failure 0|1 MIB: sets fail_lost, fail_sent (packets h1 sent from the
# failure on), fail_pen and fail_rep (the tunnel's counters' growth since).
failure() {
	local sent0 pen0 rep0
	eqds_on "$1" || return 1
	xfer_bg "a spine fails during a transfer (path choice $1)" h3 10.2.3.1 h1 $(($2 << 20))
	sleep 1
	kill -0 "$_xfer_pid" 2> /dev/null &&
		ok "the transfer runs when the spine fails (path choice $1)" ||
		fail "the transfer runs when the spine fails (path choice $1)" "it ended already"
	sent0=$(if_stat h1 vh1 tx_packets)
	pen0=$(tunnel_stat path_penalties) rep0=$(tunnel_stat repaths)
	check "spine $DOWN fails (path choice $1)" fail_spine
	xfer_wait
	fail_lost=$(lost_at_spine)
	fail_lost=${fail_lost:-0}
	fail_sent=$(($(if_stat h1 vh1 tx_packets) - sent0))
	fail_pen=$(($(tunnel_stat path_penalties) - ${pen0:-0}))
	fail_rep=$(($(tunnel_stat repaths) - ${rep0:-0}))
	ip netns exec sp$DOWN nft delete table inet failed
	echo "path choice $1: h1 sent $fail_sent packets after the failure, $fail_lost to the" \
		"failed spine; path penalties +$fail_pen, repaths +$fail_rep"
	eqds_stats h1
}
failure 0 4
off_lost=$fail_lost off_sent=$fail_sent
failure 1 16
# Each of its path ids loses what is sent on it until a NACK comes back (a
# reorder wait later), then misses 8 laps of the walk, then 16...: at
# these rates a lap is a good part of the transfer, so the first losses
# weigh. At most half the share that goes to it without path choice.
[ "$off_lost" -gt 0 ] && [ $((fail_lost * off_sent * 2)) -le $((off_lost * fail_sent)) ] &&
	ok "the failed spine is avoided: $fail_lost of $fail_sent packets sent to it ($off_lost of $off_sent without path choice)" ||
	fail "the failed spine is avoided" \
		"$fail_lost of $fail_sent packets sent to it ($off_lost of $off_sent without path choice)"
[ "$fail_pen" -gt 0 ] && [ "$fail_rep" -gt 0 ] &&
	ok "the tunnel's counters show it: $fail_pen path penalties, $fail_rep repaths" ||
	fail "the tunnel's counters show the repath" "path_penalties +$fail_pen, repaths +$fail_rep"
test_failed && exit 1
exit 0
