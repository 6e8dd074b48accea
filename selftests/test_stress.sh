#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Lifetimes under load (issue 13), for the debug kernel's checkers (lockdep,
# KASAN, kmemleak, debug-objects) to watch; runs on any kernel.
#  - namespaces deleted while TCP runs over EQDS between them, the sender's
#    or the receiver's first, a few rounds;
#  - rmmod while TCP runs over EQDS, then insmod again, a few rounds;
#  - on a kernel with fault injection (the debug kernel): allocations made
#    by eqds.ko's code fail at random (failslab and fail_page_alloc, limited
#    to the module's .text by the stack-trace filter, sleeping allocations
#    included) while traffic runs and namespaces come and go. The module
#    must count drops, stay clean (no leak, no report: run.sh checks at the
#    end) and carry data intact again once the failures stop.
source "$(dirname "$0")/lib.sh"
ROUNDS=${EQDS_STRESS_ROUNDS:-3}
DBG=/sys/kernel/debug
fault_off() {
	local d
	for d in $DBG/failslab $DBG/fail_page_alloc; do
		[ -w $d/probability ] && echo 0 > $d/probability
	done
}
trap 'fault_off; ns_del_all' EXIT

# pair A B NET: hosts A (NET.1) and B (NET.2) on a veth, EQDS to each other.
pair() {
	ns_add "$1" "$2" || return 1
	veth "$1" va "$3.1/24" "$2" vb "$3.2/24" || return 1
	ctl "$1" set dests "$3.2/32" && ctl "$2" set dests "$3.1/32"
}
# load A B NET SECS: TCP both ways between A and B in the background.
load() {
	ip netns exec "$2" iperf3 -s -1 -p 7100 > /dev/null 2>&1 &
	wait_listen "$2" 7100
	ip netns exec "$1" timeout $(($4 + 10)) iperf3 -c "$3.2" -p 7100 -t "$4" --bidir \
		> /dev/null 2>&1 &
}

check "insmod" eqds_load

# ---- namespaces deleted under load ----
for r in $(seq "$ROUNDS"); do
	pair s$r d$r 10.9.$r || fail "round $r: hosts"
	load s$r d$r 10.9.$r 30
	flowing d$r 100 30 && flowing s$r 100 30 && ok "round $r: TCP both ways over EQDS" ||
		fail "round $r: TCP both ways over EQDS" "$(eqds_stats s$r) / $(eqds_stats d$r)"
	# Odd rounds delete the sender first, even rounds the receiver.
	if [ $((r % 2)) = 1 ]; then first=s$r second=d$r; else first=d$r second=s$r; fi
	check "round $r: delete $first under load" gone $first
	check "round $r: delete $second under load" gone $second
done
_netns=()
wait

# ---- rmmod under load ----
for r in $(seq "$ROUNDS"); do
	pair m$r n$r 10.8.$r || fail "round $r: hosts"
	load m$r n$r 10.8.$r 30
	flowing n$r 100 30 || fail "round $r: load under way" "$(eqds_stats n$r)"
	out=$(timeout 60 rmmod eqds 2>&1)
	rc=$?
	expect_eq "round $r: rmmod under load exits 0${out:+ ($out)}" 0 $rc
	gone m$r
	gone n$r
	_netns=()
	wait
	check "round $r: insmod again" eqds_load
done

# Still whole after all that: data intact over fresh namespaces.
pair h1 h2 10.0.1 || fail "hosts h1, h2"
xfer "after the deletions and unloads" h2 10.0.1.2 h1 $((2 << 20))

# ---- allocation failures in eqds.ko's code while traffic runs ----
if [ ! -w $DBG/failslab/probability ] || [ ! -w $DBG/fail_page_alloc/probability ] ||
   [ ! -e $DBG/failslab/require-start ]; then
	skip "allocation failures injected into eqds" \
		"kernel without CONFIG_FAILSLAB, FAIL_PAGE_ALLOC or FAULT_INJECTION_STACKTRACE_FILTER"
	ns_del_all
	exit 0
fi
text=$(cat /sys/module/eqds/sections/.text)
# "[ 3] .text PROGBITS addr off size": the name's field depends on the index.
size=$(readelf -SW "$EQDS_KO" |
	awk '{ for (i = 1; i < NF; i++) if ($i == ".text") { print "0x" $(i + 4); exit } }')
if [ -z "$text" ] || [ -z "$size" ]; then
	fail "eqds.ko's .text" "address '$text' size '$size'"
	exit 1
fi
echo "eqds .text at $text, $size bytes"
TIMES=1000000
for d in $DBG/failslab $DBG/fail_page_alloc; do
	echo N > $d/task-filter
	echo N > $d/ignore-gfp-wait
	echo "$text" > $d/require-start
	printf '0x%x\n' $((text + size)) > $d/require-end
	echo 32 > $d/stacktrace-depth
	echo 0 > $d/verbose
	echo 1 > $d/interval
	echo $TIMES > $d/times
done
echo N > $DBG/fail_page_alloc/ignore-gfp-highmem
echo 0 > $DBG/fail_page_alloc/min-order
nomem0=$(($(stat h1 drop_nomem) + $(stat h2 drop_nomem)))
load h1 h2 10.0.1 20
flowing h2 100 30 || fail "load under way" "$(eqds_stats h2)"
for d in $DBG/failslab $DBG/fail_page_alloc; do echo 10 > $d/probability; done
# Configuration and tunnels allocate too: namespaces come and go meanwhile.
for r in 1 2 3; do
	pair f$r g$r 10.7.$r > /dev/null 2>&1
	ip netns exec g$r ping -c 3 -i 0.2 -W 1 10.7.$r.1 > /dev/null 2>&1
	ctl f$r show > /dev/null 2>&1
	gone f$r
	gone g$r
done
sleep 5
fault_off
slab=$((TIMES - $(cat $DBG/failslab/times)))
page=$((TIMES - $(cat $DBG/fail_page_alloc/times)))
wait
nomem=$(($(stat h1 drop_nomem) + $(stat h2 drop_nomem) - nomem0))
echo "injected: $slab slab and $page page allocation failures; drop_nomem +$nomem"
echo "h1: $(eqds_stats h1)"
echo "h2: $(eqds_stats h2)"
[ "$slab" -gt 0 ] && ok "failslab failed $slab of eqds.ko's allocations" ||
	fail "failslab failed some of eqds.ko's allocations" "none injected"
[ "$nomem" -gt 0 ] && ok "the failures are counted as drops (drop_nomem +$nomem)" ||
	fail "the failures are counted as drops" "drop_nomem did not grow"
xfer "after the allocation failures" h2 10.0.1.2 h1 $((2 << 20))
check "rmmod after the allocation failures" rmmod eqds
ns_del_all
test_failed && exit 1
exit 0
