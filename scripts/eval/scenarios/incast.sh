#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 1, incast N:1 (paper: 850 senders, 15-packet bottleneck buffer,
# near-perfect sharing, ping to the busy receiver +21 us with EQDS against
# 55 us -> 9 ms natively). N senders each run one TCP flow to the receiver
# through the star's bottleneck (EVAL_MBIT), with a shallow and a deep
# buffer. Per run: per-flow goodput over a common window, the bottleneck's
# drops and sampled queue, TCP retransmissions, and the RTT of pings from
# the bystander (not in the incast) to the receiver, idle and during it.

scenario_incast_runs() {
	echo $(($(wc -w <<< "$EVAL_INCAST_N") * $(wc -w <<< "$EVAL_BUFS") * 2))
}

scenario_incast() {
	local nmax=0 n buf name pkts mode i=0 total
	total=$(scenario_incast_runs)
	for n in $EVAL_INCAST_N; do [ "$n" -gt $nmax ] && nmax=$n; done
	eval_log "incast: building a star of $nmax senders"
	topo_star $nmax "$EVAL_MBIT" 20 || { eval_log "incast: topology failed"; return 1; }
	# Mode outermost: switching 64 hosts between native and EQDS costs a
	# minute under emulation, so it is done twice, not at every run.
	for mode in native eqds; do
		eval_mode "$mode" || { eval_log "incast: eqdsctl failed"; return 1; }
		for buf in $EVAL_BUFS; do
			name=${buf%%:*} pkts=${buf#*:}
			topo_star_shape "$EVAL_MBIT" "$pkts"
			for n in $EVAL_INCAST_N; do
				i=$((i + 1))
				eval_step incast $i "$total" "N=$n, $name buffer ($pkts packets), $mode"
				incast_run "$n" "$name" "$pkts" "$mode"
			done
		done
	done
	topo_reset
}

# incast_run N BUFNAME BUFPKTS MODE: one run, one record (the mode is set).
incast_run() {
	local n=$1 name=$2 pkts=$3 mode=$4 j addrs=() d0 d1 mbit busy counters
	for j in $(seq "$n"); do addrs+=("10.0.$j.1"); done
	ping_bg by 10.9.0.1 2 "$EVAL_TMP/ping.idle"
	eval_wait_bg
	acct_setup rcv "${addrs[@]}"
	iperf_servers rcv $(seq 5201 $((5200 + n)))
	d0=$(qdisc_drops_pkts sw swr)
	for j in $(seq "$n"); do bulk_flow "s$j" 10.9.0.1 $((5200 + j)); done
	acct_wait_started rcv "$n"
	sleep 1		# past slow start and tunnel setup
	acct_snapshot rcv > "$EVAL_TMP/acct0"
	cpu_busy_start
	ping_bg by 10.9.0.1 "$EVAL_SECS" "$EVAL_TMP/ping.busy"
	queue_sampler sw swr "$EVAL_SECS" "$EVAL_TMP/qlen"
	sleep "$EVAL_SECS"
	acct_snapshot rcv > "$EVAL_TMP/acct1"
	busy=$(cpu_busy_pct)
	d1=$(qdisc_drops_pkts sw swr)
	counters=$(eqds_counters rcv s1)
	eval_stop_flows
	mbit=$(acct_mbit "$EVAL_TMP/acct0" "$EVAL_TMP/acct1" "${addrs[@]}")
	# TCP retransmissions are not counted here: reading them costs two
	# commands per sender, minutes at N=64 under emulation; the bottleneck's
	# drops say what they would.
	eval_record scenario=incast mode="$mode" n="$n" buffer="$name" buf_pkts="$pkts" \
		rate_mbit="$EVAL_MBIT" secs="$EVAL_SECS" flows_mbit@list="$mbit" \
		drops=$((${d1% *} - ${d0% *})) packets=$((${d1#* } - ${d0#* })) \
		qlen@lines="$EVAL_TMP/qlen" ping_idle@ping="$EVAL_TMP/ping.idle" \
		ping_busy@ping="$EVAL_TMP/ping.busy" cpu_busy="$busy" eqds@json="$counters"
	eval_log "  $(flows_line "$mbit"), drops $((${d1% *} - ${d0% *})), VM CPU $busy%"
}
