#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest-side runner: run eqds selftests and print KTAP. Run inside the test
# VM (selftests/vm/run-vm.sh selftests/run.sh [TEST...]); with no TEST, all
# selftests/test_*.sh. After the tests: rmmod must succeed, dmesg must hold
# no kernel warning, oops or checker report, and on a kernel with kmemleak a
# final scan must find no leak, or the run fails.
#
# Each test script runs in its own bash with a timeout (EQDS_TEST_TIMEOUT,
# default 600 s; a test that needs longer says so in a line "# timeout: S",
# which only raises it); a test that hangs is killed and reported as failed,
# and so is one that leaves a network namespace behind.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${EQDS_VM_OUT:-/run/vm/out}
[ -d "$out" ] || out=$(mktemp -d)
timeout_s=${EQDS_TEST_TIMEOUT:-600}

if [ $# -gt 0 ]; then
	tests=("$@")
else
	tests=("$here"/test_*.sh)
fi

kmemleak=/sys/kernel/debug/kmemleak
if [ -w $kmemleak ]; then
	# What leaked while the kernel booted is not the tests': forget it
	# (before the log is cleared: a scan that finds some logs it). Only
	# objects 5 s old can be reported, hence the wait.
	sleep 5
	echo scan > $kmemleak
	echo clear > $kmemleak
fi
dmesg -C
echo 1 > /proc/sys/kernel/panic_on_oops
# The debug kernel's stage asks for panic_on_warn on the command line: keep it.
grep -qw 'panic_on_warn=1' /proc/cmdline || sysctl -qw kernel.panic_on_warn=0

echo "KTAP version 1"
echo "1..$((${#tests[@]} + 1))"
n=0 total_pass=0 total_fail=0 total_skip=0 total_todo=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	name=$(basename "$t" .sh)
	name=${name#test_}
	res=$(mktemp)
	t0=$(date +%s)
	echo "# $name: running"
	t_s=$(sed -n 's/^# timeout: \([0-9][0-9]*\)$/\1/p' "$t" | head -1)
	[ -n "$t_s" ] && [ "$t_s" -gt "$timeout_s" ] || t_s=$timeout_s
	timeout -k 10 "$t_s" bash "$t" 3> "$res" 2>&1 | sed -u 's/^/# /'
	rc=${PIPESTATUS[0]}
	secs=$(($(date +%s) - t0))
	pass=$(grep '^ok ' "$res" | grep -vc '# SKIP')
	skipped=$(grep -c '# SKIP' "$res")
	todos=$(grep -c '^not ok .*# TODO' "$res")
	failed=$(($(grep -c '^not ok ' "$res") - todos))
	echo "    KTAP version 1"
	echo "    1..$(wc -l < "$res")"
	sed 's/^/    /' "$res"
	# A result reported from a background shell repeats a number.
	if ! awk '{ if (($1 == "not" ? $3 : $2) != NR) exit 1 }' "$res"; then
		echo "# $name: results misnumbered (reported from a background shell?)"
		failed=$((failed + 1))
	fi
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "# $name: timed out after ${t_s}s"
		failed=$((failed + 1))
	elif [ "$rc" != 0 ] && [ "$failed" = 0 ]; then
		echo "# $name: script exited $rc"
		failed=$((failed + 1))
	fi
	# Hosts left behind (a killed test's EXIT trap never ran, or a host
	# its cleanup did not know of) would fail the next test's setup.
	left=$(ip netns list | awk '{print $1}')
	if [ -n "$left" ]; then
		if [ "$rc" != 124 ] && [ "$rc" != 137 ]; then
			echo "# $name: left namespaces behind:" $left
			failed=$((failed + 1))
		fi
		for ns in $left; do
			ip netns pids "$ns" | xargs -r kill -9
			ip netns del "$ns"
		done
	fi
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + failed))
	total_skip=$((total_skip + skipped))
	total_todo=$((total_todo + todos))
	if [ "$failed" = 0 ]; then
		echo "ok $n $name # ${secs}s"
	else
		echo "not ok $n $name # ${secs}s"
	fi
	rm -f "$res"
done

# The module must unload, and the kernel log must be clean of any report.
n=$((n + 1))
bad=0
if [ -d /sys/module/eqds ] && ! rmmod eqds; then
	echo "# rmmod eqds failed"
	bad=1
fi
if [ -w $kmemleak ]; then
	# An object counts as leaked once unreferenced for 5 s, and a second
	# scan drops what was only in flight (an RCU callback, a queue) during
	# the first. A report both lists the object and logs "kmemleak:" below.
	sleep 5
	echo scan > $kmemleak
	echo scan > $kmemleak
	cat $kmemleak > "$out/kmemleak.txt"
	if [ -s "$out/kmemleak.txt" ]; then
		echo "# kmemleak: $(grep -c '^unreferenced object' "$out/kmemleak.txt") leaked objects:"
		sed 's/^/#   /' "$out/kmemleak.txt" | head -60
		bad=1
	fi
fi
# Under TCG: how often the guest would have died of the emulator alone.
ti=/sys/module/tcg_int3/parameters/recovered
[ -r $ti ] && echo "# tcg_int3: $(cat $ti) stale int3 traps of patched kernel text absorbed"
dmesg > "$out/dmesg.txt"
# Warnings and oopses; lockdep, KASAN, KFENCE ("BUG: KFENCE:"), UBSAN,
# kmemleak, debug-objects (ODEBUG), refcount, list and reference-tracker
# reports; hung tasks and a device that never becomes free.
pat='WARNING:|BUG[: ]|Oops|general protection|refcount_t|UBSAN|KASAN|KFENCE|kmemleak|'
pat+='ODEBUG|ref_tracker|possible circular|INFO: task .* blocked|list_(add|del) corruption|'
pat+='unregister_netdevice: waiting|Slab cache still has objects|eqds: leak'
# A tracker that could not allocate says so: test_stress's injected
# allocation failures cause that, and it reports no reference bug.
if grep -E "$pat" "$out/dmesg.txt" |
	grep -v 'ref_tracker: memory allocation failure, unreliable refcount tracker' \
	> "$out/dmesg-bad.txt"; then
	echo "# kernel log has reports:"
	sed 's/^/#   /' "$out/dmesg-bad.txt" | head -40
	bad=1
fi
if [ $bad = 0 ]; then
	echo "ok $n kernel_clean"
	total_pass=$((total_pass + 1))
else
	echo "not ok $n kernel_clean"
	total_fail=$((total_fail + 1))
fi
echo "# selftests: $total_pass passed, $total_fail failed, $total_skip skipped, $total_todo todo (known gaps)"
echo "$total_pass $total_fail $total_skip $total_todo" > "$out/summary"
[ "$total_fail" = 0 ]
