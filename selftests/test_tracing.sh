#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The tracepoints as the tools outside tracefs read them
# (Documentation/eqds.rst, Tracing; Documentation/counters.rst, drop reasons):
#  - bpftrace attaches to eqds:eqds_drop and skb:kfree_skb. For three known
#    drops (a malformed datagram to the EQDS port, a well-formed one from a
#    host that is not a peer, a local socket's datagram to the EQDS port)
#    eqds_drop reads the reason, the netns and the peer, and the kernel's
#    kfree_skb event frees the same skb (skbaddr) with the generic reason of
#    the counters.rst table, not NOT_SPECIFIED;
#  - perf script decodes the enum fields of eqds events (eqds_drop's
#    reason, eqds_tunnel_new's direction and reason) as names, and the
#    events that carry a tunnel id carry its netns.
source "$(dirname "$0")/lib.sh"
TRACING=/sys/kernel/tracing
out=/tmp/tracing.$$
bt_pid=''
cleanup() {
	[ -n "$bt_pid" ] && kill "$bt_pid" 2> /dev/null
	wait 2> /dev/null
	ns_del_all
	rm -rf $out
}
trap cleanup EXIT
mkdir -p $out

check "load eqds" eqds_load
two_hosts || { fail "two hosts"; exit 1; }
mountpoint -q $TRACING || mount -t tracefs nodev $TRACING 2> /dev/null
for tool in bpftrace perf; do
	command -v $tool > /dev/null || { fail "$tool installed (make deps)"; exit 1; }
done
h1ns=$(ip netns exec h1 readlink /proc/self/ns/net | tr -dc 0-9)
h2ns=$(ip netns exec h2 readlink /proc/self/ns/net | tr -dc 0-9)

# send NS ADDR HEX: one UDP datagram of those bytes to ADDR, port 6666 (a
# datagram dropped on its way out fails with EPERM: that is no error here).
send() {
	ip netns exec "$1" python3 -c 'import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
try:
    s.sendto(bytes.fromhex(sys.argv[2]), (sys.argv[1], 6666))
except PermissionError:
    pass' "$2" "$3"
}

# Documentation/eqds.rst's program, as it is there: every eqds drop is
# remembered by its skb, so the skb's free is printed too (and no other:
# skb:kfree_skb fires for every packet the kernel drops); drops counted by
# reason and peer.
cat > $out/drops.bt << 'EOF'
tracepoint:eqds:eqds_drop
{
	@[args->reason, ntop(args->peer)] = count();
	@skbs[args->skbaddr] = 1;
	printf("eqds_drop netns=%u reason=%d peer=%s skbaddr=%lx\n",
	       args->netns, args->reason, ntop(args->peer), (uint64)args->skbaddr);
}
tracepoint:skb:kfree_skb /@skbs[args->skbaddr]/
{
	delete(@skbs[args->skbaddr]);
	printf("kfree_skb reason=%d skbaddr=%lx\n", args->reason, (uint64)args->skbaddr);
}
END { clear(@skbs); }
EOF

bpftrace $out/drops.bt > $out/bt.log 2>&1 &
bt_pid=$!
t0=$(date +%s)
# bpftrace compiles its program first: slow under emulation.
for i in $(seq 900); do
	grep -q '^Attaching' $out/bt.log && break
	kill -0 $bt_pid 2> /dev/null || break
	sleep 0.1
done
if grep -q '^Attaching' $out/bt.log; then
	ok "bpftrace attaches to eqds:eqds_drop and skb:kfree_skb"
else
	fail "bpftrace attaches to eqds:eqds_drop and skb:kfree_skb" "$(head -c 1500 $out/bt.log)"
fi
echo "bpftrace attached in $(($(date +%s) - t0)) s"
sleep 0.5

workload() {
	# Tunnels both ways, and pulls: events with a direction and a tunnel id.
	ip netns exec h1 ping -c 3 -i 0.2 -q 10.0.1.2 > /dev/null
	# 1. h2 to its own address: a datagram too short for an EQDS header.
	send h2 10.0.1.2 00
	# 2. h2 to its own address: an RTS, well formed, but h2 is not h2's peer.
	send h2 10.0.1.2 11100000000000010000000000000000
	# 3. h1's local socket to the EQDS port of its destination.
	send h1 10.0.1.2 00
	sleep 1
}
# perf runs the workload itself: it starts it only once its events are
# enabled, where a perf record started in the background may not yet be.
export -f send workload
perf record -e 'eqds:*' -a -o $out/perf.data -- bash -c workload > $out/perf.log 2>&1

kill -INT $bt_pid 2> /dev/null	# gone already if it failed to attach
wait $bt_pid
bt_pid=''
echo "traced; tools stopped after $(($(date +%s) - t0)) s"
cat $out/bt.log

# ---- bpftrace: reasons, peers, netns, the same skb in both events ----
# Numbers to names from the events' own formats, as tools decode them.
python3 - $out/bt.log $TRACING/events/eqds/eqds_drop/format \
	$TRACING/events/skb/kfree_skb/format "$h1ns" "$h2ns" > $out/bt.res << 'EOF'
import re, sys
log, eqds_fmt, skb_fmt, h1ns, h2ns = sys.argv[1:]

def names(path):
    fmt = open(path).read().split("print fmt:")[1]
    return {int(v, 0): n for v, n in re.findall(r'\{\s*(-?(?:0x)?[0-9a-fA-F]+),\s*"([^"]+)"\s*\}', fmt)}

eqds, skb = names(eqds_fmt), names(skb_fmt)
# A drop's free follows its eqds_drop (an address may serve again later).
drops = []
text = open(log).read()
for line in text.splitlines():
    f = dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)
    if line.startswith("eqds_drop "):
        drops.append(f)
    elif line.startswith("kfree_skb "):
        for d in reversed(drops):
            if d["skbaddr"] == f["skbaddr"]:
                d.setdefault("free", skb.get(int(f["reason"]), f["reason"]))
                break
want = [(h2ns, "decode", "::ffff:10.0.1.2", "INVALID_PROTO"),
        (h2ns, "peer", "::ffff:10.0.1.2", "SOCKET_FILTER"),
        (h1ns, "local_port", "::", "NETFILTER_DROP")]
for ns, reason, peer, generic in want:
    got = [d for d in drops if eqds.get(int(d["reason"])) == reason]
    print("%s %s" % ("ok" if len(got) == 1 else "fail",
                     "bpftrace: one eqds_drop reason=%s (%d)" % (reason, len(got))))
    if len(got) != 1:
        continue
    d = got[0]
    print("%s bpftrace: eqds_drop reason=%s in netns %s from %s (netns %s, peer %s)" %
          ("ok" if (d["netns"], d["peer"]) == (ns, peer) else "fail", reason, ns, peer,
           d["netns"], d["peer"]))
    free = d.get("free")
    print("%s bpftrace: skb:kfree_skb frees skbaddr %s with reason %s (%s)" %
          ("ok" if free == generic else "fail", d["skbaddr"], generic, free))
    n = re.findall(r'^@\[%s, %s\]: (\d+)$' % (d["reason"], re.escape(peer)), text, re.M)
    print("%s bpftrace: @[reason, peer] counts one drop of reason=%s from %s (%s)" %
          ("ok" if n == ["1"] else "fail", reason, peer, n))
EOF
while read -r res desc; do
	[ "$res" = ok ] && ok "$desc" || fail "$desc"
done < $out/bt.res
[ -s $out/bt.res ] || fail "bpftrace's events read"

# ---- perf: enum fields decoded, netns in every event with a tunnel id ----
perf script -i $out/perf.data > $out/perf.txt 2> $out/perf.err
echo "perf script done after $(($(date +%s) - t0)) s"
head -c 1000 $out/perf.log $out/perf.err
[ -s $out/perf.txt ] || fail "perf record and perf script" "no events"
grep -m3 eqds_drop $out/perf.txt
grep -m2 eqds_tunnel_new $out/perf.txt
grep -m1 eqds_pull $out/perf.txt
for r in decode peer local_port; do
	grep -qE "eqds_drop: netns=[0-9]+ reason=$r peer=" $out/perf.txt &&
		ok "perf script: eqds_drop reason=$r by name" ||
		fail "perf script: eqds_drop reason=$r by name" "$(grep -m3 eqds_drop $out/perf.txt)"
done
grep -qE "eqds_tunnel_new: netns=$h1ns tx id=[0-9]+ peer=::ffff:10\.0\.1\.2 epoch=[0-9]+ reason=-" \
	$out/perf.txt &&
	ok "perf script: eqds_tunnel_new's direction and reason by name" ||
	fail "perf script: eqds_tunnel_new's direction and reason by name" \
		"$(grep -m2 eqds_tunnel_new $out/perf.txt)"
grep -qE "eqds_pull: netns=$h2ns id=" $out/perf.txt &&
	ok "perf script: eqds_pull carries the netns" ||
	fail "perf script: eqds_pull carries the netns" "$(grep -m1 eqds_pull $out/perf.txt)"
grep -q "FAILED TO PARSE" $out/perf.txt $out/perf.err &&
	fail "perf script: every eqds event parsed" "$(grep -m3 'FAILED TO PARSE' $out/perf.txt $out/perf.err)" ||
	ok "perf script: every eqds event parsed"
