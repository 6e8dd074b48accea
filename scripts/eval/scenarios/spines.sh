#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario 7, a bad spine (issue 17; not in the paper): the permutation's
# fabric and traffic (perm.sh), with every queue towards a spine and
# towards a leaf marking CE above 1 ms (fq_codel under the tbf) and
# ECN-capable TCP on the hosts. "slow": spine 4 at a fifth of the link
# rate, both ways, for the whole run. "failed": spine 2 drops everything
# it would forward from a second before the measurement on (routes
# unchanged, as before a routing protocol reacts). Native flows stay on
# the spine their 5-tuple hashes to; EQDS sprays and skips the path ids
# whose packets come back marked or are lost (path choice, on by default).
source "$here/scenarios/perm.sh"
SPINES_SLOW=4
SPINES_DOWN=2

scenario_spines_runs() { echo 4; }

# spines_queue NS DEV RATE_MBIT DELAY: a spine link's queue, marking CE.
spines_queue() {
	link_shaped "$1" "$2" rate "$3mbit" limit "$PERM_BUF" ${4:+delay "$4"} || return 1
	ip netns exec "$1" tc qdisc add dev "$2" parent 20:1 handle 30: fq_codel ce_threshold 1ms
}

# spines_setup FAULT: the fabric, its queues marking, the slow spine slow.
spines_setup() {
	local k leaf rate d h delays
	# shellcheck disable=SC2086 # one delay per spine
	topo_fabric $PERM_HOSTS $PERM_SPINES "$EVAL_FABRIC_MBIT" "$PERM_BUF" $EVAL_SPINE_DELAYS ||
		return 1
	read -ra delays <<< "$EVAL_SPINE_DELAYS"
	for k in $(seq $PERM_SPINES); do
		rate=$EVAL_FABRIC_MBIT
		[ "$1" = slow ] && [ "$k" = $SPINES_SLOW ] && rate=$((EVAL_FABRIC_MBIT / 5))
		d=${delays[k - 1]:-${delays[0]:-}}
		for leaf in 1 2; do
			spines_queue "l$leaf" "u$k" "$rate" "$d" || return 1
			spines_queue "sp$k" "d$leaf" "$rate" "$d" || return 1
		done
	done
	for h in $(seq $PERM_HOSTS); do ip netns exec "h$h" sysctl -qw net.ipv4.tcp_ecn=1; done
}

spines_fail() {
	ip netns exec "sp$SPINES_DOWN" nft -f - <<-EOF
	table inet failed {
		chain forward_drop {
			type filter hook forward priority 0;
			counter drop
		}
	}
	EOF
}

scenario_spines() {
	local fault mode what i=0 seed=$((EVAL_SEED * 100 + 1))
	for fault in slow failed; do
		what="spine $SPINES_SLOW at 1/5 rate"
		[ $fault = failed ] && what="spine $SPINES_DOWN failed"
		spines_setup "$fault" || { eval_log "spines: topology failed"; return 1; }
		for mode in native eqds; do
			i=$((i + 1))
			eval_step spines $i 4 "$PERM_HOSTS hosts, $PERM_SPINES spines, $what, $mode"
			[ $fault = failed ] && PERM_HOOK=spines_fail
			PERM_SCENARIO=spines PERM_FIELDS="fault=$fault" perm_run "$mode" "$seed"
			PERM_HOOK=
			ip netns exec "sp$SPINES_DOWN" nft delete table inet failed 2> /dev/null
		done
		topo_reset
	done
}
