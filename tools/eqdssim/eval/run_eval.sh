#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make sim-eval: run the large eqdssim scenarios one after another (they are
# single-threaded; running them in parallel would only slow each down on a
# shared machine), plot them with gnuplot and write
# Documentation/evaluation/simulation.md with its PNGs.
#
# usage: run_eval.sh BUILD_DIR [OUT_DIR]
#   QUICK=1 shortens every run (a smoke test of the pipeline, not a result)
#   and writes the report under OUT_DIR/doc, leaving Documentation/ alone.
#   REUSE="name ..." keeps those runs' results from an earlier sim-eval in
#   OUT_DIR instead of running them again (the FatTree k=16 runs take 10-15
#   minutes each on a shared machine); the report names the commit each
#   run was made at, "unrecorded" for runs older than that record.
set -euo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$top/build}
out=${2:-$build/sim-eval}
sim=$build/tools/eqdssim/eqdssim
here=$top/tools/eqdssim/eval
doc=$top/Documentation/evaluation
quick=${QUICK:-0}
[ "$quick" = 1 ] && doc=$out/doc

command -v gnuplot >/dev/null || { echo "sim-eval: needs gnuplot (apt-get install gnuplot-nox)" >&2; exit 1; }
[ -x "$sim" ] || { echo "sim-eval: build eqdssim first ($sim)" >&2; exit 1; }
mkdir -p "$out" "$doc/sim"

# Acceptance 1 lives in the unit tests: record whether they pass in this tree.
if ctest --test-dir "$build" -L eqdssim > "$out/ctest.log" 2>&1; then
	echo pass > "$out/ctest.result"
else
	echo fail > "$out/ctest.result"
fi

# dur LONG SHORT: the run's duration, shortened under QUICK=1.
dur() { if [ "$quick" = 1 ]; then echo "$2"; else echo "$1"; fi; }

commit=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$top" diff --quiet HEAD -- kmod/core tools/eqdssim/sim tools/eqdssim/main.cc 2>/dev/null || commit="$commit+changes"

run() {	# name, then eqdssim options
	local name=$1
	shift
	if [[ " ${REUSE:-} " == *" $name "* ]] && [ -s "$out/$name/summary.json" ]; then
		echo "=== $name: reused from an earlier run"
		return
	fi
	echo "=== $name: $*"
	"$sim" --label="$name" --out="$out/$name" "$@" | tee "$out/$name.log"
	echo "$commit" > "$out/$name/commit"
}

# 1+2. FatTree k=16 (1024 hosts) permutation: even spraying, spraying through
# a random per-switch hash, and per-flow ECMP, all on the same permutation
# (same seed), plus the ideal fluid per-flow ECMP model.
ft16=(--topo=fattree --k=16 --traffic=permutation --warmup=10ms --sample=1ms --seed=1 --progress=1)
run ft16_spray "${ft16[@]}" --duration="$(dur 100ms 15ms)" --ecmp=packet --fluid-baseline=1
run ft16_spray_hash "${ft16[@]}" --duration="$(dur 100ms 15ms)" --ecmp=packet-hash
# The same hash with switches marking CE above 20 packets: senders skip the
# path ids whose packets come back marked or lost (core/paths.h).
run ft16_spray_hash_ecn "${ft16[@]}" --duration="$(dur 100ms 15ms)" --ecmp=packet-hash --ecn=20
run ft16_ecmp "${ft16[@]}" --duration="$(dur 100ms 15ms)" --ecmp=flow

# 3. 850:1 incast on one switch, 15-packet bottleneck buffer.
# Senders start within the first millisecond, not all in the same nanosecond.
run incast850 --topo=star --hosts=851 --traffic=incast --senders=850 --buffer=15 \
	--start-spread=1ms --duration="$(dur 220ms 20ms)" --warmup="$(dur 20ms 10ms)" --sample=100us
# The same with 10% headroom in the pull rate instead of 5%.
run incast850_pull90 --topo=star --hosts=851 --traffic=incast --senders=850 --buffer=15 \
	--start-spread=1ms --duration="$(dur 220ms 20ms)" --warmup="$(dur 20ms 10ms)" --sample=100us \
	--pull-rate=9G
# The same, every sender starting at once: 850 RTS probes meet a 15-packet buffer.
run incast850_sync --topo=star --hosts=851 --traffic=incast --senders=850 --buffer=15 \
	--duration="$(dur 220ms 20ms)" --warmup="$(dur 20ms 10ms)" --sample=100us

# 4. Oversubscribed core, 4:1: 8 leaves of 16 hosts, 4 spines, 10G everywhere.
# Poisson arrivals of heavy-tailed flows, light and heavy load, sprayed and
# per-flow ECMP; switches mark CE above 20 packets. Receivers pulling alone
# (marks ignored), then with the congestion reaction (core/congestion.h).
# Then greedy permutation traffic, where 7/8 of the flows cross the core.
os=(--topo=leafspine --leaves=8 --spines=4 --hosts-per-leaf=16 --buffer=100 --ecn=20
    --traffic=poisson --size-csv="$here/sizes_heavy_tail.csv" --sample=1ms --drain=400ms)
for load in 0.1 0.3; do
	for cc in 0 1; do
		sfx=; [ $cc = 1 ] && sfx=_cc
		run "oversub_${load}_spray$sfx" "${os[@]}" --load=$load --duration="$(dur 50ms 10ms)" \
			--ecmp=packet --cc=$cc
		run "oversub_${load}_ecmp$sfx" "${os[@]}" --load=$load --duration="$(dur 50ms 10ms)" \
			--ecmp=flow --cc=$cc
	done
done
op=(--topo=leafspine --leaves=8 --spines=4 --hosts-per-leaf=16 --buffer=100 --ecn=20
    --traffic=permutation --ecmp=packet --sample=1ms --seed=1)
run oversub_perm "${op[@]}" --duration="$(dur 100ms 20ms)" --warmup="$(dur 20ms 10ms)" --cc=0
run oversub_perm_cc "${op[@]}" --duration="$(dur 100ms 20ms)" --warmup="$(dur 20ms 10ms)" --cc=1
# The same with a 16 times slower climb back (1/1024 of the ceiling per interval).
run oversub_perm_cc_slow "${op[@]}" --duration="$(dur 100ms 20ms)" --warmup="$(dur 20ms 10ms)" \
	--cc=1 --cc-ai-div=1024

# 5. Closed-loop 1 MB transfers over a FatTree k=8 (128 hosts).
cl=(--topo=fattree --k=8 --traffic=closedloop --size=1000000 --sample=1ms)
run closedloop_spray "${cl[@]}" --duration="$(dur 50ms 10ms)" --ecmp=packet
run closedloop_ecmp "${cl[@]}" --duration="$(dur 50ms 10ms)" --ecmp=flow

gnuplot -e "dir='$out'; img='$doc/sim'" "$here/plots.gp"
python3 "$here/make_report.py" "$out" "$doc/simulation.md" ${QUICK:+--quick=$quick}
echo "sim-eval: report in $doc/simulation.md"
