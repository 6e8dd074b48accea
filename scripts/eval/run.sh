#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The evaluation suite, inside one VM boot (`make eval`, `make eval-smoke`):
# the paper's scenarios (Documentation/evaluation/emulation.md), each run
# natively and over EQDS with the same durations and seeds, one after the
# other. Writes one JSON record per run to OUT/results.jsonl, prints
# progress and, at the end, a summary table. Runs as root in a throwaway VM:
# it loads and unloads eqds and changes sysctls.
#
# Environment (EQDS_* variables pass through run-vm.sh):
#   EQDS_EVAL_MODE       full (default) or smoke (short, small N)
#   EQDS_EVAL_SECS       measurement window of each run, seconds
#   EQDS_EVAL_SCENARIOS  which scenarios, in order (default: all)
#   EQDS_EVAL_MBIT       star bottleneck, Mbit/s (default 100)
#   EQDS_EVAL_INCAST_N   incast sizes (default "4 16 64")
#   EQDS_EVAL_BUFS       bottleneck buffers NAME:PACKETS (default
#                        "shallow:20 deep:660": 20 packets, ~1 MB)
#   EQDS_EVAL_FABRIC_MBIT  fabric link rate, Mbit/s (default 50)
#   EQDS_EVAL_SPINE_DELAYS one netem delay per spine (default 4 x 100us)
#   EQDS_EVAL_SEED       seed of the random choices (default 1)
#   EQDS_EVAL_OUT        output directory (default /run/vm/out, else build/eval)
set -u
here=$(cd "$(dirname "$0")" && pwd)
EVAL_MODE=${EQDS_EVAL_MODE:-full}
if [ "$EVAL_MODE" = smoke ]; then
	EVAL_SECS=${EQDS_EVAL_SECS:-4}
	EVAL_SCENARIOS=${EQDS_EVAL_SCENARIOS:-incast udp}
	EVAL_INCAST_N=${EQDS_EVAL_INCAST_N:-4}
else
	EVAL_SECS=${EQDS_EVAL_SECS:-20}
	EVAL_SCENARIOS=${EQDS_EVAL_SCENARIOS:-incast udp ccmix perm fct rpc spines}
	EVAL_INCAST_N=${EQDS_EVAL_INCAST_N:-4 16 64}
fi
EVAL_MBIT=${EQDS_EVAL_MBIT:-100}
EVAL_BUFS=${EQDS_EVAL_BUFS:-shallow:20 deep:660}
EVAL_FABRIC_MBIT=${EQDS_EVAL_FABRIC_MBIT:-50}
EVAL_SPINE_DELAYS=${EQDS_EVAL_SPINE_DELAYS:-100us 100us 100us 100us}
EVAL_SEED=${EQDS_EVAL_SEED:-1}
if [ -n "${EQDS_EVAL_OUT:-}" ]; then
	EVAL_OUT=$EQDS_EVAL_OUT
elif [ -d /run/vm/out ]; then
	EVAL_OUT=/run/vm/out
else
	EVAL_OUT=$(cd "$here/../.." && pwd)/build/eval
fi
mkdir -p "$EVAL_OUT"
source "$here/lib.sh"
: > "$EVAL_RESULTS"
RANDOM=$EVAL_SEED

cleanup() {
	ns_del_all
	eqds_unload 2> /dev/null
	rm -rf "$EVAL_TMP"
}
trap cleanup EXIT

# The congestion controls the guest kernel has as modules (scenario 3).
modprobe -a tcp_bbr tcp_dctcp tcp_vegas tcp_westwood 2> /dev/null
# shellcheck disable=SC2046 # what modprobe would load before eqds.ko
modprobe -a $(modinfo -F depends "$EQDS_KO" | tr , ' ') 2> /dev/null
eqds_load || { echo "eval: cannot load $EQDS_KO"; exit 1; }

eval_watchdog 150
eval_log "eval ($EVAL_MODE): kernel $(uname -r), $(nproc) CPUs, ${EVAL_SECS}s windows," \
	"scenarios: $EVAL_SCENARIOS"
eval_record scenario=meta mode="$EVAL_MODE" kernel="$(uname -r)" cpus="$(nproc)" \
	commit="$(git -C "$TOP" describe --always --dirty 2> /dev/null || echo unknown)" \
	secs="$EVAL_SECS" star_mbit="$EVAL_MBIT" fabric_mbit="$EVAL_FABRIC_MBIT" \
	bufs="$EVAL_BUFS" incast_n="$EVAL_INCAST_N" spine_delays="$EVAL_SPINE_DELAYS" \
	seed="$EVAL_SEED" accel="$(grep -qw hypervisor /proc/cpuinfo && echo vm || echo host)" \
	ccs="$(sysctl -n net.ipv4.tcp_available_congestion_control)"

set -- $EVAL_SCENARIOS
k=0
for sc in "$@"; do
	k=$((k + 1))
	source "$here/scenarios/$sc.sh" || { eval_log "eval: no scenario $sc"; continue; }
	eval_log "=== scenario $k/$#: $sc ($(scenario_${sc}_runs) runs of ${EVAL_SECS}s)"
	"scenario_$sc" || eval_log "scenario $sc failed"
	topo_reset
done
eval_log "eval: done"
python3 "$here/tools/summary.py" "$EVAL_RESULTS" | tee "$EVAL_OUT/summary.md"
