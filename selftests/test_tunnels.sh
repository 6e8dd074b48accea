#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Per-tunnel state over netlink (EQDS_CMD_GET_TUNNEL), eqdsctl tunnel and
# monitor, and the tracepoints:
#  - after traffic, both sides of both hosts' tunnels are listed, and their
#    counters match the traffic (the only peer's tunnel counts what the
#    namespace counts);
#  - "tunnel show" of an unknown peer fails with a clear message;
#  - monitor sees tunnels created, restarted and reaped;
#  - the tracepoints fire;
#  - a dump of ~20,000 receiving tunnels (spoofed SYNs from a prefix the
#    receiver accepts, selftests/tools/eqds_tunnels.py; half open, kept by
#    the half_open_ms module parameter) has each exactly once, also while
#    they are being created.
source "$(dirname "$0")/lib.sh"
TRACING=/sys/kernel/tracing
NTUNNELS=${EQDS_TUNNELS_COUNT:-20000}
mon_pids=()
cleanup() {
	[ ${#mon_pids[@]} -gt 0 ] && kill "${mon_pids[@]}" 2> /dev/null
	[ -d $TRACING/events/eqds ] && echo 0 > $TRACING/events/eqds/enable
	ns_del_all
	rm -f /tmp/tun.*.$$
}
trap cleanup EXIT

check "load eqds (new receiving tunnels unlimited in rate, half-open ones kept)" \
	eqds_load tunnel_rate=1000000 half_open_ms=600000
two_hosts || { fail "two hosts"; exit 1; }
# No tunnel goes away until the test says so.
ctl h1 set idle-timeout 600000
ctl h2 set idle-timeout 600000

# ---- tracepoints on, monitors listening, then traffic ----
mountpoint -q $TRACING || mount -t tracefs nodev $TRACING 2> /dev/null
if [ -d $TRACING/events/eqds ]; then
	echo > $TRACING/trace
	echo 1 > $TRACING/events/eqds/enable
fi
ctl h1 monitor > /tmp/tun.mon1.$$ 2>&1 &
mon_pids+=($!)
ctl h1 -j monitor > /tmp/tun.monj.$$ 2>&1 &
mon_pids+=($!)
sleep 0.3

xfer "h1 -> h2 over IPv4" h2 10.0.1.2 h1 $((2 << 20))
ip netns exec h1 ping -6 -c 3 -i 0.2 -q fd00:1::2 > /dev/null
list1=$(ctl h1 -j tunnel list)
list2=$(ctl h2 -j tunnel list)
echo "h1 tunnels: $list1"
echo "h2 tunnels: $list2"

# sides KEY: "dir peer" of each tunnel, sorted.
sides() {
	json_get "$1" "' '.join(sorted(t['dir'] + '/' + t['peer'] for t in j))"
}
expect_eq "h1 has both sides with h2, IPv4 and IPv6" \
	"rx/10.0.1.2 rx/fd00:1::2 tx/10.0.1.2 tx/fd00:1::2" "$(sides "$list1")"
expect_eq "h2 has both sides with h1, IPv4 and IPv6" \
	"rx/10.0.1.1 rx/fd00:1::1 tx/10.0.1.1 tx/fd00:1::1" "$(sides "$list2")"

# tsum JSON DIR FIELD: a counter summed over one side's tunnels.
tsum() {
	json_get "$1" "sum(t['stats']['$3'] for t in j if t['dir'] == '$2')"
}
expect_eq "h1 tx tunnels' packets add up to h1's tx_packets" \
	"$(stat h1 tx_packets)" "$(tsum "$list1" tx packets)"
expect_eq "h1 tx tunnels' bytes add up to h1's tx_bytes" \
	"$(stat h1 tx_bytes)" "$(tsum "$list1" tx bytes)"
expect_eq "h2 rx tunnels' packets add up to h2's rx_packets" \
	"$(stat h2 rx_packets)" "$(tsum "$list2" rx packets)"
expect_eq "h2 rx tunnels' bytes add up to h2's rx_bytes" \
	"$(stat h2 rx_bytes)" "$(tsum "$list2" rx bytes)"
expect_eq "h2 rx tunnels' pulls add up to h2's pulls_sent" \
	"$(stat h2 pulls_sent)" "$(tsum "$list2" rx pulls)"
expect_eq "h1 tx tunnels' pulls add up to h1's pulls_rcvd" \
	"$(stat h1 pulls_rcvd)" "$(tsum "$list1" tx pulls)"
by=$(json_get "$list1" "[t['stats']['bytes'] for t in j if t['dir'] == 'tx' and t['peer'] == '10.0.1.2'][0]")
[ "$by" -gt $((2 << 20)) ] && ok "h1's IPv4 tunnel sent the transfer's bytes ($by)" ||
	fail "h1's IPv4 tunnel sent the transfer's bytes" "$by"
expect_eq "h1's tx tunnels are confirmed" "confirmed confirmed" \
	"$(json_get "$list1" "' '.join(t['state'] for t in j if t['dir'] == 'tx')")"
out=$(ctl h1 -s tunnel show 10.0.1.2)
echo "$out"
grep -qE '^tx 10\.0\.1\.2 id [0-9]+ epoch [0-9]+ confirmed' <<< "$out" &&
	grep -qE '^rx 10\.0\.1\.2 id [0-9]+ epoch [0-9]+ (half-)?open' <<< "$out" &&
	grep -qE '^    packets [0-9]+  bytes [0-9]+  retransmits' <<< "$out" &&
	ok "tunnel show -s: both sides with counters" ||
	fail "tunnel show -s: both sides with counters" "$out"
expect_eq "tunnel show PEER tx: the sending side only" "tx/10.0.1.2" \
	"$(sides "$(ctl h1 -j tunnel show 10.0.1.2 tx)")"
expect_eq "tunnel list rx: the receiving sides only" "rx/10.0.1.2 rx/fd00:1::2" \
	"$(sides "$(ctl h1 -j tunnel list rx)")"

# ---- errors ----
check_fails "tunnel show of an unknown peer fails clearly" \
	"^eqdsctl: tunnel show: no tunnel to or from 10\.0\.1\.99 " ctl h1 tunnel show 10.0.1.99
check_fails "tunnel show of a prefix fails clearly" "is a prefix; a peer is one address" \
	ctl h1 tunnel show 10.0.1.0/24
check_fails "tunnel list with a bad side fails clearly" "'up' is not tx or rx" \
	ctl h1 tunnel list up

# raw DESC ERRNO MSG CMD ATTR...: a hand-built request gets errno and extack MSG.
raw() {
	local desc=$1 want="errno=$2 msg=$3" r
	shift 3
	r=$(ip netns exec h1 python3 "$TOP/selftests/tools/genl_raw.py" "$@" 2>&1)
	expect_eq "raw netlink: $desc" "$want" "$r"
}
T=EQDS_A_TUNNEL F=EQDS_TUNNEL_A_FAMILY:u16:2 P=EQDS_TUNNEL_A_PEER:hex:0a000102
raw "GET_TUNNEL without a tunnel" 22 "which tunnel? EQDS_A_TUNNEL naming a peer needed" \
	EQDS_CMD_GET_TUNNEL
raw "GET_TUNNEL with a 3-byte peer" 34 "binary attribute size out of range" \
	EQDS_CMD_GET_TUNNEL "$T:nest:($F,EQDS_TUNNEL_A_PEER:hex:0a0001)"
raw "GET_TUNNEL with a 5-byte IPv4 peer" 22 "address must be 4 bytes for AF_INET or 16 for AF_INET6" \
	EQDS_CMD_GET_TUNNEL "$T:nest:($F,EQDS_TUNNEL_A_PEER:hex:0a00010200)"
raw "GET_TUNNEL without the peer's address" 22 "a host needs its address family and address" \
	EQDS_CMD_GET_TUNNEL "$T:nest:($F)"
raw "GET_TUNNEL with direction 3" 34 "integer out of range" \
	EQDS_CMD_GET_TUNNEL "$T:nest:($F,$P,EQDS_TUNNEL_A_DIR:u8:3)"
raw "GET_TUNNEL with a read-only tunnel attribute" 22 "Unsupported attribute" \
	EQDS_CMD_GET_TUNNEL "$T:nest:($F,$P,EQDS_TUNNEL_A_EPOCH:u32:1)"
raw "GET_TUNNEL of the peer: found" 0 "" EQDS_CMD_GET_TUNNEL "$T:nest:($F,$P)"
raw "SET_INSTANCE with a tunnel" 22 "tunnels are not configured: they come and go with traffic" \
	EQDS_CMD_SET_INSTANCE "$T:nest:(EQDS_TUNNEL_A_DIR:u8:1)"

# ---- loss and reordering: NACKs and retransmissions, counted per tunnel ----
# MTU-sized packets (no GSO), half of them held back 4 ms: holes that the
# receiver NACKs, and held packets it releases when they fill.
ip netns exec h1 ethtool -K v1 gso off tso off > /dev/null 2>&1
ip netns exec h1 tc qdisc add dev v1 root netem loss 2% delay 4ms reorder 50%
xfer "h1 -> h2 with 2% loss and reordering" h2 10.0.1.2 h1 $((1 << 20))
ip netns exec h1 tc qdisc del dev v1 root
ip netns exec h1 ethtool -K v1 gso on tso on > /dev/null 2>&1
list1=$(ctl h1 -j tunnel list)
expect_eq "h1 tx tunnels' retransmits add up to h1's retransmits" \
	"$(stat h1 retransmits)" "$(tsum "$list1" tx retransmits)"
expect_eq "h1 tx tunnels' NACKs add up to h1's nacks_rcvd" \
	"$(stat h1 nacks_rcvd)" "$(tsum "$list1" tx nacks)"

# ---- restart and reaping, seen by monitor ----
# h2 forgets its receiving tunnels first; h1's next packet without SYN
# gets an RST and h1's tunnel restarts with a new epoch.
ctl h2 set idle-timeout 200
sleep 1.5
ip netns exec h1 ping -c 1 -W 2 10.0.1.2 > /dev/null
ctl h1 set idle-timeout 200
ctl h2 set idle-timeout 200
for _ in $(seq 50); do
	[ "$(stat h1 tunnels)" = 0 ] && [ "$(stat h2 tunnels)" = 0 ] && break
	sleep 0.1
done
sleep 0.3
kill "${mon_pids[@]}" 2> /dev/null
wait "${mon_pids[@]}" 2> /dev/null
mon_pids=()
echo "monitor (h1):"
sed 's/^/  /' /tmp/tun.mon1.$$ | head -20
for ev in "new tx 10.0.1.2" "new rx 10.0.1.2" "restart tx 10.0.1.2" "del tx 10.0.1.2" \
	"del rx 10.0.1.2"; do
	grep -q "^$ev id [0-9]* epoch [0-9]*" /tmp/tun.mon1.$$ &&
		ok "monitor: $ev" || fail "monitor: $ev" "not in $(tr '\n' ';' < /tmp/tun.mon1.$$)"
done
grep -qE '^del tx 10\.0\.1\.2 id [0-9]+ epoch [0-9]+ reason idle$' /tmp/tun.mon1.$$ &&
	ok "monitor: removal says why (idle)" || fail "monitor: removal says why (idle)"
python3 - /tmp/tun.monj.$$ /tmp/tun.mon1.$$ << 'EOF' && ok "monitor -j: one JSON object per event, as the text" ||
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
text = open(sys.argv[2]).read().splitlines()
assert len(ev) == len(text), (len(ev), len(text))
for e, t in zip(ev, text):
    assert list(e)[:5] == ["event", "dir", "id", "peer", "epoch"], e
    assert t.startswith("%s %s %s id %d epoch %d" % (e["event"], e["dir"], e["peer"], e["id"], e["epoch"])), (e, t)
    assert ("reason" in e) == (e["event"] == "del"), e
EOF
	fail "monitor -j: one JSON object per event, as the text"

# ---- tracepoints ----
if [ -d $TRACING/events/eqds ]; then
	echo 0 > $TRACING/events/eqds/enable
	for ev in eqds_tunnel_new eqds_tunnel_del eqds_tunnel_restart eqds_pull eqds_nack \
		eqds_retransmit eqds_reorder_release eqds_drop; do
		n=$(grep -c " $ev: " $TRACING/trace)
		[ "$n" -gt 0 ] && ok "tracepoint $ev fired ($n)" || fail "tracepoint $ev fired"
	done
	grep -m1 " eqds_tunnel_del: " $TRACING/trace
	grep -m1 " eqds_pull: " $TRACING/trace
	echo > $TRACING/trace
else
	skip "tracepoints" "no tracefs with eqds events"
fi

# ---- BTF: the module's types, for BPF programs and bpftool ----
if [ ! -d /sys/kernel/btf ]; then
	skip "module BTF" "kernel without /sys/kernel/btf"
elif ! readelf -S "$EQDS_KO" 2> /dev/null | grep -q ' \.BTF '; then
	skip "module BTF" "eqds.ko built without BTF (no pahole or no vmlinux BTF at build time)"
elif bpftool btf dump file /sys/kernel/btf/eqds format c 2> /dev/null |
	grep -q '^struct eqds_tunnel_counters {'; then
	ok "bpftool btf dump file /sys/kernel/btf/eqds shows the module's types"
else
	fail "bpftool btf dump file /sys/kernel/btf/eqds shows the module's types" \
		"$(ls /sys/kernel/btf | head -5; dmesg | grep -i btf | tail -3)"
fi

# ---- a dump of many tunnels ----
ns_add m
veth m e0 10.3.0.2/24 h2 e2 10.3.0.1/24
ip -n m route add 10.0.1.2/32 via 10.3.0.1
ip -n h2 route add 10.2.0.0/16 via 10.3.0.2
ctl h2 set dests 10.0.1.1/32,10.2.0.0/16 idle-timeout 600000
t0=$(date +%s.%N)
ip netns exec m python3 "$TOP/selftests/tools/eqds_tunnels.py" --dst 10.0.1.2 \
	--peers 10.2.0.0/16 --count "$NTUNNELS" > /tmp/tun.gen.$$ &
gpid=$!
# Dumps while tunnels are being created: never one twice.
during=0 dups=0
while kill -0 $gpid 2> /dev/null; do
	ctl h2 -j tunnel list rx > /tmp/tun.during.$$ || break
	d=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); p=[t["peer"] for t in j]; print(len(p) - len(set(p)))' /tmp/tun.during.$$)
	dups=$((dups + d)) during=$((during + 1))
done
wait $gpid
gen=$(cat /tmp/tun.gen.$$)
echo "generator: $gen; $during dumps while it ran"
expect_eq "dumps during creation returned no tunnel twice ($during dumps)" 0 "$dups"
t1=$(date +%s.%N)
ctl h2 -j tunnel list rx > /tmp/tun.all.$$
t2=$(date +%s.%N)
echo "h2: $(stat h2 tunnels) tunnels; created in $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}')s," \
	"dumped in $(awk -v a="$t1" -v b="$t2" 'BEGIN{printf "%.2f", b-a}')s; $(eqds_stats h2)"
python3 - /tmp/tun.all.$$ "$gen" << 'EOF' && ok "a dump of $NTUNNELS receiving tunnels has each exactly once" ||
import ipaddress, json, sys
j = json.load(open(sys.argv[1]))
g = json.loads(sys.argv[2])
first, n = ipaddress.ip_address(g["first"]), g["count"]
want = {str(first + i) for i in range(n)}
peers = [t["peer"] for t in j if t["peer"] in want]
ids = [t["id"] for t in j]
assert len(peers) == len(set(peers)), "%d repeated" % (len(peers) - len(set(peers)))
assert set(peers) == want, "%d missing, e.g. %s" % (len(want - set(peers)), sorted(want - set(peers))[:3])
assert len(ids) == len(set(ids)), "IDs repeated"
assert ids == sorted(ids), "not in ID order"
assert all(t["state"] == "half-open" for t in j if t["peer"] in want), "not all half open"
EOF
	fail "a dump of $NTUNNELS receiving tunnels has each exactly once"
expect_eq "the dump has as many tunnels as the namespace counts" "$(stat h2 tunnels)" \
	"$(($(grep -o '"dir":"rx"' /tmp/tun.all.$$ | wc -l) + $(ctl h2 -j tunnel list tx | grep -o '"dir":"tx"' | wc -l)))"
