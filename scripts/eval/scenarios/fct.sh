#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 5, closed-loop 1 MB downloads (paper: median and p95 FCT 2.4x
# and 2x better over EQDS; RTS mode about half the baseline's FCT). On the
# permutation's fabric, every host keeps one 1 MB download outstanding from
# a random other host (seeded per host) for the window; the FCT runs from
# connect to the last byte, so it includes the handshake and, over EQDS,
# the tunnel's credit request.

FCT_BYTES=$((1 << 20))
FCT_PORT=5300

scenario_fct_runs() { echo 2; }

scenario_fct() {
	local mode i=0
	# shellcheck disable=SC2086 # one delay per spine
	topo_fabric $PERM_HOSTS $PERM_SPINES "$EVAL_FABRIC_MBIT" "$PERM_BUF" $EVAL_SPINE_DELAYS ||
		{ eval_log "fct: topology failed"; return 1; }
	for mode in native eqds; do
		i=$((i + 1))
		eval_step fct $i 2 "$PERM_HOSTS hosts, 1 MB closed-loop downloads, $mode"
		fct_run "$mode"
	done
	topo_reset
}

fct_run() {	# MODE
	local mode=$1 h j peers busy files=() pids=() counters
	eval_mode "$mode" || return 1
	for h in $(seq $PERM_HOSTS); do
		ip netns exec "h$h" python3 "$EVAL_DIR/tools/fct.py" serve \
			"$(topo_fabric_addr "$h" $PERM_HOSTS)" $FCT_PORT $FCT_BYTES > /dev/null 2>&1 &
		EVAL_PIDS+=($!)
	done
	for h in $(seq $PERM_HOSTS); do wait_listen "h$h" $FCT_PORT; done
	cpu_busy_start
	for h in $(seq $PERM_HOSTS); do
		peers=()
		for j in $(seq $PERM_HOSTS); do
			[ "$j" != "$h" ] && peers+=("$(topo_fabric_addr "$j" $PERM_HOSTS)")
		done
		ip netns exec "h$h" timeout $((EVAL_SECS + 60)) python3 "$EVAL_DIR/tools/fct.py" fetch \
			$((EVAL_SEED * 1000 + h)) "$EVAL_SECS" $FCT_PORT "${peers[@]}" \
			> "$EVAL_TMP/fct.$h" 2> /dev/null &
		pids+=($!)
		files+=("$EVAL_TMP/fct.$h")
	done
	# The clients end on their own; the servers are killed after them.
	wait "${pids[@]}"
	busy=$(cpu_busy_pct)
	counters=$(eqds_counters h1 h5)
	eval_stop_flows
	eval_record scenario=fct mode="$mode" bytes=$FCT_BYTES rate_mbit="$EVAL_FABRIC_MBIT" \
		hosts=$PERM_HOSTS secs="$EVAL_SECS" \
		fct_ms@json="$(python3 -c 'import json, sys; print(json.dumps([x for f in sys.argv[1:] for x in (json.load(open(f)) if open(f).read().strip() else [])]))' "${files[@]}")" \
		cpu_busy="$busy" eqds@json="$counters"
	rm -f "${files[@]}"
	eval_log "  $(python3 -c 'import json, statistics, sys
x = sorted(json.loads(open(sys.argv[1]).readlines()[-1])["fct_ms"])
print("%d downloads, median %.1f ms, p99 %.1f ms" % (len(x), statistics.median(x), x[int(0.99 * (len(x) - 1))]) if x else "no downloads")' "$EVAL_RESULTS"), VM CPU $busy%"
}
