#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The whole test suite (`make check`): build, unit tests, fuzzers, static
# checks, DKMS, the Debian packages, then the selftests in one VM boot per
# test kernel named by EQDS_VM_KERNELS (default both, 6.1 and 6.12); with
# EQDS_DEBUG_KERNEL=1 also the debug kernel's stage (scripts/check-debug.sh,
# `make check-debug` alone). Every stage runs even when an earlier one
# fails; the exit status is non-zero if any failed. The last line counts
# every test that ran. EQDS_VM_KERNELS takes ABI names or series
# (EQDS_VM_KERNELS=6.1).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${BUILD:-build}
jobs=${JOBS:-2}
log=$build/check
mkdir -p "$log"

source scripts/check-lib.sh
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

# The debug kernel's stage (scripts/check-debug.sh) only when asked for:
# with it the job outgrows CI's 90 minutes (Documentation/testing.rst).
debug_stage=${EQDS_DEBUG_KERNEL:-0}

# vm_suite KVER OUTDIR: the selftests in one boot of KVER, with its module.
vm_suite() {
	local k=$1 vmout=$2 vmrc p f todo
	stage "VM selftests (kernel $k)"
	if [ -z "${ko[$k]:-}" ]; then
		echo "no module for $k: VM selftests not run"
		count 0 1
		return
	fi
	# The default kernel runs every selftest, then the evaluation's smoke
	# test; another runs those where kernels differ most (GRO and GSO,
	# genetlink, PMTU and ICMP, xfrm, nested tunnels, packet taps).
	local tests=(selftests/test_*.sh scripts/eval/smoke.sh) t xfer_mb=${EQDS_XFER_MB:-}
	if [ "$k" != "$kver" ]; then
		# What differs between kernels is the paths a packet takes, not
		# how many take them: test_datapath's nine transfers are 50 MiB
		# each there (36000 packets, 200 MiB in the default kernel's).
		xfer_mb=${EQDS_XFER_MB:-50}
		tests=()
		for t in ${EQDS_VM_TESTS_OTHER:-datapath netlink local rx mtu encap tracing}; do
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

if [ "$debug_stage" != 0 ]; then
	scripts/check-debug.sh 2>&1 | tee "$log/check-debug.log"
	read -r p f < <(sed -n 's/^check-debug: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' \
		"$log/check-debug.log")
	count "${p:-0}" "${f:-1}"
else
	stage "debug kernel: not run (make check-debug, or EQDS_DEBUG_KERNEL=1 make check)"
fi

echo
echo "check: $passed passed, $failed failed"
[ "$failed" = 0 ]
