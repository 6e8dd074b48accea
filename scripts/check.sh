#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The whole test suite (`make check`): build, unit tests, fuzzers, static
# checks, DKMS, the Debian packages, then the selftests in one VM boot per
# test kernel named by EQDS_VM_KERNELS (default both, 6.1 and 6.12), then the
# tests of locking and lifetimes on the debug kernel (scripts/debug-kernel.sh,
# cached outside the checkout): by default when that kernel is built (make
# debug-kernel), with EQDS_DEBUG_KERNEL=1 after building it if need be, never
# with EQDS_DEBUG_KERNEL=0; EQDS_DEBUG_KASAN=1 adds KASAN. Every stage runs
# even when an earlier one fails; the exit status is non-zero if any failed.
# The last line counts every test that ran. EQDS_VM_KERNELS takes ABI names
# or series (EQDS_VM_KERNELS=6.1).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${BUILD:-build}
jobs=${JOBS:-2}
passed=0 failed=0
log=$build/check
mkdir -p "$log"

stage() { echo; echo "=== $* ($(date +%H:%M:%S))"; }
count() {	# passed failed
	passed=$((passed + $1))
	failed=$((failed + $2))
}
# count_ctest LOG: count a ctest run by its summary line; show what failed.
count_ctest() {
	local sum nfail ntot
	tail -3 "$1"
	if sum=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$1"); then
		nfail=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<< "$sum")
		ntot=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<< "$sum")
		count $((ntot - nfail)) "$nfail"
		[ "$nfail" = 0 ] ||
			grep -E '\*\*\*Failed|FAILED|ERROR: AddressSanitizer|runtime error' "$1" | head -20
	else
		tail -20 "$1"
		count 0 1
	fi
}

stage "build: module for each test kernel (W=1, sparse) and the userspace tools"
kver=$(scripts/test-kernel.sh) || exit 1
kvers=$(scripts/test-kernel.sh -a) || count 0 1
declare -A ko
# From clean, under sparse (C=2): the static checks need not build it again.
for k in $kvers; do
	if ko[$k]=$(scripts/build-module.sh -s "$k" 2> "$log/module-$k.log") &&
	   ! grep -E 'warning:|error:' "$log/module-$k.log" | head -40; then
		echo "module: built for $k, no W=1 or sparse warnings"
		count 1 0
	else
		cat "$log/module-$k.log"
		echo "module: for $k FAILED"
		count 0 1
	fi
done
if { [ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$log/cmake.log"; } &&
   cmake --build "$build" -j"$jobs" > "$log/tools.log" 2>&1; then
	echo "tools: built"
	count 1 0
else
	tail -40 "$log/tools.log"
	echo "tools: FAILED"
	count 0 1
fi

stage "unit tests (ctest)"
ctest --test-dir "$build" --output-on-failure -j"$jobs" > "$log/ctest.log" 2>&1
count_ctest "$log/ctest.log"

stage "sanitizers: the core and eqdsctl under ASan and UBSan"
# Bad input must never crash eqdsctl or the core: their tests (garbage
# replies, random command lines, damaged nests, every packet the fuzzers'
# corpora hold) again, built with -fsanitize=address,undefined.
san=${build}-sanitize
if { [ -f "$san/CMakeCache.txt" ] ||
     cmake -S . -B "$san" -DCMAKE_BUILD_TYPE=Debug -DEQDS_SANITIZE=ON > "$log/sanitize-cmake.log"; } &&
   cmake --build "$san" -j"$jobs" --target core_tests eqdsctl eqdsctl_tests \
	$(cd kmod/core/fuzz && ls fuzz_*.cc | sed 's/\.cc$/_replay/') > "$log/sanitize-build.log" 2>&1; then
	ctest --test-dir "$san" -LE eqdssim -E "_NOT_BUILT$" --output-on-failure -j"$jobs" > "$log/sanitize.log" 2>&1
	count_ctest "$log/sanitize.log"
else
	tail -40 "$log/sanitize-build.log"
	echo "sanitizers: build FAILED"
	count 0 1
fi

stage "fuzzers (${FUZZ_SECONDS:-20}s each)"
if out=$(scripts/fuzz.sh "${FUZZ_SECONDS:-20}" 2>&1); then :; fi
echo "$out" | grep -E '^fuzz:'
count "$(grep -c '^fuzz: .* ok' <<< "$out")" "$(grep -c '^fuzz: .* FAILED' <<< "$out")"

stage "static checks (checkpatch, YNL spec, docs; sparse ran in the build)"
out=$(KDIR="/lib/modules/$kver/build" scripts/static-checks.sh --no-sparse 2>&1)
echo "$out"
count "$(grep -c '^static: .* ok' <<< "$out")" "$(grep -c '^static: .* FAILED' <<< "$out")"

stage "DKMS: build for each test kernel, skip any other"
out=$(scripts/dkms-check.sh 2>&1)
echo "$out"
count "$(grep -c '^dkms: .* ok$' <<< "$out")" "$(grep -c '^dkms: .* FAILED$' <<< "$out")"

stage "Debian packages: make deb, lintian"
# selftests/test_packages.sh installs them in the VM.
debdir=$build/deb
[[ $debdir == /* ]] || debdir=$top/$debdir
if scripts/build-deb.sh --lintian "$debdir" > "$log/deb.log" 2>&1; then
	grep -E '^[EWI]: ' "$log/deb.log"
	echo "deb: eqds-dkms and eqdsctl built, lintian clean"
	count 1 0
else
	tail -30 "$log/deb.log"
	echo "deb: FAILED"
	count 0 1
fi
# DKMS on the host builds the package for the default test kernel, so that
# test_packages.sh need not do it again under emulation (7 to 13 minutes).
if [ -f "$debdir"/eqds-dkms_*_all.deb ] &&
   scripts/dkms-tarball.sh "$debdir" "$kver" > "$log/dkms-tarball.log" 2>&1; then
	echo "deb: DKMS built eqds-dkms for $kver into $(tail -1 "$log/dkms-tarball.log")"
	count 1 0
else
	tail -30 "$log/dkms-tarball.log"
	echo "deb: DKMS build of eqds-dkms for $kver FAILED"
	count 0 1
fi
export EQDS_DEB_DIR=$debdir

# The debug kernel's stage (last): the tests of locking and lifetimes under
# the kernel's checkers. By default it runs only where that kernel is built:
# building it takes about 17 minutes, for which CI's 90 have no room on a
# fresh machine (Documentation/testing.rst). When it runs, the tests whose
# checks depend on no kernel difference (the protocol under faults, hostile
# packets, idle timeouts, many tunnels) run there only, and test_datapath
# there rather than in 6.12's packaged kernel, built from the same source.
case ${EQDS_DEBUG_KERNEL:-auto} in
0) debug_stage=0 ;;
auto) if scripts/debug-kernel.sh -n > /dev/null 2>&1; then debug_stage=1; else debug_stage=0; fi ;;
*) debug_stage=1 ;;
esac
debug_tests=(datapath faults hostile softstate tunnels policy stress)
debug_only=()
[ "$debug_stage" = 0 ] || debug_only=(faults hostile softstate tunnels)

# vm_suite KVER OUTDIR: the selftests in one boot of KVER, with its module.
vm_suite() {
	local k=$1 vmout=$2 vmrc p f todo
	stage "VM selftests (kernel $k)"
	if [ -z "${ko[$k]:-}" ]; then
		echo "no module for $k: VM selftests not run"
		count 0 1
		return
	fi
	# The default kernel runs every selftest but debug_only's, then the
	# evaluation's smoke test; another runs those where kernels differ most
	# (GRO and GSO, genetlink, PMTU and ICMP, xfrm, nested tunnels, packet
	# taps).
	local tests=() t xfer_mb=${EQDS_XFER_MB:-} other
	for t in selftests/test_*.sh; do
		[[ " ${debug_only[*]} " == *" $(basename "$t" .sh | cut -c6-) "* ]] || tests+=("$t")
	done
	tests+=(scripts/eval/smoke.sh)
	if [ "$k" != "$kver" ]; then
		# What differs between kernels is the paths a packet takes, not
		# how many take them: test_datapath's nine transfers are 50 MiB
		# each there (36000 packets, 200 MiB in the default kernel's).
		xfer_mb=${EQDS_XFER_MB:-50}
		tests=()
		other="netlink local rx mtu encap tracing"
		[ "$debug_stage" != 0 ] || other="datapath $other"
		for t in ${EQDS_VM_TESTS_OTHER:-$other}; do
			tests+=("selftests/test_$t.sh")
		done
	fi
	EQDS_XFER_MB=$xfer_mb EQDS_KO=${ko[$k]} selftests/vm/run-vm.sh -k "$k" -q -o "$vmout" \
		-t "${EQDS_VM_TIMEOUT:-3600}" -- selftests/run.sh "${tests[@]}"
	vmrc=$?
	grep -E '^(not )?ok |^# selftests:|^    not ok|^# .*FAIL|^# kernel log|^#   ' \
		"$vmout/console.log" | grep -v '^    ok'
	f=
	if [ -s "$vmout/summary" ]; then
		read -r p f _ todo < "$vmout/summary"
		count "$p" "$f"
		[ "${todo:-0}" = 0 ] || echo "known gaps reported as TODO: $todo (see the '# TODO' lines above)"
	fi
	if [ "$vmrc" != 0 ] && ! { [ -s "$vmout/summary" ] && [ "$f" != 0 ]; }; then
		echo "VM run failed (exit $vmrc) without a test failure to show for it: see $vmout/console.log"
		tail -30 "$vmout/console.log"
		count 0 1
	fi
}

for k in $kvers; do
	# Both kernels by default; EQDS_VM_KERNELS=6.1 runs one.
	vm_kernels=${EQDS_VM_KERNELS:-6.1 6.12}
	if [ -n "$vm_kernels" ]; then
		want=0
		for w in $vm_kernels; do
			[ "$k" = "$w" ] || [ "$k" = "$(scripts/test-kernel.sh "$w" 2> /dev/null)" ] && want=1
		done
		[ "$want" = 1 ] || continue
	fi
	# The default kernel's run keeps its directory (build/check/vm).
	if [ "$k" = "$kver" ]; then
		vm_suite "$k" "$log/vm"
	else
		vm_suite "$k" "$log/vm-$k"
	fi
done

if [ "$debug_stage" = 0 ] && [ "${EQDS_DEBUG_KERNEL:-auto}" = auto ]; then
	stage "debug kernel: not built here, stage left out"
	echo "make debug-kernel builds it once (about 20 minutes); make check then runs this stage"
fi
if [ "$debug_stage" != 0 ]; then
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
	# smaller transfers at the debug kernel's speed under emulation, and
	# pulls slow enough to be what limits test_policy's senders there.
	# KFENCE samples an allocation every 10 ms rather than 100.
	EQDS_XFER_MB=${EQDS_XFER_MB:-16} EQDS_SOFTSTATE_MB=${EQDS_SOFTSTATE_MB:-100} \
	EQDS_HOSTILE_MB=${EQDS_HOSTILE_MB:-8} EQDS_TUNNELS_COUNT=${EQDS_TUNNELS_COUNT:-2000} \
	EQDS_FAULTS_MB=${EQDS_FAULTS_MB:-4} EQDS_POLICY_PULL=${EQDS_POLICY_PULL:-8} \
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
echo "check: $passed passed, $failed failed"
[ "$failed" = 0 ]
