#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Spraying: hosts a and b talk through two routers joined by 4 parallel
# links of different delays, with an ECMP route that hashes on L4 ports.
# One TCP flow over EQDS uses all 4 paths (the outer UDP source port is the
# path id) and the receiver's reorder queue hides the reordering from TCP.
# Natively the same flow stays on one path (ECMP); sprayed per packet (nft
# numgen on r1), native TCP sees the reordering and retransmits.
#
#   a 10.0.1.1 -- r1 ==4 links, 0.5/1/1.5/2 ms== r2 -- 10.0.2.1 b
source "$(dirname "$0")/lib.sh"
trap ns_del_all EXIT
SECS=${EQDS_SPRAY_SECS:-5}
NPATH=4

check "load eqds" eqds_load
parallel_links $NPATH || fail "topology"
for i in $(seq $NPATH); do
	d=$(awk -v i=$i 'BEGIN{printf "%dus", i * 500}')
	link_shaped r1 p${i}a delay "$d"
	link_shaped r2 p${i}b delay "$d"
done
check "native ping across the routers" ip netns exec a ping -c 2 -i 0.2 -W 2 -q 10.0.2.1
# ECN-capable TCP in every run: a full EQIF queue then marks instead of
# dropping, so retransmissions count reordering damage, not TCP probing
# for its bottleneck (natively the same setting changes nothing: there is
# no queue to mark).
for h in a b; do ip netns exec $h sysctl -qw net.ipv4.tcp_ecn=1; done

# Times a's TCP detected reordering (SACK, timestamps or dupacks).
reorder_events() {
	echo $(($(nstat_get a TcpExtTCPSACKReorder) + $(nstat_get a TcpExtTCPTSReorder) +
		$(nstat_get a TcpExtTCPRenoReorder)))
}

# What made a's TCP retransmit: fast retransmit (dupacks/SACK), tail loss
# probes, timeouts, retransmits in slow start after a timeout.
RETX_KINDS="TcpExtTCPFastRetrans TcpExtTCPLossProbes TcpExtTCPTimeouts TcpExtTCPSlowStartRetrans TcpExtTCPSpuriousRTOs TcpExtTCPLostRetransmit"
retx_kinds() {
	local c
	for c in $RETX_KINDS; do echo -n "$(nstat_get a "$c") "; done
}

# retx_kinds_since "BEFORE": the kinds' increments since BEFORE, named.
retx_kinds_since() {
	local before=($1) now=($(retx_kinds)) c i=0 out=""
	for c in $RETX_KINDS; do
		out+="${c#TcpExtTCP}=$((now[i] - before[i])) "
		i=$((i + 1))
	done
	echo "${out% }"
}

# run LABEL [IPERF3 ARG...]: an iperf3 a->b; sets res_* (Mbit/s,
# retransmissions, path shares).
run() {
	local label=$1 i b0=() p0=() tb=0 r n0 s0 rs0 kinds0
	for i in $(seq $NPATH); do
		b0[i]=$(if_stat r1 p${i}a tx_bytes)
		p0[i]=$(if_stat r1 p${i}a tx_packets)
	done
	n0=$(nstat_get a TcpRetransSegs)
	s0=$(nstat_get a TcpOutSegs)
	rs0=$(reorder_events)
	kinds0=$(retx_kinds)
	shift
	r=$(iperf b 10.0.2.1 a "$SECS" "$@")
	res_mbit=${r% *}
	res_retx=$(($(nstat_get a TcpRetransSegs) - n0))
	res_segs=$(($(nstat_get a TcpOutSegs) - s0))
	res_reord=$(($(reorder_events) - rs0))
	res_kinds=$(retx_kinds_since "$kinds0")
	res_share=()
	for i in $(seq $NPATH); do
		res_b[i]=$(($(if_stat r1 p${i}a tx_bytes) - b0[i]))
		res_p[i]=$(($(if_stat r1 p${i}a tx_packets) - p0[i]))
		tb=$((tb + res_b[i]))
	done
	for i in $(seq $NPATH); do
		res_share[i]=$((tb ? 100 * res_b[i] / tb : 0))
	done
	echo "[${SECONDS}s] $label: ${res_mbit:-?} Mbit/s, TCP retransmitted $res_retx of $res_segs segments" \
		"(iperf3: ${r#* }), reordering events $res_reord;" \
		"path shares ${res_share[*]/%/%} (skbs ${res_p[*]})"
	echo "  retransmissions by kind: $res_kinds"
}

# --- TCP over EQDS ---
# A window that covers the path's bandwidth-delay product (a few ms here).
check "a sends to b over EQDS" ctl a set dests 10.0.2.1/32 window 500
check "b sends to a over EQDS" ctl b set dests 10.0.1.1/32 window 500
check "ping over EQDS" ip netns exec a ping -c 3 -i 0.2 -W 2 -q 10.0.2.1
run "EQDS sprayed"
eqds_mbit=$res_mbit eqds_retx=$res_retx eqds_segs=$res_segs eqds_reord=$res_reord
[ -n "$eqds_mbit" ] && [ "$eqds_mbit" -gt 0 ] && ok "iperf3 over EQDS: $eqds_mbit Mbit/s" ||
	fail "iperf3 over EQDS" "no result"
least=100
for i in $(seq $NPATH); do [ "${res_share[i]}" -lt "$least" ] && least=${res_share[i]}; done
[ "$least" -gt 10 ] && ok "EQDS uses all $NPATH paths (least: $least% of bytes)" ||
	fail "EQDS uses all $NPATH paths" "shares ${res_share[*]}"
# Near zero: at most 0.1% of the segments sent (a handful from the start).
[ $((eqds_retx * 1000)) -le "$eqds_segs" ] &&
	ok "TCP over sprayed EQDS: $eqds_retx retransmissions in $eqds_segs segments" ||
	fail "TCP over sprayed EQDS retransmits near nothing" \
		"$eqds_retx of $eqds_segs segments (reorder_skipped $(stat b reorder_skipped))"
# Several flows in one tunnel are taken up on different CPUs (each flow's
# delivery lane), each still in order: TCP sees (almost) no reordering.
# Retransmissions are not asserted here: 4 flows fill the EQIF queue, whose
# tail drops (drop_queue_full) TCP must see and repair.
run "EQDS sprayed, 4 flows" -P 4
[ $((res_reord * 10000)) -le "$res_segs" ] &&
	ok "4 TCP flows over sprayed EQDS: TCP saw reordering $res_reord times in $res_segs segments" ||
	fail "4 TCP flows over sprayed EQDS see no reordering" "$res_reord events in $res_segs segments"
echo "a: $(eqds_stats a)"
echo "b: $(eqds_stats b)"
echo "b reorder: held $(stat b reorder_held), late $(stat b reorder_late)," \
	"skipped $(stat b reorder_skipped), nacks $(stat b nacks_sent); a: eqds retransmits" \
	"$(stat a retransmits), timeouts $(stat a timeouts), queue drops $(stat a drop_queue_full)"

# --- native TCP, ECMP (one flow hashes to one path) ---
check "a: no EQDS destinations" ctl a set dests none
check "b: no EQDS destinations" ctl b set dests none
run "native ECMP"
ecmp_top=0
for i in $(seq $NPATH); do [ "${res_share[i]}" -gt "$ecmp_top" ] && ecmp_top=${res_share[i]}; done
[ "$ecmp_top" -ge 90 ] && ok "native ECMP keeps the flow on one path ($ecmp_top%)" ||
	fail "native ECMP keeps the flow on one path" "shares ${res_share[*]}"

# --- native TCP sprayed per packet: a random mark picks one of 4 tables ---
ip netns exec r1 nft -f - <<EOF
table ip spray {
	chain pre {
		type filter hook prerouting priority mangle;
		iifname "ra" meta mark set numgen random mod $NPATH offset 1
	}
}
EOF
for i in $(seq $NPATH); do
	ip -n r1 rule add fwmark $i table $((100 + i))
	ip -n r1 route add 10.0.2.0/24 via 10.1.$i.2 table $((100 + i))
done
run "native sprayed"
nat_retx=$res_retx nat_segs=$res_segs nat_reord=$res_reord
least=100
for i in $(seq $NPATH); do [ "${res_share[i]}" -lt "$least" ] && least=${res_share[i]}; done
[ "$least" -gt 10 ] && ok "native per-packet spraying uses all paths (least: $least%)" ||
	fail "native per-packet spraying uses all paths" "shares ${res_share[*]}"
# Retransmissions side by side. Not asserted: natively they come from the
# network's own losses as much as from reordering (Linux TCP's RACK adapts
# to reordering), so their ratio says little; what reordering does to TCP
# is counted next.
echo "retransmitted: EQDS sprayed $eqds_retx of $eqds_segs segments," \
	"native sprayed $nat_retx of $nat_segs"
# What TCP sees: Linux TCP adapts to reordering (RACK), so natively it may
# retransmit little, but it detects the reordering; over EQDS the reorder
# queue hides it: per segment sent, at least 10 times fewer events.
if [ $((eqds_reord * 10 * nat_segs)) -lt $((nat_reord * eqds_segs)) ]; then
	ok "sprayed: TCP saw reordering $eqds_reord times over EQDS, $nat_reord natively"
else
	fail "TCP sees far less reordering over sprayed EQDS than natively" \
		"reordering events: EQDS $eqds_reord in $eqds_segs segments, native $nat_reord in $nat_segs"
fi
echo "summary: EQDS sprayed $eqds_mbit Mbit/s $eqds_retx retx $eqds_reord reorderings;" \
	"native sprayed $res_mbit Mbit/s $nat_retx retx $nat_reord reorderings"

ns_del_all
test_failed && exit 1
exit 0
