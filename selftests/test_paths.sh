#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Path choice (eqds.rst, "Paths"): a sender skips the path ids whose
# packets were lost or came back CE-marked. Hosts a and b talk through two
# routers joined by 4 parallel links, each shaped to 50 Mbit/s with an
# fq_codel that marks CE above 1 ms of queue, under an ECMP route hashed on
# L4 ports. One link is slowed to 10 Mbit/s, then another fails:
#  - natively one TCP flow takes one link (per-flow ECMP);
#  - over EQDS with path choice off (path_choice=0) the flow is sprayed
#    evenly and the slow link holds it back;
#  - with path choice on, the slow link's path ids are held off, so EQDS
#    gets more than native TCP and more than EQDS without path choice, and
#    TCP retransmits next to nothing;
#  - a link that drops every packet during a transfer: the transfer
#    completes intact, and with path choice on at most half as much of
#    what follows goes to the failed link as with it off.
#
#   a 10.0.1.1 -- r1 ==4 links, 50/50/50/10 Mbit/s== r2 -- 10.0.2.1 b
source "$(dirname "$0")/lib.sh"
trap ns_del_all EXIT
SECS=${EQDS_PATHS_SECS:-10}
NPATH=4
SLOW=4

setup() {
	local i rate
	parallel_links $NPATH || return 1
	for i in $(seq $NPATH); do
		rate=50mbit
		[ "$i" = "$SLOW" ] && rate=10mbit
		link_shaped r1 p${i}a rate $rate limit 100 || return 1
		ip netns exec r1 tc qdisc add dev p${i}a parent 20:1 handle 30: \
			fq_codel ce_threshold 1ms || return 1
		link_shaped r2 p${i}b rate 50mbit limit 100 || return 1
	done
	for h in a b; do ip netns exec $h sysctl -qw net.ipv4.tcp_ecn=1; done
	# Penalties count laps of the walk over 256 path ids (a GSO packet
	# takes one), so at these rates 64 KB packets make laps of seconds:
	# 16 KB ones let a few laps fit in a run.
	ip -n a link set va gso_max_size 16384
}

# run LABEL: an iperf3 a->b; sets res_mbit, res_retx and res_share (the
# percentage of bytes r1 sent on each link).
run() {
	local label=$1 i b0=() tb=0 r n0 s0
	for i in $(seq $NPATH); do b0[i]=$(if_stat r1 p${i}a tx_bytes); done
	n0=$(nstat_get a TcpRetransSegs)
	s0=$(nstat_get a TcpOutSegs)
	r=$(iperf b 10.0.2.1 a "$SECS")
	res_mbit=${r% *}
	res_mbit=${res_mbit:-0}
	res_retx=$(($(nstat_get a TcpRetransSegs) - n0))
	res_segs=$(($(nstat_get a TcpOutSegs) - s0))
	for i in $(seq $NPATH); do
		res_b[i]=$(($(if_stat r1 p${i}a tx_bytes) - b0[i]))
		tb=$((tb + res_b[i]))
	done
	for i in $(seq $NPATH); do res_share[i]=$((tb ? 100 * res_b[i] / tb : 0)); done
	echo "[${SECONDS}s] $label: $res_mbit Mbit/s, TCP retransmitted $res_retx;" \
		"link shares ${res_share[*]/%/%} (link $SLOW is the slow one)"
}

# eqds_on 0|1: reload eqds with path choice off or on, a and b over EQDS.
eqds_on() {
	eqds_load path_choice="$1" || return 1
	ctl a set dests 10.0.2.1/32 window 500 || return 1
	ctl b set dests 10.0.1.1/32 window 500
}

check "load eqds" eqds_load
setup || fail "topology"
check "native ping across the routers" ip netns exec a ping -c 2 -i 0.2 -W 2 -q 10.0.2.1

run "native TCP, per-flow ECMP"
native_mbit=$res_mbit native_retx=$res_retx

check "EQDS, path choice off" eqds_on 0
run "EQDS, path choice off"
off_mbit=$res_mbit off_slow=${res_share[SLOW]}
eqds_stats a
eqds_stats b

check "EQDS, path choice on" eqds_on 1
run "EQDS, path choice on"
on_mbit=$res_mbit on_retx=$res_retx on_segs=$res_segs on_slow=${res_share[SLOW]}
eqds_stats a
eqds_stats b
ctl a -s tunnel show 10.0.2.1 tx

[ "$off_slow" -ge 15 ] && ok "path choice off: the slow link carries its even share ($off_slow%)" ||
	fail "path choice off sprays evenly" "slow link share $off_slow%"
[ $((on_slow * 2)) -le "$off_slow" ] &&
	ok "path choice on: the slow link carries less ($on_slow% against $off_slow%)" ||
	fail "path choice holds the slow link off" "$on_slow% against $off_slow%"
[ "$on_mbit" -gt $((off_mbit * 3 / 2)) ] &&
	ok "path choice on: $on_mbit Mbit/s against $off_mbit off" ||
	fail "path choice gains over even spraying" "$on_mbit against $off_mbit Mbit/s"
[ "$on_mbit" -ge "$native_mbit" ] &&
	ok "EQDS with path choice ($on_mbit Mbit/s) at least native per-flow ECMP ($native_mbit)" ||
	fail "EQDS at least native per-flow ECMP" "$on_mbit against $native_mbit Mbit/s"
# Natively the one flow sits on one link whose fq_codel marks it (ECN), so
# it retransmits next to nothing; over EQDS, whose receiver repairs what
# the slow link's queue reorders or loses, so should TCP: at most 0.1% of
# its segments (as test_spray asks of sprayed EQDS).
[ $((on_retx * 1000)) -le "$on_segs" ] &&
	ok "TCP over EQDS with path choice: $on_retx retransmissions in $on_segs segments (natively $native_retx)" ||
	fail "TCP over EQDS with path choice retransmits near nothing" \
		"$on_retx of $on_segs segments (natively $native_retx)"

# ---- a link fails during a transfer ----
# Link 2 drops everything r1 forwards to it (routes unchanged, as before a
# routing protocol reacts), a second into a 32 MiB transfer; the same with
# path choice off, then on.
fail_link() {
	ip netns exec r1 nft -f - <<-EOF
	table inet failed {
		chain forward_drop {
			type filter hook forward priority 0;
			oifname "p2a" counter drop
		}
	}
	EOF
}
lost_at_link() {
	ip netns exec r1 nft list table inet failed 2> /dev/null |
		awk '/counter packets/ { for (i = 1; i < NF; i++) if ($i == "packets") print $(i + 1) }'
}
# tunnel_stat NAME: a counter of a's sending tunnel to b.
tunnel_stat() {
	ctl a -j -s tunnel show 10.0.2.1 tx | grep -o "\"$1\":[0-9]*" | head -1 | cut -d: -f2
}
# failure 0|1: sets fail_lost, fail_sent (packets a sent from the failure
# on), fail_pen and fail_rep (the tunnel's counters' growth since).
failure() {
	local sent0 pen0 rep0
	eqds_on "$1" || return 1
	xfer_bg "a link fails during a transfer (path choice $1)" b 10.0.2.1 a $((32 << 20))
	sleep 1
	kill -0 "$_xfer_pid" 2> /dev/null &&
		ok "the transfer runs when the link fails (path choice $1)" ||
		fail "the transfer runs when the link fails (path choice $1)" "it ended already"
	sent0=$(if_stat a va tx_packets)
	pen0=$(tunnel_stat path_penalties) rep0=$(tunnel_stat repaths)
	check "link 2 fails (path choice $1)" fail_link
	xfer_wait
	fail_lost=$(lost_at_link)
	fail_lost=${fail_lost:-0}
	fail_sent=$(($(if_stat a va tx_packets) - sent0))
	fail_pen=$(($(tunnel_stat path_penalties) - ${pen0:-0}))
	fail_rep=$(($(tunnel_stat repaths) - ${rep0:-0}))
	ip netns exec r1 nft delete table inet failed
	echo "path choice $1: a sent $fail_sent packets after the failure, $fail_lost to the" \
		"failed link; path penalties +$fail_pen, repaths +$fail_rep"
	eqds_stats a
}
failure 0
off_lost=$fail_lost off_sent=$fail_sent
failure 1
# Each of its path ids loses what is sent on it until a NACK comes back (a
# reorder wait later), then misses 8 laps of the walk, then 16...: at
# these rates a lap is a good part of the transfer, so the first losses
# weigh. At most half the share that goes to it without path choice.
[ $((fail_lost * off_sent * 2)) -le $((off_lost * fail_sent)) ] &&
	ok "the failed link is avoided: $fail_lost of $fail_sent packets sent to it ($off_lost of $off_sent without path choice)" ||
	fail "the failed link is avoided" \
		"$fail_lost of $fail_sent packets sent to it ($off_lost of $off_sent without path choice)"
[ "$fail_pen" -gt 0 ] && [ "$fail_rep" -gt 0 ] &&
	ok "the tunnel's counters show it: $fail_pen path penalties, $fail_rep repaths" ||
	fail "the tunnel's counters show the repath" "path_penalties +$fail_pen, repaths +$fail_rep"
test_failed && exit 1
exit 0
