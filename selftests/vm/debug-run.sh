#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of `make check`'s debug-kernel stage (scripts/check.sh), one boot:
#  1. selftests/run.sh TEST...: the tests, then rmmod, a kmemleak scan and
#     the kernel log, any report failing the run;
#  2. then, and only then, a deliberate leak: eqds.ko (built with
#     EQDS_TEST_INJECT=y) loaded with test_leak_skb=N leaks N received
#     packets, and kmemleak must report them. That proves the stage can fail.
#     The report it provokes comes after run.sh's verdict, so it cannot count
#     against the tests; it is cleared afterwards.
# Prints run.sh's KTAP, then "ok|not ok - debug_leak_caught"; leaves
# "PASSED FAILED" of step 2 in $EQDS_VM_OUT/leak-check. Exits non-zero if
# either step failed.
#   debug-run.sh TEST...
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
out=${EQDS_VM_OUT:-/run/vm/out}
"$here/run.sh" "$@"
rc=$?

source "$here/lib.sh"
exec 3> "$out/leak-check.res"
kmemleak=/sys/kernel/debug/kmemleak
N=16
leak_check() {
	if [ ! -w $kmemleak ]; then
		fail "debug_leak_caught" "kernel without kmemleak"
		return
	fi
	if ! modinfo -p "$EQDS_KO" | grep -q '^test_leak_skb:'; then
		fail "debug_leak_caught" "$EQDS_KO built without EQDS_TEST_INJECT=y"
		return
	fi
	# What run.sh found is its business: start from a clean list.
	echo scan > $kmemleak
	echo clear > $kmemleak
	eqds_load test_leak_skb=$N || { fail "debug_leak_caught" "insmod failed"; return; }
	two_hosts || { fail "debug_leak_caught" "hosts"; return; }
	xfer "traffic with test_leak_skb=$N" h2 10.0.1.2 h1 $((1 << 20)) 3> /dev/null
	# Read while the module is loaded: the backtraces need its symbols.
	sleep 5
	echo scan > $kmemleak
	echo scan > $kmemleak
	cat $kmemleak > "$out/leak-check-kmemleak.txt"
	ns_del_all
	rmmod eqds
	echo clear > $kmemleak
	dmesg -C
	local n
	n=$(grep -c 'eqds_test_inject_rx' "$out/leak-check-kmemleak.txt")
	echo "kmemleak reported $n leaks from eqds_test_inject_rx (of $N leaked):"
	head -20 "$out/leak-check-kmemleak.txt"
	if [ "$n" -gt 0 ]; then
		ok "debug_leak_caught: kmemleak reports the leak test_leak_skb injects ($n of $N)"
	else
		fail "debug_leak_caught" "kmemleak reported none of the $N leaked packets"
	fi
}
leak_check 2>&1 | sed 's/^/# /'
exec 3>&-
res=$(cat "$out/leak-check.res")
echo "$res" | sed -E 's/^(not )?ok [0-9]+ /\1ok - /'
if [[ $res == "ok "* ]]; then
	echo "1 0" > "$out/leak-check"
else
	echo "0 1" > "$out/leak-check"
	rc=1
fi
exit "$rc"
