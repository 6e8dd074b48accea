#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Shared helpers of the evaluation scenarios (sourced, in the VM, as root):
# progress lines, result records, switching a topology between native and
# EQDS, running iperf3 flows and pings in the background, and VM CPU load.
# Builds on selftests/lib.sh (namespaces, links, counters) and topo.sh.
EVAL_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$EVAL_DIR/../../selftests/lib.sh"
source "$EVAL_DIR/topo.sh"

EVAL_OUT=${EVAL_OUT:-/tmp/eval}
EVAL_RESULTS=$EVAL_OUT/results.jsonl
EVAL_TMP=${EVAL_TMP:-$(mktemp -d /tmp/eval.XXXXXX)}
EVAL_T0=${EVAL_T0:-$(date +%s)}
PY=python3
RECORD=$EVAL_DIR/tools/record.py

# eval_log MESSAGE: a progress line with the time since the run started.
eval_log() {
	printf '[%5ds] %s\n' $(($(date +%s) - EVAL_T0)) "$*"
	touch "$EVAL_TMP/heartbeat"
}

# eval_watchdog SECS: in the background, when no progress line came for
# SECS, print what every process is doing (state, kernel wait channel), so
# that a stuck run says where it is stuck. Ends with its parent.
eval_watchdog() {
	local me=$$
	(
		while kill -0 $me 2> /dev/null; do
			sleep 10
			[ -e "$EVAL_TMP/heartbeat" ] || continue
			if [ $(($(date +%s) - $(date -r "$EVAL_TMP/heartbeat" +%s))) -gt "$1" ]; then
				echo "eval watchdog: no progress for $1 s; processes:"
				ps -eo pid,ppid,stat,wchan:24,etime,args | grep -v ' \[' | cut -c1-160
				touch "$EVAL_TMP/heartbeat"
			fi
		done
	) &
}

# eval_step SCENARIO I TOTAL WHAT: "which scenario, how far".
eval_step() { eval_log "$1 $2/$3: $4"; }

# eval_record KEY=VALUE...: append one result record (see tools/record.py).
eval_record() { $PY "$RECORD" "$@" >> "$EVAL_RESULTS"; }

# ctl_bounded NS ARGS...: eqdsctl that cannot hang the run.
ctl_bounded() {
	local ns=$1
	shift
	timeout -k 2 10 ip netns exec "$ns" "$EQDSCTL" "$@"
}

# eval_mode native|eqds: clear every host's EQDS destinations, or set the
# ones the topology recorded, with the hosts' pull rates.
eval_mode() {
	local h d
	for h in "${TOPO_HOSTS[@]}"; do
		d=${TOPO_DESTS[$h]}
		if [ "$1" = eqds ] && [ -n "$d" ]; then
			ctl_bounded "$h" set dests "$d" pull-rate "${TOPO_PULL[$h]}" || return 1
		else
			ctl_bounded "$h" set dests none || return 1
		fi
	done
	sleep 0.5	# let tunnels of the previous mode drain
}

# eqds_counters HOST...: each host's EQDS counters as one JSON object
# {host: {counter: value}} (for the record; the report shows what moved).
eqds_counters() {
	local h sep=""
	printf '{'
	for h in "$@"; do
		printf '%s"%s":{%s}' "$sep" "$h" \
			"$(timeout -k 2 10 ip netns exec "$h" "$EQDSCTL" -j show 2> /dev/null |
				sed -n 's/.*"stats":{\([^}]*\)}.*/\1/p')"
		sep=,
	done
	printf '}'
}

# cpu_busy_start / cpu_busy_pct: how busy the VM's CPUs were in between, in
# percent. Near 100 means the emulator, not the scenario, set the pace.
cpu_busy_start() {
	_cpu0=$(awk '/^cpu / {t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t}' /proc/stat)
}
cpu_busy_pct() {
	awk -v a="$_cpu0" '/^cpu / {t = 0; for (i = 2; i <= NF; i++) t += $i
		split(a, p, " "); b = t - $5 - $6
		printf "%.0f", (t > p[2]) ? 100 * (b - p[1]) / (t - p[2]) : 0}' /proc/stat
}

# The helpers' long-running background processes (servers, flows), which
# eval_stop_flows ends. Tracking their pids is much cheaper under emulation
# than asking every namespace for its processes.
EVAL_PIDS=()
EVAL_BG=()

# iperf_servers NS PORT...: one-shot iperf3 servers, waited for.
iperf_servers() {
	local ns=$1 p
	shift
	for p in "$@"; do
		ip netns exec "$ns" timeout -k 5 $((EVAL_SECS + 90)) iperf3 -s -1 -p "$p" > /dev/null 2>&1 &
		EVAL_PIDS+=($!)
	done
	wait_listeners "$ns" $#
}

# wait_listeners NS COUNT: until COUNT TCP sockets listen in NS (20 s at
# most): one poll for all servers instead of one per port.
wait_listeners() {
	local i
	for i in $(seq 100); do
		[ "$(ip netns exec "$1" ss -Hltn 2> /dev/null | wc -l)" -ge "$2" ] && return 0
		sleep 0.2
	done
	echo "only $(ip netns exec "$1" ss -Hltn | wc -l) of $2 servers listen in $1"
	return 1
}

# ping_bg NS ADDR SECS OUT: pings every 50 ms for SECS in the background.
ping_bg() {
	ip netns exec "$1" timeout -k 2 $(($3 + 5)) ping -i 0.05 -w "$3" -W 1 "$2" > "$4" 2>&1 &
	EVAL_BG+=($!)
}

# eval_wait_bg: wait for the bounded background jobs (pings, samplers), by
# pid: a bare `wait` would also wait for anything else still running.
eval_wait_bg() {
	[ ${#EVAL_BG[@]} -gt 0 ] && wait "${EVAL_BG[@]}" 2> /dev/null
	EVAL_BG=()
}

# qdisc_drops_pkts NS IF: "drops packets" of IF's tbf.
qdisc_drops_pkts() { echo "$(qdisc_stat "$1" "$2" tbf drops) $(qdisc_stat "$1" "$2" tbf packets)"; }

# queue_sampler NS IF SECS OUT: the tbf's queue length about every 0.2 s,
# for SECS (a deadline, not a count: reading tc is slow under emulation).
queue_sampler() {
	(
		local end=$(($(date +%s) + $3))
		while [ "$(date +%s)" -lt $end ]; do
			qdisc_stat "$1" "$2" tbf qlen
			sleep 0.2
		done
	) > "$4" 2> /dev/null &
	EVAL_BG+=($!)
}

# tcp_counters NS: "RETRANSMITTED_SEGMENTS REORDERING_EVENTS" of the
# namespace's TCP (reordering detected by SACK, timestamps or dupacks), with
# one nstat.
tcp_counters() {
	ip netns exec "$1" nstat -asz TcpRetransSegs TcpExtTCPSACKReorder TcpExtTCPTSReorder \
		TcpExtTCPRenoReorder 2> /dev/null |
		awk '$1 == "TcpRetransSegs" { r = $2 } $1 ~ /Reorder$/ { o += $2 } END { print r + 0, o + 0 }'
}

# ---- per-flow goodput over a common window ----
#
# iperf3 reports each flow over its own lifetime, and under emulation 64
# clients start seconds apart. So flows run longer than the measurement,
# and goodput is counted at the receiver over one window shared by every
# flow: an nftables rule per source counts the IP bytes delivered to the
# test ports (5201-5999). Decapsulated EQDS packets pass the input hook
# with their inner headers; the outer ones go to the EQDS port and are not
# counted, so both modes count the same thing.

# acct_setup NS SRC_ADDR...: count bytes per source address.
acct_setup() {
	local ns=$1 a
	shift
	ip netns exec "$ns" nft delete table inet evalacct 2> /dev/null
	{
		printf 'table inet evalacct {\n chain in {\n  type filter hook input priority 0;\n'
		for a in "$@"; do
			echo "  ip saddr $a meta l4proto { tcp, udp } th dport 5201-5999 counter"
		done
		printf ' }\n}\n'
	} | ip netns exec "$ns" nft -f -
}

# acct_snapshot NS: "TIME" then "ADDR BYTES" per source.
acct_snapshot() {
	date +%s.%N
	ip netns exec "$1" nft list chain inet evalacct in |
		awk '{ for (i = 1; i < NF; i++) { if ($i == "saddr") a = $(i + 1); if ($i == "bytes") print a, $(i + 1) } }'
}

# acct_mbit SNAP0 SNAP1 ADDR...: Mbit/s per source between two snapshots,
# in the order given.
acct_mbit() {
	local s0=$1 s1=$2
	shift 2
	awk -v order="$*" '
		FNR == 1 { f++; t[f] = $1; next }
		{ b[f, $1] = $2 }
		END { n = split(order, o, " "); dt = t[2] - t[1]
		      for (i = 1; i <= n; i++)
		          printf "%s%.2f", (i > 1 ? " " : ""), (b[2, o[i]] - b[1, o[i]]) * 8 / dt / 1e6
		      print "" }' "$s0" "$s1"
}

# acct_started SNAP N: true when N sources have each delivered data: more
# than an iperf3 control connection's exchange (a few hundred bytes), which
# counts too, so a client whose test never started is not taken for a flow.
ACCT_STARTED_BYTES=16384
acct_started() { [ "$(awk -v min=$ACCT_STARTED_BYTES 'NR > 1 && $2 > min' "$1" | wc -l)" -ge "$2" ]; }

# acct_wait_started NS N: until N sources deliver (30 s at most).
acct_wait_started() {
	local i
	for i in $(seq 60); do
		acct_snapshot "$1" > "$EVAL_TMP/started"
		acct_started "$EVAL_TMP/started" "$2" && return 0
		sleep 0.5
	done
	echo "only $(awk 'NR > 1 && $2 > 0' "$EVAL_TMP/started" | wc -l) of $2 flows started"
	return 1
}

# bulk_flow SRC_NS DST_ADDR PORT [iperf3 args]: a client that outlasts the
# window (killed by eval_stop_flows).
bulk_flow() {
	local ns=$1 addr=$2 port=$3
	shift 3
	ip netns exec "$ns" timeout -k 5 $((EVAL_SECS + 90)) iperf3 -c "$addr" -p "$port" \
		-t $((EVAL_SECS + 80)) "$@" > /dev/null 2>&1 &
	EVAL_PIDS+=($!)
}

# eval_stop_flows: end the servers and flows the helpers started, and wait
# for every background job (pings and samplers end on their own).
eval_stop_flows() {
	local p
	if [ ${#EVAL_PIDS[@]} -gt 0 ]; then
		kill "${EVAL_PIDS[@]}" 2> /dev/null
		sleep 1
		# What ignored SIGTERM: `timeout` leads a process group with its
		# command in it, so the whole group goes.
		for p in "${EVAL_PIDS[@]}"; do
			kill -0 "$p" 2> /dev/null && kill -KILL -- "-$p" 2> /dev/null
		done
		wait "${EVAL_PIDS[@]}" 2> /dev/null
	fi
	EVAL_PIDS=()
	eval_wait_bg
}


# flows_line "MBIT...": total goodput and Jain's index, for a progress line
# (awk: a Python start costs a second under emulation).
flows_line() {
	awk '{ for (i = 1; i <= NF; i++) { s += $i; q += $i * $i }
	       printf "goodput %.1f Mbit/s in all, Jain %.3f", s, q ? s * s / (NF * q) : 0 }' <<< "$1"
}
