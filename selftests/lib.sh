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
# todo DESCRIPTION REASON: a known gap, reported as an expected failure
# (KTAP "# TODO"): visible in every run, not counted as a failure.
todo() { _result "not ok" "$1" "TODO $2"; _nfail=$((_nfail - 1)); echo "TODO: $1: $2"; }
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
	modprobe -q nf_conntrack 2>/dev/null
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

# ynl NS CLI-ARGS...: the kernel's generic netlink client (tools/ynl/cli.py,
# Documentation/netlink.rst) driving eqds from its YNL spec alone, in
# namespace NS (- for the initial one); JSON out. The spec's schema
# validation is scripts/ynl-check.py's job, not repeated here.
ynl() {
	local ns=$1
	shift
	set -- python3 "$TOP/tools/ynl/cli.py" --spec "$TOP/uapi/eqds.yaml" --no-schema \
		--output-json "$@"
	if [ "$ns" = - ]; then "$@"; else ip netns exec "$ns" "$@"; fi
}

# ynl_req NS OP JSON...: do requests through the same library in one process
# (selftests/tools/ynl_req.py); prints the kernel's answer to each on its own
# line as genl_raw.py does, "errno=N msg=EXTACK" (errno=0: it succeeded).
ynl_req() {
	local ns=$1
	shift
	set -- python3 "$TOP/selftests/tools/ynl_req.py" "$@"
	if [ "$ns" = - ]; then "$@"; else ip netns exec "$ns" "$@"; fi
}

# json_get JSON PYTHON-EXPR: evaluate an expression on the parsed JSON (as j).
json_get() {
	python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"
}

# stat NS COUNTER: one of the namespace's eqds counters. (Read from eqdsctl's
# compact JSON without Python, whose start costs a second under emulation.)
stat() {
	ctl "$1" -j show | sed -n 's/.*"stats":{\([^}]*\)}.*/,\1,/p' |
		grep -o ",\"$2\":[0-9]*" | cut -d: -f2
}

# stat_is NS COUNTER OP VALUE: test(1) of a counter, e.g. stat_is h2 rx_packets -ge 100.
stat_is() { test "$(stat "$1" "$2")" "$3" "$4"; }

# wait_until SECONDS COMMAND...: until COMMAND succeeds (polled every 0.1 s);
# fails once SECONDS have passed.
wait_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.1
	done
}

# flowing NS [PACKETS [SECONDS]]: until NS has received PACKETS (200) more
# EQDS data packets, SECONDS (20) at most: a transfer started in the
# background is under way.
flowing() {
	local want=$(($(stat "$1" rx_packets) + ${2:-200}))
	wait_until "${3:-20}" stat_is "$1" rx_packets -ge "$want"
}

# gone NS: the namespace and everything in it disappear at once (its
# processes killed, then the namespace deleted).
gone() {
	ip netns pids "$1" | xargs -r kill -9
	ip netns del "$1"
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

# capture NS DEV FILE [tcpdump options and filter...]: tcpdump writes what
# DEV sees to FILE in the background until capture_stop; returns once it
# listens (10 s at most), however slow it is to start under emulation.
# Immediate mode: libpcap's default TPACKET_V3 ring hands packets over in
# blocks, a block once full or a second old, and tcpdump stopped earlier
# drops the block it has not been handed.
capture() {
	local ns=$1 dev=$2 file=$3
	shift 3
	ip netns exec "$ns" tcpdump --immediate-mode -i "$dev" -nn -w "$file" "$@" \
		2> "$file.err" &
	_capture_pids="${_capture_pids:-} $!"
	wait_until 10 grep -q "listening on" "$file.err"
}

# capture_stop: stop every capture; their files are complete.
capture_stop() {
	[ -n "${_capture_pids:-}" ] || return 0
	kill -INT $_capture_pids 2> /dev/null
	wait $_capture_pids
	_capture_pids=
}

# xfer DESC SERVER_NS ADDR CLIENT_NS BYTES: a TCP transfer whose content
# the receiver checks byte by byte (tools/xfer.py).
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
		ok "$desc: $((bytes >> 20)) MiB, content intact"
	else
		fail "$desc: content differs or transfer failed" "sent '$s' received '$r'"
	fi
}

# xfer_bg ARGS-OF-XFER: xfer in the background, while the test does something
# else; xfer_wait waits for it, prints its diagnostics and reports its result
# here (a background shell's results would be numbered apart). One at a time.
xfer_bg() {
	_xfer_log=/tmp/xfer-bg.$$
	xfer "$@" > "$_xfer_log" 2>&1 3> "$_xfer_log.res" &
	_xfer_pid=$!
}

xfer_wait() {
	wait "$_xfer_pid"
	cat "$_xfer_log"
	results_from "$_xfer_log.res"
	rm -f "$_xfer_log" "$_xfer_log.res"
}

# results_from FILE: report here the results a background shell wrote to FILE
# (its fd 3), renumbered in this shell's sequence.
results_from() {
	local line
	while IFS= read -r line; do
		case $line in
		"not ok "*) line=${line#not ok }; _result "not ok" "${line#* }" ;;
		"ok "*) line=${line#ok }; _result "ok" "${line#* }" ;;
		esac
	done < "$1"
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

# ---- topology helpers: routers, multipath, shaped links, figures ----

# router_ns NAME...: namespaces that forward IPv4 and IPv6 (switches, routers).
router_ns() {
	local n
	for n in "$@"; do
		ns_add "$n" || return 1
		ip netns exec "$n" sysctl -qw net.ipv4.ip_forward=1 \
			net.ipv6.conf.all.forwarding=1 net.ipv4.conf.all.rp_filter=0 \
			net.ipv4.conf.default.rp_filter=0
	done
}

# uplink HOST HIF HADDR ROUTER RIF RADDR: a veth from a host to a router,
# with the host's default route through it (ADDRs in CIDR form).
uplink() {
	veth "$@" || return 1
	ip -n "$1" route add default via "${6%/*}"
}

# multipath_route NS PREFIX GW...: an ECMP route over the given gateways.
# Which packets take which path depends on net.ipv4.fib_multipath_hash_policy
# (0: addresses, 1: addresses, protocol and ports).
multipath_route() {
	local ns=$1 prefix=$2 gw hops=()
	shift 2
	for gw in "$@"; do hops+=(nexthop via "$gw"); done
	ip -n "$ns" route replace "$prefix" "${hops[@]}"
}

# parallel_links N: hosts a (10.0.1.1) and b (10.0.2.1) behind routers r1
# and r2 joined by N links, veth p<i>a (r1, 10.1.<i>.1) to p<i>b (r2,
# 10.1.<i>.2), with ECMP routes between a's and b's subnets hashed on L4
# ports (so one TCP flow takes one link, and EQDS sprays by its outer
# source port). The links are not shaped: the caller shapes them.
parallel_links() {
	local n=$1 i gw1=() gw2=()
	ns_add a b || return 1
	router_ns r1 r2 || return 1
	uplink a va 10.0.1.1/24 r1 ra 10.0.1.254/24 || return 1
	uplink b vb 10.0.2.1/24 r2 rb 10.0.2.254/24 || return 1
	for i in $(seq "$n"); do
		veth r1 "p${i}a" "10.1.$i.1/24" r2 "p${i}b" "10.1.$i.2/24" || return 1
		gw1+=("10.1.$i.2") gw2+=("10.1.$i.1")
	done
	for i in r1 r2; do ip netns exec $i sysctl -qw net.ipv4.fib_multipath_hash_policy=1; done
	multipath_route r1 10.0.2.0/24 "${gw1[@]}" &&
		multipath_route r2 10.0.1.0/24 "${gw2[@]}"
}

# link_shaped NS IF [rate RATE] [limit PKTS] [delay DELAY]: shape the egress
# of IF. rate: a tbf of that rate (tc units, e.g. 200mbit) whose buffer holds
# PKTS full-size packets (default 30); delay: a netem delay (e.g. 1ms) ahead
# of it. Replaces IF's root qdisc. The tbf is handle 20:, the netem 10:.
link_shaped() {
	local ns=$1 dev=$2 rate="" limit=30 delay="" parent=root
	shift 2
	while [ $# -ge 2 ]; do
		case $1 in
		rate) rate=$2 ;;
		limit) limit=$2 ;;
		delay) delay=$2 ;;
		*) echo "link_shaped: unknown option $1" >&2; return 1 ;;
		esac
		shift 2
	done
	ip netns exec "$ns" tc qdisc del dev "$dev" root 2> /dev/null
	if [ -n "$delay" ]; then
		ip netns exec "$ns" tc qdisc add dev "$dev" root handle 10: netem \
			delay "$delay" limit 10000 || return 1
		parent="parent 10:1"
	fi
	[ -z "$rate" ] && return 0
	# shellcheck disable=SC2086 # parent is two words, or one
	ip netns exec "$ns" tc qdisc add dev "$dev" $parent handle 20: tbf rate "$rate" \
		burst 15kb limit $((limit * 1514))
}

# qdisc_stat NS IF KIND FIELD: a counter of IF's first qdisc of KIND (tbf,
# netem, ...) as `tc -s qdisc` shows it: bytes, packets, drops, overlimits,
# requeues, or qlen (packets queued now). Cheap enough to sample in a loop.
qdisc_stat() {
	ip netns exec "$1" tc -s qdisc show dev "$2" | awk -v k="$3" -v f="$4" '
		$1 == "qdisc" { on = ($2 == k); next }
		on && $1 == "Sent" {
			v["bytes"] = $2; v["packets"] = $4; v["drops"] = $7 + 0
			v["overlimits"] = $9; v["requeues"] = $11 + 0
		}
		on && $1 == "backlog" { sub("p", "", $3); v["qlen"] = $3; print v[f] + 0; exit }'
}

# if_stat NS IF COUNTER: an interface counter (as `ip -s link` shows them):
# rx_packets, tx_packets, rx_bytes, tx_bytes, rx_dropped, tx_dropped...
if_stat() {
	ip netns exec "$1" cat "/sys/class/net/$2/statistics/$3"
}

# nstat_get NS COUNTER: a kernel SNMP counter of the namespace (TcpRetransSegs,
# TcpExtTCPSACKReorder...), absolute, 0 if absent.
nstat_get() {
	local v
	v=$(ip netns exec "$1" nstat -asz "$2" 2> /dev/null | awk -v c="$2" '$1 == c {print $2}')
	echo "${v:-0}"
}

# Shares measured at the receiver while the flows compete, not over iperf3's
# whole run: under emulation, clients start and stop seconds apart.
# src_counters NS ADDR...: nftables counts the TCP bytes each ADDR gets into NS.
src_counters() {
	local ns=$1 a
	shift
	ip netns exec "$ns" nft -f - <<-EOF
	table ip srcbytes {
		chain in {
			type filter hook input priority 0; policy accept;
			$(for a; do echo "ip saddr $a ip protocol tcp counter"; done)
		}
	}
	EOF
}

# src_bytes NS: one line, the time (the middle of the slow nft call, in s)
# then the bytes from each of src_counters' addresses so far.
src_bytes() {
	local t0 b
	t0=$(date +%s.%N)
	b=$(ip netns exec "$1" nft list chain ip srcbytes in |
		awk '/counter/ {for (i = 1; i < NF; i++) if ($i == "bytes") printf " %s", $(i + 1)}')
	echo "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.6f", (a + b) / 2}')$b"
}

# src_rates LINE0 LINE1: each address's Mbit/s between two src_bytes lines.
src_rates() {
	echo "$1 $2" | awk '{n = NF / 2; for (i = 2; i <= n; i++)
		printf "%.1f%s", ($(n + i) - $i) * 8 / ($(n + 1) - $1) / 1e6, (i < n ? " " : "\n")}'
}

# jain X...: Jain's fairness index of the values, (sum x)^2 / (n sum x^2).
jain() {
	python3 -c 'import sys; x=[float(v) for v in sys.argv[1:]]; s=sum(x); q=sum(v*v for v in x); print("%.3f" % (s*s/(len(x)*q) if q else 0))' "$@"
}

# eqds_stats NS: the namespace's non-zero eqds counters, one line.
eqds_stats() {
	ctl "$1" -j show | sed -n 's/.*"stats":{\([^}]*\)}.*/\1/p' | tr -d '"' | tr ',' '\n' |
		awk -F: '$2 != 0 {printf "%s%s=%s", sep, $1, $2; sep = " "} END {print ""}'
}
