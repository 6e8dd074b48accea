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
: "${KTAP_RESULTS:=/dev/fd/3}"
_nres=0
_nfail=0

_result() {	# status description [directive]
	_nres=$((_nres + 1))
	[ "$1" = "not ok" ] && _nfail=$((_nfail + 1))
	echo "$1 $_nres ${2//$'\n'/ }${3:+ # $3}" >> "$KTAP_RESULTS"
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

eqds_load() {	# [module parameters...]
	eqds_loaded && rmmod eqds
	modprobe -q udp_tunnel 2>/dev/null
	modprobe -q ip6_udp_tunnel 2>/dev/null
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
