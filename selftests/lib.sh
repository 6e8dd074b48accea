#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Helpers for eqds selftests (sourced). Runs inside the test VM as root.
#
# A test script reports each check with ok/fail/check/skip; run.sh collects
# them into a nested KTAP block. Anything printed to stdout is diagnostics and
# is shown prefixed with '# '.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
EQDS_KO=${EQDS_KO:-$TOP/kmod/eqds.ko}
EQDSCTL=${EQDSCTL:-$TOP/build/tools/eqdsctl/eqdsctl}
_nres=0
_nfail=0

_result() {	# status description [directive]
	_nres=$((_nres + 1))
	[ "$1" = "not ok" ] && _nfail=$((_nfail + 1))
	echo "$1 $_nres ${2//$'\n'/ }${3:+ # $3}" >&3
}

ok() { _result "ok" "$1"; }
fail() { _result "not ok" "$1"; [ $# -gt 1 ] && echo "FAIL: $1: $2"; return 0; }
skip() { _result "ok" "$1" "SKIP ${2:-}"; }

# check DESCRIPTION CMD...: ok when CMD succeeds; its output is kept as diagnostics.
check() {
	local desc=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc = 0 ]; then
		ok "$desc"
	else
		fail "$desc" "'$*' exited $rc: ${out:0:400}"
	fi
	return $rc
}

# check_fails DESCRIPTION PATTERN CMD...: ok when CMD fails and its output matches PATTERN.
check_fails() {
	local desc=$1 pat=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc != 0 ] && grep -qiE -- "$pat" <<< "$out"; then
		ok "$desc"
	else
		fail "$desc" "'$*' exited $rc, wanted failure matching /$pat/: ${out:0:400}"
	fi
}

# expect_eq DESCRIPTION WANT GOT
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "want '$2', got '$3'"; fi
}

test_failed() { [ "$_nfail" != 0 ]; }

# ---- module ----

eqds_loaded() { [ -d /sys/module/eqds ]; }

# What modprobe would load before eqds.ko (insmod does not resolve them).
eqds_deps() {
	modprobe -q udp_tunnel 2>/dev/null
	modprobe -q ip6_udp_tunnel 2>/dev/null
}

eqds_load() {	# [module parameters...]
	eqds_loaded && rmmod eqds
	eqds_deps
	insmod "$EQDS_KO" "$@"
}

eqds_unload() { ! eqds_loaded || rmmod eqds; }

# ---- hosts: one network namespace each ----

_netns=()

ns_add() {	# name...
	local n
	for n in "$@"; do
		ip netns add "$n" || return 1
		ip -n "$n" link set lo up
		_netns+=("$n")
	done
}

ns_del_all() {
	local n
	for n in "${_netns[@]}"; do
		ip netns pids "$n" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "$n" 2>/dev/null
	done
	_netns=()
}

# veth NS1 IF1 ADDR1 NS2 IF2 ADDR2: a link between two hosts (ADDRs in CIDR).
veth() {
	ip link add "$2" netns "$1" type veth peer name "$5" netns "$4" || return 1
	ip -n "$1" addr add "$3" dev "$2"
	ip -n "$4" addr add "$6" dev "$5"
	ip -n "$1" link set "$2" up
	ip -n "$4" link set "$5" up
}

ctl() {	# NS eqdsctl-args...: run eqdsctl in a namespace
	local n=$1
	shift
	ip netns exec "$n" "$EQDSCTL" "$@"
}

# json_get JSON PYTHON-EXPR: evaluate an expression on the parsed JSON (as j).
json_get() {
	python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"
}

# stat NS COUNTER: one of the namespace's eqds counters.
stat() {
	json_get "$(ctl "$1" -j show)" "j['stats']['$2']"
}

# two_hosts: h1 (10.0.1.1, fd00:1::1) and h2 (10.0.1.2, fd00:1::2) on one
# veth link, each with the other as its EQDS destination.
two_hosts() {
	ns_add h1 h2 || return 1
	veth h1 v1 10.0.1.1/24 h2 v2 10.0.1.2/24 || return 1
	ip -n h1 addr add fd00:1::1/64 dev v1 nodad
	ip -n h2 addr add fd00:1::2/64 dev v2 nodad
	ctl h1 set dests 10.0.1.2/32,fd00:1::2/128 || return 1
	ctl h2 set dests 10.0.1.1/32,fd00:1::1/128 || return 1
}

# wait_listen NS PORT: until a TCP socket listens there (10 s at most).
wait_listen() {
	local i
	for i in $(seq 100); do
		ip netns exec "$1" ss -Hltn "sport = :$2" 2> /dev/null | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

# xfer DESC SERVER_NS ADDR CLIENT_NS BYTES: a TCP transfer whose SHA-256
# must match at both ends.
xfer() {
	local desc=$1 sns=$2 addr=$3 cns=$4 bytes=$5 port=$((20000 + RANDOM % 20000))
	local out=/tmp/xfer.$$ t0 secs r s
	ip netns exec "$sns" python3 "$TOP/selftests/tools/xfer.py" serve "$addr" $port > $out &
	local spid=$!
	wait_listen "$sns" $port
	t0=$(date +%s.%N)
	s=$(ip netns exec "$cns" python3 "$TOP/selftests/tools/xfer.py" send "$addr" $port "$bytes" 2>&1)
	wait $spid
	r=$(cat $out)
	rm -f $out
	secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
	echo "$desc: sent '$s' received '$r' in ${secs}s"
	if [ -n "$r" ] && [ "$r" = "$s" ] && [ "${r%% *}" = "$bytes" ]; then
		ok "$desc: $((bytes >> 20)) MiB, sha256 matches"
	else
		fail "$desc: sha256 mismatch or transfer failed" "sent '$s' received '$r'"
	fi
}

# iperf NS_SERVER ADDR NS_CLIENT SECONDS [iperf3 args]: prints Mbit/s received.
iperf() {
	local sns=$1 addr=$2 cns=$3 secs=$4 port=$((5201 + RANDOM % 1000))
	shift 4
	ip netns exec "$sns" iperf3 -s -1 -p $port > /dev/null 2>&1 &
	wait_listen "$sns" $port
	ip netns exec "$cns" iperf3 -c "$addr" -p $port -t "$secs" -J "$@" 2> /dev/null |
		python3 -c 'import json,sys; e=json.load(sys.stdin)["end"]; print("%.0f %s" % (e["sum_received"]["bits_per_second"]/1e6, e["sum_sent"].get("retransmits", 0)))' 2>/dev/null
	wait
}
