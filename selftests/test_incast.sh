#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Incast: 8 senders send to one receiver at once through a switch whose port
# towards the receiver is a 100 Mbit/s bottleneck (slow enough for the
# emulator to fill natively) with a shallow buffer of 30 packets. Over EQDS
# the receiver pulls a little below the bottleneck, so the queue stays near
# empty, the switch drops (nearly) nothing and every sender gets its fair
# share. The same run without EQDS is printed beside.
#
# Shares are measured at the receiver (TCP bytes from each sender, counted
# by nftables) from 3 s to SECS - 1 s after the clients are launched, while
# every flow runs: under emulation the eight iperf3 clients take up to a
# few seconds to start, and a flow that runs alone for a while at the start
# or the end is not unfair. iperf3's own totals are printed beside.
#
#   s1..s8 (10.0.i.1) -- sw -- tbf 100mbit, 30 packets --> rcv (10.9.0.1)
source "$(dirname "$0")/lib.sh"
trap ns_del_all EXIT
N=${EQDS_INCAST_SENDERS:-8}
SECS=${EQDS_INCAST_SECS:-10}
RATE=${EQDS_INCAST_MBIT:-100}
PULL=${EQDS_INCAST_PULL:-$((RATE * 95 / 100))}
BUF=${EQDS_INCAST_BUF:-30}

check "load eqds" eqds_load
router_ns sw
ns_add rcv
uplink rcv vr 10.9.0.1/24 sw swr 10.9.0.254/24
senders=()
for i in $(seq $N); do
	ns_add s$i
	uplink s$i vs$i 10.0.$i.1/24 sw sw$i 10.0.$i.254/24
	senders+=(s$i)
done
# Offloads at the senders (on by default, as on any Linux host).
if [ "${EQDS_INCAST_OFFLOAD:-on}" != on ]; then
	for i in $(seq $N); do ip netns exec s$i ethtool -K vs$i tso off gso off > /dev/null; done
	echo "senders: TSO and GSO off"
fi
check "shape the switch port to the receiver: $RATE Mbit/s, $BUF packets" \
	link_shaped sw swr rate ${RATE}mbit limit "$BUF"
check "native ping s1 -> rcv" ip netns exec s1 ping -c 1 -W 2 -q 10.9.0.1
check "rcv: a counter of TCP bytes from each sender" src_counters rcv $(seq -f 10.0.%g.1 $N)

# run LABEL: N iperf3 flows at once, one per sender; sets res_* figures.
run() {
	local label=$1 i port d0 p0 samples=/tmp/incast.q.$$
	d0=$(qdisc_stat sw swr tbf drops)
	p0=$(qdisc_stat sw swr tbf packets)
	for i in $(seq $N); do
		ip netns exec rcv timeout $((SECS + 30)) iperf3 -s -1 -p $((5200 + i)) > /dev/null 2>&1 &
	done
	for i in $(seq $N); do wait_listen rcv $((5200 + i)); done
	for i in $(seq $N); do
		ip netns exec s$i iperf3 -c 10.9.0.1 -p $((5200 + i)) -t "$SECS" -O 1 -J \
			> /tmp/incast.$i.json 2> /dev/null &
	done
	# Every sender's bytes from 3 s to SECS - 1 s from here.
	(
		sleep 3
		b0=$(src_bytes rcv)
		sleep $((SECS - 4))
		src_rates "$b0" "$(src_bytes rcv)"
	) > $samples.mid &
	# The bottleneck queue, sampled while the flows run.
	(
		sleep 2
		for _ in $(seq $((SECS * 5 - 10))); do
			echo "$(qdisc_stat sw swr tbf qlen) $(qdisc_stat sw swr tbf drops)"
			sleep 0.2
		done
	) > $samples &
	wait
	# Mbit/s received and retransmissions, per sender.
	res_mbit=($(python3 - $(seq -f /tmp/incast.%g.json $N) <<'PY'
import json, sys
for f in sys.argv[1:]:
    try:
        e = json.load(open(f))["end"]
        print("%.1f/%d" % (e["sum_received"]["bits_per_second"] / 1e6,
                           e["sum_sent"].get("retransmits", 0)))
    except Exception as ex:
        print("iperf3 %s failed: %s" % (f, ex), file=sys.stderr)
        print("0/0")
PY
	))
	rm -f /tmp/incast.*.json
	res_mbit=(0 "${res_mbit[@]}")
	res_retx=$(for i in $(seq $N); do echo "${res_mbit[i]#*/}"; done | awk '{s += $1} END {print s}')
	for i in $(seq $N); do res_mbit[i]=${res_mbit[i]%/*}; done
	unset 'res_mbit[0]'
	# Mbit/s per sender while all compete.
	res_mid=($(cat $samples.mid))
	rm -f $samples.mid
	res_total=$(echo "${res_mbit[@]}" | awk '{for (i = 1; i <= NF; i++) s += $i; printf "%.1f", s}')
	res_jain=$(jain "${res_mid[@]}")
	res_drops=$(($(qdisc_stat sw swr tbf drops) - d0))
	res_pkts=$(($(qdisc_stat sw swr tbf packets) - p0))
	res_qmax=$(sort -n $samples | tail -1 | cut -d' ' -f1)
	res_qavg=$(awk '{s += $1; n++} END {printf "%.1f", n ? s / n : 0}' $samples)
	# When the drops happened: in how many 0.2 s samples, and the most in one.
	res_dropt=$(awk 'NR > 1 && $2 > d {n++; if ($2 - d > m) m = $2 - d} {d = $2}
		END {printf "drops in %d of %d samples, at most %d in one", n, NR - 1, m}' $samples)
	# The worst sender's distance from the fair share, in percent.
	res_dev=$(echo "${res_mid[@]}" | awk '{for (i = 1; i <= NF; i++) s += $i; f = s / NF;
		for (i = 1; i <= NF; i++) { d = ($i - f) / f * 100; if (d < 0) d = -d; if (d > m) m = d }
		printf "%.0f", m}')
	rm -f $samples
	echo "[${SECONDS}s] $label: per sender ${res_mbit[*]} Mbit/s; total $res_total Mbit/s;" \
		"while all compete ${res_mid[*]} Mbit/s: Jain $res_jain," \
		"worst sender ${res_dev}% from the fair share;" \
		"bottleneck: $res_drops drops of $((res_pkts + res_drops)) packets," \
		"queue max ${res_qmax:-?} avg ${res_qavg} packets ($res_dropt);" \
		"TCP retransmits $res_retx"
}

# --- over EQDS ---
for s in "${senders[@]}"; do ctl $s set dests 10.9.0.1/32 || fail "$s: set dests"; done
check "rcv: senders are EQDS destinations, pull rate $PULL Mbit/s" \
	ctl rcv set dests 10.0.0.0/16 pull-rate "$PULL"
check "ping over EQDS" ip netns exec s1 ping -c 2 -i 0.2 -W 2 -q 10.9.0.1
run "EQDS"
e_total=$res_total e_jain=$res_jain e_drops=$res_drops e_pkts=$res_pkts e_dev=$res_dev
e_qmax=$res_qmax e_qavg=$res_qavg
echo "rcv: $(eqds_stats rcv)"
echo "s1: $(eqds_stats s1)"
all=1
for i in $(seq $N); do [ "${res_mbit[i]%.*}" -gt 0 ] || all=0; done
[ $all = 1 ] && ok "EQDS: all $N senders got through ($e_total Mbit/s in all)" ||
	fail "EQDS: all $N senders got through" "${res_mbit[*]}"
# Fewer than 0.5% of the packets dropped at the switch.
[ $((e_drops * 200)) -lt $((e_pkts + e_drops)) ] &&
	ok "EQDS: the switch drops almost nothing ($e_drops of $((e_pkts + e_drops)))" ||
	fail "EQDS: the switch drops almost nothing" "$e_drops drops of $((e_pkts + e_drops)) packets"
[ "$e_dev" -le 10 ] && ok "EQDS: every sender within 10% of the fair share (worst $e_dev%)" ||
	fail "EQDS: every sender within 10% of the fair share" "worst is $e_dev% off: ${res_mid[*]}"
awk -v j="$e_jain" 'BEGIN {exit !(j >= 0.98)}' && ok "EQDS: Jain's index $e_jain >= 0.98" ||
	fail "EQDS: Jain's index >= 0.98" "$e_jain"

# --- native ---
for s in "${senders[@]}" rcv; do ctl $s set dests none || fail "$s: clear dests"; done
run "native"
[ "${res_total%.*}" -gt 0 ] && ok "native incast ran ($res_total Mbit/s)" || fail "native incast ran"
echo "summary: EQDS: Jain $e_jain, worst sender $e_dev% off, drops $e_drops/$((e_pkts + e_drops))," \
	"queue max $e_qmax avg $e_qavg, $e_total Mbit/s;" \
	"native: Jain $res_jain, worst sender $res_dev% off, drops $res_drops/$((res_pkts + res_drops))," \
	"queue max $res_qmax avg $res_qavg, $res_total Mbit/s"

ns_del_all
test_failed && exit 1
exit 0
