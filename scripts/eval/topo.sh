#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Topology builder for the evaluation (sourced, in the VM, as root). Builds
# namespaces out of selftests/lib.sh's helpers (router_ns, uplink, veth,
# link_shaped, multipath_route) and records, per host, which prefixes it
# reaches over EQDS and at what rate it pulls, so that eval_mode (lib.sh)
# can switch a whole topology between native and EQDS without rebuilding it.
#
# Two shapes cover every scenario:
#
#   topo_star N RATE BUF [DELAY]
#       s1..sN (10.0.i.1) --+
#       by    (10.8.0.1) ---+-- sw -- RATE, BUF packets [, DELAY] --> rcv (10.9.0.1)
#     N senders and a bystander `by` (not part of the incast: pings and
#     RPCs from it) behind one switch whose port to the receiver is the
#     bottleneck. The reverse direction (ACKs) is not shaped.
#
#   topo_fabric HOSTS SPINES RATE BUF DELAY...
#       h1..h(H/2) -- l1 ==SPINES links== sp1..spS ==SPINES links== l2 -- rest
#     Two leaves, SPINES spines (one DELAY per spine: unequal delays are
#     allowed), every link shaped to RATE both ways with BUF packets, so the
#     core has full bisection (HOSTS/2 hosts x RATE per leaf = SPINES x RATE
#     when HOSTS/2 = SPINES). Leaves route to the other leaf over an ECMP
#     route hashed on L4 ports: one TCP flow stays on one spine natively,
#     while EQDS sprays (its outer UDP source port is the path id).

# Per host: its EQDS destinations and its pull rate (Mbit/s, "auto").
declare -gA TOPO_DESTS=() TOPO_PULL=()
TOPO_HOSTS=()	# hosts (not switches), in creation order

_topo_host() {	# NAME DESTS PULL
	TOPO_HOSTS+=("$1")
	TOPO_DESTS[$1]=$2
	TOPO_PULL[$1]=$3
}

# The receiver pulls 5% below the bottleneck: credit counts IP bytes while
# the shaped link also carries Ethernet framing, and the rest lets the
# switch queue drain (the same margin as test_incast.sh).
topo_pull_for() { echo $(($1 * 95 / 100)); }

topo_star() {	# N RATE_MBIT BUF_PKTS [DELAY]
	local n=$1 rate=$2 buf=$3 delay=${4:-} i
	router_ns sw || return 1
	ns_add rcv by || return 1
	uplink rcv vr 10.9.0.1/24 sw swr 10.9.0.254/24 || return 1
	uplink by vby 10.8.0.1/24 sw swby 10.8.0.254/24 || return 1
	for i in $(seq "$n"); do
		ns_add "s$i" || return 1
		uplink "s$i" "vs$i" "10.0.$i.1/24" sw "sw$i" "10.0.$i.254/24" || return 1
		_topo_host "s$i" 10.9.0.1/32 auto
	done
	# The receiver sends ACKs (and RPC replies) over EQDS to the senders and
	# the bystander; the bystander's own traffic is native unless a scenario
	# gives it destinations (topo_star_bystander_eqds).
	_topo_host rcv 10.0.0.0/16 "$(topo_pull_for "$rate")"
	_topo_host by "" auto
	topo_star_shape "$rate" "$buf" "$delay"
}

# topo_star_shape RATE_MBIT BUF_PKTS [DELAY]: reshape the bottleneck (the
# scenarios switch between shallow and deep buffers on one topology).
topo_star_shape() {
	local opts=(rate "$1mbit" limit "$2")
	[ -n "${3:-}" ] && opts+=(delay "$3")
	link_shaped sw swr "${opts[@]}" || return 1
	TOPO_PULL[rcv]=$(topo_pull_for "$1")
}

# The bystander talks to the receiver over EQDS too (the RPC scenario: a
# latency-sensitive client is an EQDS host like the others).
topo_star_bystander_eqds() {
	TOPO_DESTS[by]=10.9.0.1/32
	TOPO_DESTS[rcv]=10.0.0.0/16,10.8.0.0/16
}

# Host i of the fabric: 10.L.i.1 where L is its leaf (1 or 2).
topo_fabric_addr() {	# I HOSTS
	local half=$(($2 / 2))
	if [ "$1" -le $half ]; then echo "10.1.$1.1"; else echo "10.2.$1.1"; fi
}

topo_fabric() {	# HOSTS SPINES RATE_MBIT BUF_PKTS DELAY...
	local hosts=$1 spines=$2 rate=$3 buf=$4 i k leaf addr pfx d gws1=() gws2=()
	shift 4
	local delays=("$@")
	router_ns l1 l2 || return 1
	for k in $(seq "$spines"); do router_ns "sp$k" || return 1; done
	for i in $(seq "$hosts"); do
		addr=$(topo_fabric_addr "$i" "$hosts")
		leaf=l${addr:3:1}
		pfx=${addr%.1}
		ns_add "h$i" || return 1
		uplink "h$i" "vh$i" "$addr/24" "$leaf" "p$i" "$pfx.254/24" || return 1
		# The host's NIC and the leaf's port towards it: the access link.
		link_shaped "h$i" "vh$i" rate "${rate}mbit" limit "$buf" || return 1
		link_shaped "$leaf" "p$i" rate "${rate}mbit" limit "$buf" || return 1
		_topo_host "h$i" 10.1.0.0/16,10.2.0.0/16 "$(topo_pull_for "$rate")"
	done
	for k in $(seq "$spines"); do
		d=${delays[k - 1]:-${delays[0]:-}}
		for leaf in 1 2; do
			veth "l$leaf" "u$k" "10.10$leaf.$k.1/24" "sp$k" "d$leaf" "10.10$leaf.$k.2/24" ||
				return 1
			link_shaped "l$leaf" "u$k" rate "${rate}mbit" limit "$buf" ${d:+delay "$d"} ||
				return 1
			link_shaped "sp$k" "d$leaf" rate "${rate}mbit" limit "$buf" ${d:+delay "$d"} ||
				return 1
			ip -n "sp$k" route add "10.$leaf.0.0/16" via "10.10$leaf.$k.1" || return 1
		done
		gws1+=("10.101.$k.2") gws2+=("10.102.$k.2")
	done
	# ECMP on the 5-tuple (policy 1): flows hash to a spine each, EQDS's
	# per-packet outer source port sprays.
	for leaf in l1 l2; do
		ip netns exec $leaf sysctl -qw net.ipv4.fib_multipath_hash_policy=1
	done
	multipath_route l1 10.2.0.0/16 "${gws1[@]}" || return 1
	multipath_route l2 10.1.0.0/16 "${gws2[@]}" || return 1
}

# topo_fabric_spine_bytes: bytes each spine forwarded so far (both
# directions' downlinks), one figure per spine: how evenly the paths are used.
topo_fabric_spine_bytes() {
	local k out=()
	for k in $(seq "$1"); do
		out+=($(($(if_stat "sp$k" d1 tx_bytes) + $(if_stat "sp$k" d2 tx_bytes))))
	done
	echo "${out[@]}"
}

topo_reset() {
	ns_del_all
	TOPO_HOSTS=()
	TOPO_DESTS=()
	TOPO_PULL=()
}
