#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 2, an unresponsive UDP blaster against 4 TCP flows (paper:
# natively UDP takes nearly all of the 25 Gb/s; over EQDS the receiver
# shares fairly). s1..s4 run TCP, s5 sends UDP at the bottleneck's rate
# (iperf3 -u; 1400-byte datagrams, so that the encapsulated packet fits
# the MTU in both modes), all to the receiver through the star's
# bottleneck with the shallow buffer. Per-flow goodput over a common window.
# The blaster starts first: iperf3 3.12 does not retry the datagram that
# starts a UDP test, which the TCP flows' drops at the shallow buffer would
# otherwise lose now and then, leaving no blaster at all.

UDP_TCP_FLOWS=4

scenario_udp_runs() { echo 2; }

scenario_udp() {
	local n=$((UDP_TCP_FLOWS + 1)) buf pkts mode i=0
	buf=${EVAL_BUFS%% *}
	pkts=${buf#*:}
	topo_star $n "$EVAL_MBIT" "$pkts" || { eval_log "udp: topology failed"; return 1; }
	for mode in native eqds; do
		i=$((i + 1))
		eval_step udp $i 2 "$UDP_TCP_FLOWS TCP + 1 UDP at ${EVAL_MBIT} Mbit/s, ${buf%%:*} buffer, $mode"
		udp_run "$mode" "$pkts"
	done
	topo_reset
}

udp_run() {	# MODE BUFPKTS
	local mode=$1 pkts=$2 n=$((UDP_TCP_FLOWS + 1)) j addrs=() senders=() d0 d1 mbit busy counters
	for j in $(seq $n); do addrs+=("10.0.$j.1"); senders+=("s$j"); done
	eval_mode "$mode" || return 1
	acct_setup rcv "${addrs[@]}"
	iperf_servers rcv $(seq 5201 $((5200 + n)))
	d0=$(qdisc_drops_pkts sw swr)
	bulk_flow "s$n" 10.9.0.1 $((5200 + n)) -u -b "${EVAL_MBIT}M" -l 1400
	acct_wait_started rcv 1
	for j in $(seq $UDP_TCP_FLOWS); do bulk_flow "s$j" 10.9.0.1 $((5200 + j)); done
	acct_wait_started rcv $n
	sleep 1
	acct_snapshot rcv > "$EVAL_TMP/acct0"
	cpu_busy_start
	sleep "$EVAL_SECS"
	acct_snapshot rcv > "$EVAL_TMP/acct1"
	busy=$(cpu_busy_pct)
	d1=$(qdisc_drops_pkts sw swr)
	counters=$(eqds_counters rcv s1 "s$n")
	eval_stop_flows
	mbit=$(acct_mbit "$EVAL_TMP/acct0" "$EVAL_TMP/acct1" "${addrs[@]}")
	eval_record scenario=udp mode="$mode" rate_mbit="$EVAL_MBIT" buf_pkts="$pkts" \
		secs="$EVAL_SECS" flows_mbit@list="$mbit" kinds@json='["tcp","tcp","tcp","tcp","udp"]' \
		drops=$((${d1% *} - ${d0% *})) packets=$((${d1#* } - ${d0#* })) \
		cpu_busy="$busy" eqds@json="$counters"
	eval_log "  per flow (TCP x$UDP_TCP_FLOWS, UDP) $mbit Mbit/s, VM CPU $busy%"
}
