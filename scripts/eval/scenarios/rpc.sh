#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 6, request/response latency under incast (paper: memcached
# request latency 20-30x lower than baseline on a busy server). The
# bystander calls a small RPC server on the receiver (64-byte request,
# 1 KB response, one every 10 ms: a memcached GET) first on an idle
# network, then while EVAL_RPC_N senders run an incast to the same
# receiver, with each buffer. Over EQDS the client is an EQDS host like
# the senders: its requests wait in its own tunnel, not behind theirs.

RPC_PORT=5400

scenario_rpc_runs() { echo $(($(wc -w <<< "$EVAL_BUFS") * 2)); }

scenario_rpc() {
	local n=${EQDS_EVAL_RPC_N:-16} buf mode i=0 total
	[ "$EVAL_MODE" = smoke ] && n=4
	total=$(scenario_rpc_runs)
	topo_star "$n" "$EVAL_MBIT" 20 || { eval_log "rpc: topology failed"; return 1; }
	topo_star_bystander_eqds
	for mode in native eqds; do
		eval_mode "$mode" || { eval_log "rpc: eqdsctl failed"; return 1; }
		for buf in $EVAL_BUFS; do
			topo_star_shape "$EVAL_MBIT" "${buf#*:}"
			i=$((i + 1))
			eval_step rpc $i "$total" "RPC under a $n:1 incast, ${buf%%:*} buffer, $mode"
			rpc_run "$n" "${buf%%:*}" "${buf#*:}" "$mode"
		done
	done
	topo_reset
}

rpc_run() {	# N BUFNAME BUFPKTS MODE
	local n=$1 name=$2 pkts=$3 mode=$4 j busy counters
	ip netns exec rcv python3 "$EVAL_DIR/tools/rpc.py" serve 10.9.0.1 $RPC_PORT > /dev/null 2>&1 &
	EVAL_PIDS+=($!)
	wait_listen rcv $RPC_PORT
	ip netns exec by timeout 60 python3 "$EVAL_DIR/tools/rpc.py" call 10.9.0.1 $RPC_PORT 3 \
		> "$EVAL_TMP/rpc.idle" 2> /dev/null
	iperf_servers rcv $(seq 5201 $((5200 + n)))
	acct_setup rcv $(for j in $(seq "$n"); do echo "10.0.$j.1"; done)
	for j in $(seq "$n"); do bulk_flow "s$j" 10.9.0.1 $((5200 + j)); done
	acct_wait_started rcv "$n"
	sleep 1
	cpu_busy_start
	ip netns exec by timeout $((EVAL_SECS + 60)) python3 "$EVAL_DIR/tools/rpc.py" call \
		10.9.0.1 $RPC_PORT "$EVAL_SECS" > "$EVAL_TMP/rpc.busy" 2> /dev/null
	busy=$(cpu_busy_pct)
	counters=$(eqds_counters rcv by)
	eval_stop_flows
	eval_record scenario=rpc mode="$mode" n="$n" buffer="$name" buf_pkts="$pkts" \
		rate_mbit="$EVAL_MBIT" secs="$EVAL_SECS" lat_idle_ms@jsonfile="$EVAL_TMP/rpc.idle" \
		lat_busy_ms@jsonfile="$EVAL_TMP/rpc.busy" cpu_busy="$busy" eqds@json="$counters"
	eval_log "  $(python3 -c 'import json, statistics, sys
r = json.loads(open(sys.argv[1]).readlines()[-1])
def p(x, q): x = sorted(x); return x[int(q * (len(x) - 1))] if x else float("nan")
print("RPC latency idle median %.2f ms; under incast median %.2f p99 %.2f ms (%d calls)" % (
    p(r["lat_idle_ms"] or [], .5), p(r["lat_busy_ms"] or [], .5), p(r["lat_busy_ms"] or [], .99), len(r["lat_busy_ms"] or [])))' "$EVAL_RESULTS"), VM CPU $busy%"
}
