#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The debug kernel's stage (`make check-debug`, or `make check` with
# EQDS_DEBUG_KERNEL=1): the selftests of locking and lifetimes in one boot
# of Debian's 6.12 built with the kernel's checkers (scripts/debug-kernel.sh
# builds it the first time, about 17 minutes, and caches it outside the
# checkout; EQDS_DEBUG_KASAN=1 adds KASAN), then a deliberate leak the stage
# must catch (selftests/vm/debug-run.sh). Any checker's report fails it.
# Ends with "check-debug: N passed, N failed"; the exit status is non-zero
# if anything failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${BUILD:-build}
log=$build/check
mkdir -p "$log"

source scripts/check-lib.sh

debug_tests=(datapath faults hostile softstate tunnels policy stress)
checkers="lockdep, KFENCE, kmemleak, UBSAN, debug-objects, failslab"
[ "${EQDS_DEBUG_KASAN:-0}" != 0 ] && checkers="$checkers, KASAN"
stage "debug kernel: Debian's 6.12 with $checkers"
# The first run builds it (long: see Documentation/testing.rst).
if dkdir=$(scripts/debug-kernel.sh); then
	echo "debug kernel: $dkdir"
	count 1 0
else
	echo "debug kernel: build FAILED"
	count 0 1
	dkdir=
fi
if [ -n "${dkdir:-}" ]; then
	# The module for it, in a build directory of its own (kmod/eqds.ko
	# stays the 6.1 one), with the injectable bugs of kmod/inject.c.
	dsrc=$build/debug-kmod
	rm -rf "$dsrc"
	mkdir -p "$dsrc/scripts"
	cp -r kmod uapi "$dsrc/"
	cp scripts/module-btf.sh "$dsrc/scripts/"
	make -C "$dsrc/kmod" clean KDIR="$dkdir" > /dev/null 2>&1
	if make -C "$dsrc/kmod" KDIR="$dkdir" EQDS_TEST_INJECT=y > "$log/debug-module.log" 2>&1 &&
	   ! grep -E 'warning:|error:' "$log/debug-module.log"; then
		echo "module: built for the debug kernel, no warnings"
		count 1 0
	else
		tail -30 "$log/debug-module.log"
		echo "module for the debug kernel: FAILED"
		count 0 1
		dkdir=
	fi
fi
if [ -n "${dkdir:-}" ]; then
	dvm=$log/vm-debug
	dtests=()
	for t in "${debug_tests[@]}"; do dtests+=("selftests/test_$t.sh"); done
	# The checkers find bugs by the paths a test takes, not by its volume:
	# smaller transfers and fewer rounds at the debug kernel's speed under
	# emulation (3 to 10 Mbit/s), where the kernel, not the pulls, decides
	# test_policy's rates (its rules still change under traffic). KFENCE
	# samples an allocation every 10 ms rather than 100.
	EQDS_XFER_MB=${EQDS_XFER_MB:-4} EQDS_SOFTSTATE_MB=${EQDS_SOFTSTATE_MB:-100} \
	EQDS_HOSTILE_MB=${EQDS_HOSTILE_MB:-8} EQDS_HOSTILE_SYN_MB=${EQDS_HOSTILE_SYN_MB:-8} \
	EQDS_HOSTILE_COUNT=${EQDS_HOSTILE_COUNT:-3000} \
	EQDS_TUNNELS_COUNT=${EQDS_TUNNELS_COUNT:-2000} \
	EQDS_FAULTS_MB=${EQDS_FAULTS_MB:-4} EQDS_FAULTS_RESTART_MB=${EQDS_FAULTS_RESTART_MB:-16} \
	EQDS_POLICY_PULL=${EQDS_POLICY_PULL:-8} EQDS_POLICY_SECS=${EQDS_POLICY_SECS:-5} \
	EQDS_POLICY_RATES=${EQDS_POLICY_RATES:-0} EQDS_STRESS_ROUNDS=${EQDS_STRESS_ROUNDS:-2} \
	EQDS_TEST_TIMEOUT=${EQDS_TEST_TIMEOUT:-1200} \
	EQDS_VM_KERNEL=$dkdir/vmlinux \
	EQDS_VM_APPEND="panic_on_warn=1 kfence.sample_interval=10 ${EQDS_VM_APPEND:-}" \
	EQDS_KO=$(pwd)/$dsrc/kmod/eqds.ko \
		selftests/vm/run-vm.sh -q -o "$dvm" -t "${EQDS_DEBUG_VM_TIMEOUT:-3600}" -- \
		selftests/vm/debug-run.sh "${dtests[@]}"
	vmrc=$?
	grep -E '^(not )?ok |^# selftests:|^    not ok|^# .*FAIL|^# kernel log|^# kmemleak|^#   ' \
		"$dvm/console.log" | grep -v '^    ok'
	f=
	if [ -s "$dvm/summary" ]; then
		read -r p f _ todo < "$dvm/summary"
		count "$p" "$f"
	fi
	if [ -s "$dvm/leak-check" ]; then
		read -r lp lf < "$dvm/leak-check"
		count "$lp" "$lf"
	fi
	if [ "$vmrc" != 0 ] && ! { [ -n "$f" ] && [ "$f" != 0 ]; } &&
	   ! { [ -s "$dvm/leak-check" ] && [ "$lf" != 0 ]; }; then
		echo "debug VM run failed (exit $vmrc) without a test failure to show for it: see $dvm/console.log"
		grep -E -A30 'Kernel panic|BUG:|WARNING:' "$dvm/console.log" | head -60 || tail -30 "$dvm/console.log"
		count 0 1
	fi
fi

echo
echo "check-debug: $passed passed, $failed failed"
[ "$failed" = 0 ]
