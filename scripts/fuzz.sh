#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the protocol core's libFuzzer targets with clang and run each for a
# bounded time from its committed seed corpus. A crash is a failure; its input
# is left in build-fuzz/ to become a regression test.
#   fuzz.sh [SECONDS]
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-20}
b=$top/build-fuzz
if ! command -v clang++ > /dev/null; then
	echo "fuzz: clang++ missing (make deps) FAILED"
	exit 1
fi
if ! { cmake -S "$top" -B "$b" -DEQDS_FUZZ=ON -DCMAKE_C_COMPILER=clang \
	-DCMAKE_CXX_COMPILER=clang++ > "$b.log" 2>&1 &&
	cmake --build "$b" -j"${JOBS:-2}" >> "$b.log" 2>&1; }; then
	tail -30 "$b.log"
	echo "fuzz: build FAILED"
	exit 1
fi
rc=0
for f in "$b"/kmod/core/fuzz_*; do
	[ -x "$f" ] || continue
	name=$(basename "$f")
	corpus=$top/kmod/core/fuzz/corpus/${name#fuzz_}
	work=$b/corpus-${name#fuzz_}
	mkdir -p "$work"
	if (cd "$b" && "$f" -max_total_time="$secs" -print_final_stats=1 \
		"$work" "$corpus" > "$b/$name.log" 2>&1); then
		runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$b/$name.log" | grep -oE '[0-9]+$')
		echo "fuzz: $name ${secs}s, ${runs:-?} runs, ok"
	else
		tail -30 "$b/$name.log"
		echo "fuzz: $name FAILED (crash input in $b)"
		rc=1
	fi
done
exit $rc
