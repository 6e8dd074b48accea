#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A check of the emulator, not of eqds (which it does not load): does the
# guest survive the kernel patching its own text while TCP runs? Static keys
# (here: trace events, whose keys sit in __dev_queue_xmit, __schedule and
# the TCP paths) are flipped in a loop for SECS seconds while iperf3 runs
# over veth between two namespaces. Every module load, netfilter hook,
# tracepoint and kprobe of the selftests does the same, a few times each.
#
#   selftests/vm/run-vm.sh -k 6.12 -- selftests/vm/textpoke.sh [SECS]
#
# Under QEMU 7.2's multi-threaded TCG a vCPU can run a stale translation of
# the int3 that text_poke_bp() puts over a site while it patches it, after
# the patch is done: without tcg_int3.ko (EQDS_VM_TCG_INT3=0) the 6.12 guest
# dies of "Oops: int3" within seconds; 6.1, whose kprobes back up over the
# stale int3 themselves, hangs, as it did with a tcg_int3.ko that had only
# its die notifier (Documentation/testing.rst, "Acceleration and timing").
set -u
secs=${1:-120}
T=/sys/kernel/tracing
mountpoint -q $T || mount -t tracefs nodev $T
ip netns add tp-a
ip netns add tp-b
ip link add va netns tp-a type veth peer name vb netns tp-b
ip -n tp-a addr add 10.99.0.1/24 dev va
ip -n tp-b addr add 10.99.0.2/24 dev vb
for n in "tp-a va" "tp-b vb"; do
	ip -n "${n% *}" link set lo up
	ip -n "${n% *}" link set "${n#* }" up
done
ip netns exec tp-b iperf3 -s -D -1
sleep 1
ip netns exec tp-a iperf3 -c 10.99.0.2 -t "$secs" -P 2 > /tmp/textpoke.iperf 2>&1 &
events=(sched/sched_switch net/net_dev_queue net/netif_receive_skb skb/kfree_skb
	tcp/tcp_probe sock/inet_sock_set_state)
end=$((SECONDS + secs)) flips=0
while [ $SECONDS -lt $end ]; do
	for e in "${events[@]}"; do
		echo 1 > $T/events/$e/enable
		echo 0 > $T/events/$e/enable
		flips=$((flips + 2))
	done
done
wait
ti=/sys/module/tcg_int3/parameters/recovered
[ -r $ti ] && echo "tcg_int3: $(cat $ti) stale int3 traps absorbed"
grep -E 'receiver$' /tmp/textpoke.iperf | tail -1
if dmesg | grep -E 'BUG|Oops|WARNING:|soft lockup|rcu.*stall'; then
	echo "not ok 1 static keys flipped $flips times in ${secs}s under TCP: kernel reports"
	exit 1
fi
echo "ok 1 static keys flipped $flips times in ${secs}s under TCP, kernel log clean"
