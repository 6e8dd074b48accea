#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tunnels are soft state. (a) Idle tunnels are reaped after the idle timeout
# and come back with traffic. (b) A receiver that forgot a tunnel the sender
# still has (its idle timeout is much shorter) answers the sender's next
# packets with an RST, the sender restarts with a new epoch, and a TCP
# transfer across such pauses arrives intact. (c) The module unloads under
# load, and once loaded again carries traffic again.
source "$(dirname "$0")/lib.sh"
trap ns_del_all EXIT
MB=${EQDS_SOFTSTATE_MB:-600}

check "load eqds" eqds_load
two_hosts || { fail "two hosts"; exit 1; }

# --- (a) idle tunnels go away, and come back ---
check "h1: idle timeout 500 ms" ctl h1 set idle-timeout 500
check "h2: idle timeout 500 ms" ctl h2 set idle-timeout 500
# ping_during DESC SECONDS: ping h1 -> h2 for that long, and read the
# tunnel gauges (n1, n2) while it runs, until both are up: they fall to 0
# soon after it ends. However long a read takes (an eqdsctl process each:
# seconds on the debug kernel), reading goes on while the pings do.
ping_during() {
	local ppid
	ip netns exec h1 ping -c $(($2 * 5)) -i 0.2 -W 2 -q 10.0.1.2 > /dev/null &
	ppid=$!
	until both_up || ! kill -0 $ppid 2> /dev/null; do sleep 0.1; done
	wait $ppid && ok "$1" || fail "$1"
}
both_up() {
	n1=$(stat h1 tunnels) n2=$(stat h2 tunnels)
	[ "$n1" -gt 0 ] && [ "$n2" -gt 0 ]
}

ping_during "ping h1 -> h2" 4
[ "$n1" -gt 0 ] && [ "$n2" -gt 0 ] && ok "tunnels up with traffic (h1 $n1, h2 $n2)" ||
	fail "tunnels up with traffic" "h1 $n1 h2 $n2"
t0=$SECONDS
wait_until 5 stat_is h1 tunnels -eq 0 && wait_until 5 stat_is h2 tunnels -eq 0
echo "tunnels gone after $((SECONDS - t0)) s or less"
expect_eq "h1: no tunnel left after the idle timeout" 0 "$(stat h1 tunnels)"
expect_eq "h2: no tunnel left after the idle timeout" 0 "$(stat h2 tunnels)"
r1=$(stat h1 tunnels_reaped) r2=$(stat h2 tunnels_reaped)
[ "$r1" -gt 0 ] && [ "$r2" -gt 0 ] && ok "idle tunnels reaped (h1 $r1, h2 $r2)" ||
	fail "idle tunnels reaped" "h1 $r1 h2 $r2"
c1=$(stat h1 tunnels_created) c2=$(stat h2 tunnels_created)
ping_during "ping h1 -> h2 after the reap" 4
c1=$(($(stat h1 tunnels_created) - c1)) c2=$(($(stat h2 tunnels_created) - c2))
[ "$n1" -gt 0 ] && [ "$n2" -gt 0 ] && [ "$c1" -gt 0 ] && [ "$c2" -gt 0 ] &&
	ok "tunnels back with traffic (h1 $n1, h2 $n2; created again: h1 $c1, h2 $c2)" ||
	fail "tunnels back with traffic" "alive h1 $n1 h2 $n2, created h1 $c1 h2 $c2"

# --- (b) the receiver forgets, the sender does not: RST, restart ---
# Epochs come from the microsecond wall clock (32 bits, 71-minute period).
# Run this part with bit 31 of it set, where a new tunnel once always got
# epoch 1: the wall clock moves forward by up to 36 minutes (a throwaway VM),
# and back by as much afterwards.
shift_us=$(python3 -c 'import time; us = int(time.time() * 1e6); print(0 if us >> 31 & 1 else (1 << 31) - (us & ((1 << 31) - 1)) + 60000000)')
[ "$shift_us" != 0 ] && date -s "@$(python3 -c "import time; print('%.6f' % (time.time() + $shift_us / 1e6))")" > /dev/null
check "h1: idle timeout 10 s" ctl h1 set idle-timeout 10000
check "h2: idle timeout 100 ms" ctl h2 set idle-timeout 100
rst0=$(stat h1 rsts_rcvd) rs0=$(stat h1 restarts) sent0=$(stat h2 rsts_sent)
reap0=$(stat h2 tunnels_reaped)
port=$((20000 + RANDOM % 20000))
out=/tmp/softstate.$$
ip netns exec h2 python3 "$TOP/selftests/tools/xfer.py" serve 10.0.1.2 $port > $out.r &
spid=$!
wait_listen h2 $port
ip netns exec h1 python3 "$TOP/selftests/tools/xfer.py" send 10.0.1.2 $port \
	$((MB << 20)) > $out.s 2>&1 &
cpid=$!
pauses=0
sleep 1
# The sender pauses for 1 s: h2 reaps its tunnels, h1 keeps its own.
for _ in 1 2 3; do
	kill -STOP $cpid 2> /dev/null || break
	sleep 1
	kill -CONT $cpid
	pauses=$((pauses + 1))
	sleep 0.5
done
wait $cpid
wait $spid
s=$(cat $out.s) r=$(cat $out.r)
rm -f $out.s $out.r
echo "transfer with $pauses pauses: sent '$s' received '$r'"
[ "$pauses" -gt 0 ] && ok "the sender paused $pauses times mid-transfer" ||
	fail "the sender paused mid-transfer" "the transfer ended first: raise EQDS_SOFTSTATE_MB"
if [ -n "$r" ] && [ "$r" = "$s" ] && [ "${r%% *}" = $((MB << 20)) ]; then
	ok "transfer across receiver resets: $MB MiB, content intact"
else
	fail "transfer across receiver resets" "sent '$s' received '$r'"
fi
reaped=$(($(stat h2 tunnels_reaped) - reap0))
rsts=$(($(stat h1 rsts_rcvd) - rst0)) restarts=$(($(stat h1 restarts) - rs0))
sent=$(($(stat h2 rsts_sent) - sent0))
echo "h2 reaped $reaped tunnels and sent $sent RSTs; h1 received $rsts RSTs, restarted $restarts times"
[ "$reaped" -gt 0 ] && ok "h2 reaped its tunnels during the pauses ($reaped)" ||
	fail "h2 reaped its tunnels during the pauses"
[ "$rsts" -gt 0 ] && [ "$restarts" -gt 0 ] &&
	ok "h1 got RSTs ($rsts) and restarted its tunnel ($restarts)" ||
	fail "h1 got RSTs and restarted its tunnel" "rsts_rcvd +$rsts restarts +$restarts"
# h2 forgets its own sending tunnel too, h1 still holds the receiving end
# of it: h2's next incarnation must be accepted at once.
wait_until 5 stat_is h2 tunnels -eq 0
check "h1 -> h2 after h2 forgot both its tunnels" \
	ip netns exec h1 ping -c 3 -i 0.3 -W 1 -q 10.0.1.2
echo "h1: $(eqds_stats h1)"
echo "h2: $(eqds_stats h2)"
if [ "$shift_us" != 0 ]; then
	date -s "@$(python3 -c "import time; print('%.6f' % (time.time() - $shift_us / 1e6))")" > /dev/null
	# Epochs taken from now on compare older than those the peers hold
	# (a clock stepped back): start again from no tunnels at all.
	ctl h1 set idle-timeout 100
	ctl h2 set idle-timeout 100
	wait_until 5 stat_is h1 tunnels -eq 0
	wait_until 5 stat_is h2 tunnels -eq 0
	ctl h1 set idle-timeout 10000
fi

# --- (c) rmmod under load, insmod, traffic again ---
check "h2: idle timeout back to 10 s" ctl h2 set idle-timeout 10000
port=$((20000 + RANDOM % 20000))
ip netns exec h2 iperf3 -s -1 -p $port > /dev/null 2>&1 &
spid=$!
wait_listen h2 $port
tx=$(stat h1 tx_packets)
ip netns exec h1 timeout 60 iperf3 -c 10.0.1.2 -p $port -t 30 -P 4 -i 1 --forceflush \
	> $out.s 2>&1 &
cpid=$!
sleep 3
tx=$(($(stat h1 tx_packets) - tx))
[ "$tx" -gt 1000 ] && ok "iperf3 under way over EQDS ($tx packets)" ||
	fail "iperf3 under way over EQDS" "h1 sent $tx packets: $(eqds_stats h1)"
t0=$(date +%s%N)
out_rm=$(timeout 20 rmmod eqds 2>&1)
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
echo "rmmod under load: exit $rc after $ms ms ${out_rm:+($out_rm)}"
[ $rc = 0 ] && ok "rmmod eqds under load ($ms ms)" || fail "rmmod eqds under load" "exit $rc: $out_rm"
[ $rc = 0 ] && [ "$ms" -lt 5000 ] && ok "rmmod took less than 5 s" ||
	fail "rmmod took less than 5 s" "$ms ms"
check "the module is gone" test ! -d /sys/module/eqds
# Without the module the hosts talk natively: the flows go on or end.
sleep 1
check "native ping while the old transfer runs" ip netns exec h1 ping -c 2 -i 0.2 -W 2 -q 10.0.1.2
kill $cpid 2> /dev/null
wait $cpid
echo "the iperf3 that ran across rmmod (4 flows, per second):"
grep -E 'SUM|error' $out.s
kill $spid 2> /dev/null
wait $spid 2> /dev/null
rm -f $out.s
check "insmod again" eqds_load
check "h1 dests again" ctl h1 set dests 10.0.1.2/32
check "h2 dests again" ctl h2 set dests 10.0.1.1/32
check "ping over EQDS after insmod" ip netns exec h1 ping -c 3 -i 0.2 -W 2 -q 10.0.1.2
rx0=$(stat h2 rx_bytes)
r=$(iperf h2 10.0.1.2 h1 3)
echo "iperf3 after insmod: ${r% *} Mbit/s, retransmits ${r#* }"
tx=$(stat h1 tx_packets) rx=$(($(stat h2 rx_bytes) - rx0))
echo "h1: $(eqds_stats h1)"
# All that iperf3 carried came through EQDS, however fast the kernel is:
# h2 took at least 90% of its 3 seconds' bytes from EQDS packets.
[ -n "$r" ] && [ "${r% *}" -gt 0 ] && [ "$tx" -gt 0 ] &&
	[ "$rx" -ge $((${r% *} * 3000000 / 8 * 9 / 10)) ] &&
	ok "TCP over EQDS after insmod (${r% *} Mbit/s; h1 sent $tx packets, h2 received $rx bytes)" ||
	fail "TCP over EQDS after insmod" "iperf3 '$r' h1 tx_packets $tx h2 rx_bytes +$rx"

ns_del_all
test_failed && exit 1
exit 0
