#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 4, permutation traffic over a multipath fabric (paper: TCP over
# EQDS with per-packet spraying averaged 22 of 25 Gb/s, native TCP 12-14,
# because ECMP hashes elephant flows onto the same links). 8 hosts on two
# leaves, 4 spines, every link EVAL_FABRIC_MBIT: full bisection. Each host
# sends one TCP flow to a host on the other leaf (a random bijection, one
# per seed) and receives one. Native flows stay on the spine their 5-tuple
# hashes to (fixed client ports per seed; the kernel's hash key is random
# per boot); EQDS sprays every packet. Per host: goodput over a common
# window; per run: the spines' shares of bytes, TCP retransmissions and the
# times TCP detected reordering.

PERM_HOSTS=8
PERM_SPINES=4
PERM_REPS=${EQDS_EVAL_PERM_REPS:-2}
PERM_BUF=${EQDS_EVAL_FABRIC_BUF:-50}

scenario_perm_runs() { echo $((PERM_REPS * 2)); }

# tcp_sum NS...: TCP retransmissions and reordering events, summed.
tcp_sum() {
	local h
	for h in "$@"; do tcp_counters "$h"; done | awk '{ r += $1; o += $2 } END { print r + 0, o + 0 }'
}

# perm_pairs SEED: "SRC DST" per host, each to a host on the other leaf.
perm_pairs() {
	python3 - "$1" "$PERM_HOSTS" << 'PY'
import random, sys
seed, hosts = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
half = hosts // 2
left, right = list(range(1, half + 1)), list(range(half + 1, hosts + 1))
a, b = right[:], left[:]
rng.shuffle(a)
rng.shuffle(b)
for s, d in list(zip(left, a)) + list(zip(right, b)):
    print(s, d, rng.randrange(30000, 60000))
PY
}

scenario_perm() {
	local rep mode i=0 total seed
	total=$(scenario_perm_runs)
	# shellcheck disable=SC2086 # one delay per spine
	topo_fabric $PERM_HOSTS $PERM_SPINES "$EVAL_FABRIC_MBIT" "$PERM_BUF" $EVAL_SPINE_DELAYS ||
		{ eval_log "perm: topology failed"; return 1; }
	for rep in $(seq "$PERM_REPS"); do
		seed=$((EVAL_SEED * 100 + rep))
		for mode in native eqds; do
			i=$((i + 1))
			eval_step perm $i "$total" "$PERM_HOSTS hosts, $PERM_SPINES spines, seed $seed, $mode"
			perm_run "$mode" "$seed"
		done
	done
	topo_reset
}

# perm_run MODE SEED: one run. PERM_HOOK: a function run once the flows
# started, a second before the measurement (a fault); PERM_SCENARIO and
# PERM_FIELDS: the record's scenario (default perm) and extra NAME=VALUEs.
perm_run() {	# MODE SEED
	local mode=$1 seed=$2 s d p h hosts=() mbit=() sp0 sp1 r0 r1 o0 o1 busy counters
	for h in $(seq $PERM_HOSTS); do hosts+=("h$h"); done
	eval_mode "$mode" || return 1
	perm_pairs "$seed" > "$EVAL_TMP/pairs"
	while read -r s d p <&9; do
		acct_setup "h$d" "$(topo_fabric_addr "$s" $PERM_HOSTS)"
		iperf_servers "h$d" $((5200 + s))
	done 9< "$EVAL_TMP/pairs"
	tcp_sum "${hosts[@]}" > "$EVAL_TMP/tcp0"
	while read -r s d p <&9; do
		bulk_flow "h$s" "$(topo_fabric_addr "$d" $PERM_HOSTS)" $((5200 + s)) --cport "$p"
	done 9< "$EVAL_TMP/pairs"
	while read -r s d p <&9; do acct_wait_started "h$d" 1; done 9< "$EVAL_TMP/pairs"
	[ -z "${PERM_HOOK:-}" ] || "$PERM_HOOK"
	sleep 1
	sp0=$(topo_fabric_spine_bytes $PERM_SPINES)
	while read -r s d p <&9; do acct_snapshot "h$d" > "$EVAL_TMP/acct0.$d"; done 9< "$EVAL_TMP/pairs"
	cpu_busy_start
	sleep "$EVAL_SECS"
	while read -r s d p <&9; do acct_snapshot "h$d" > "$EVAL_TMP/acct1.$d"; done 9< "$EVAL_TMP/pairs"
	busy=$(cpu_busy_pct)
	sp1=$(topo_fabric_spine_bytes $PERM_SPINES)
	tcp_sum "${hosts[@]}" > "$EVAL_TMP/tcp1"
	read -r r0 o0 < "$EVAL_TMP/tcp0"
	read -r r1 o1 < "$EVAL_TMP/tcp1"
	counters=$(eqds_counters h1 h5)
	eval_stop_flows
	# Goodput per sending host, in host order.
	while read -r s d p <&9; do
		echo "$s $(acct_mbit "$EVAL_TMP/acct0.$d" "$EVAL_TMP/acct1.$d" \
			"$(topo_fabric_addr "$s" $PERM_HOSTS)")"
	done 9< "$EVAL_TMP/pairs" | sort -n > "$EVAL_TMP/perm.mbit"
	mbit=$(cut -d' ' -f2 "$EVAL_TMP/perm.mbit" | tr '\n' ' ')
	# shellcheck disable=SC2086 # PERM_FIELDS: NAME=VALUE words
	eval_record scenario="${PERM_SCENARIO:-perm}" ${PERM_FIELDS:-} mode="$mode" seed="$seed" \
		rate_mbit="$EVAL_FABRIC_MBIT" \
		hosts=$PERM_HOSTS spines=$PERM_SPINES buf_pkts="$PERM_BUF" secs="$EVAL_SECS" \
		spine_delays="$EVAL_SPINE_DELAYS" flows_mbit@list="$mbit" \
		spine_bytes@list="$(awk -v a="$sp0" -v b="$sp1" 'BEGIN { n = split(a, x); split(b, y)
			for (i = 1; i <= n; i++) printf "%d ", y[i] - x[i] }')" \
		retx=$((r1 - r0)) reorder_events=$((o1 - o0)) cpu_busy="$busy" eqds@json="$counters"
	eval_log "  per host $mbit Mbit/s, TCP retransmits $((r1 - r0)), reordering events $((o1 - o0)), VM CPU $busy%"
}
