#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 3, congestion-control mix (paper: Cubic against each Linux CC
# shares the receiver link fairly over EQDS, Vegas excepted; EQIF queueing
# delay 243 us for BBR, 435 us for DCTCP, 1315 us for Cubic at line rate).
# Two senders to the receiver through the star's bottleneck with a
# 100-packet buffer (the EQIF's default queue): s1 runs Cubic, s2 each
# other CC the guest kernel has. During the run both senders ping the
# receiver: over EQDS the ping waits in the sender's EQIF queue behind its
# own flow, so its RTT above idle is that queue's delay; natively it is the
# switch queue's.

CC_BUF=${EQDS_EVAL_CC_BUF:-100}

cc_list() {
	local cc avail
	avail=$(sysctl -n net.ipv4.tcp_available_congestion_control)
	for cc in bbr reno dctcp vegas westwood; do
		grep -qw "$cc" <<< "$avail" && echo "$cc"
	done
}

scenario_ccmix_runs() { echo $(($(cc_list | wc -l) * 2)); }

scenario_ccmix() {
	local cc mode i=0 total
	total=$(scenario_ccmix_runs)
	topo_star 2 "$EVAL_MBIT" "$CC_BUF" || { eval_log "ccmix: topology failed"; return 1; }
	for cc in $(cc_list); do
		for mode in native eqds; do
			i=$((i + 1))
			eval_step ccmix $i "$total" "cubic vs $cc, $mode"
			ccmix_run "$cc" "$mode"
		done
	done
	topo_reset
}

ccmix_run() {	# CC MODE
	local cc=$1 mode=$2 busy mbit counters j d0 d1
	eval_mode "$mode" || return 1
	for j in 1 2; do ping_bg s$j 10.9.0.1 2 "$EVAL_TMP/ping.idle.$j"; done
	eval_wait_bg
	acct_setup rcv 10.0.1.1 10.0.2.1
	iperf_servers rcv 5201 5202
	bulk_flow s1 10.9.0.1 5201 -C cubic
	bulk_flow s2 10.9.0.1 5202 -C "$cc"
	acct_wait_started rcv 2
	sleep 1
	acct_snapshot rcv > "$EVAL_TMP/acct0"
	d0=$(qdisc_drops_pkts sw swr)
	cpu_busy_start
	for j in 1 2; do ping_bg s$j 10.9.0.1 "$EVAL_SECS" "$EVAL_TMP/ping.busy.$j"; done
	sleep "$EVAL_SECS"
	acct_snapshot rcv > "$EVAL_TMP/acct1"
	d1=$(qdisc_drops_pkts sw swr)
	busy=$(cpu_busy_pct)
	counters=$(eqds_counters rcv s1 s2)
	eval_stop_flows
	mbit=$(acct_mbit "$EVAL_TMP/acct0" "$EVAL_TMP/acct1" 10.0.1.1 10.0.2.1)
	eval_record scenario=ccmix mode="$mode" cc="$cc" rate_mbit="$EVAL_MBIT" buf_pkts="$CC_BUF" \
		secs="$EVAL_SECS" flows_mbit@list="$mbit" \
		drops=$((${d1% *} - ${d0% *})) packets=$((${d1#* } - ${d0#* })) \
		ping_idle_cubic@ping="$EVAL_TMP/ping.idle.1" ping_idle_other@ping="$EVAL_TMP/ping.idle.2" \
		ping_busy_cubic@ping="$EVAL_TMP/ping.busy.1" ping_busy_other@ping="$EVAL_TMP/ping.busy.2" \
		cpu_busy="$busy" eqds@json="$counters"
	eval_log "  cubic / $cc: $mbit Mbit/s, drops $((${d1% *} - ${d0% *})), VM CPU $busy%"
}
