#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A narrated tour of eqds for a newcomer, about two minutes under emulation.
# Runs as root in a throwaway machine (`make demo` boots the test VM and runs
# it there): it loads kmod/eqds.ko, builds five hosts as network namespaces
# around a switch namespace, and shows an incast (three senders into one
# receiver behind a 100 Mbit/s port) natively and then over EQDS.
#
# Exit status: 0 when everything essential worked (module load, topology,
# configuration, ping over EQDS, data over EQDS); 1 otherwise.
#
# Environment: EQDS_DEMO_SECS (incast length, default 5), EQDS_DEMO_MBIT
# (the shaped port, default 100).
source "$(dirname "$0")/../selftests/lib.sh"

SECS=${EQDS_DEMO_SECS:-5}
MBIT=${EQDS_DEMO_MBIT:-100}
PULL=$((MBIT * 95 / 100))	# leave room for Ethernet headers and timer slack
SENDERS=(a b c)
R=10.0.0.100			# the receiver
P=10.0.0.9			# the latency probe
TMP=$(mktemp -d /tmp/eqds-demo.XXXXXX)
PATH=$(dirname "$EQDSCTL"):$PATH	# so that commands read "eqdsctl ..."
T0=$(date +%s)
essential_failed=0
PY=python3

# ---- presentation ----

if [ -t 1 ]; then B=$'\e[1m' D=$'\e[2m' G=$'\e[32m' RED=$'\e[31m' N=$'\e[0m'; else B='' D='' G='' RED='' N=''; fi
_step=0
step() {
	_step=$((_step + 1))
	printf '\n%s== %d. %s %s\n' "$B" "$_step" "$*" "$N"
}
say() { fold -s -w 78 <<< "$*" | sed 's/^/   /'; }
# show HOST CMD...: print the command as typed on HOST, run it (with a
# timeout), indent its output. HOST "-" is the VM itself.
show() {
	local host=$1 rc
	shift
	printf '   %s%s#%s %s\n' "$D" "$host" "$N" "$*"
	if [ "$host" = - ]; then
		timeout 20 "$@" 2>&1
	else
		timeout 20 ip netns exec "$host" "$@" 2>&1
	fi | sed 's/^/     /'
	rc=${PIPESTATUS[0]}
	return "$rc"
}
good() { printf '   %sok%s %s\n' "$G" "$N" "$*"; }
bad() { printf '   %sFAILED%s %s\n' "$RED" "$N" "$*"; }
essential() {	# DESCRIPTION CMD...: a step the demo cannot do without
	local d=$1
	shift
	if "$@"; then
		return 0
	fi
	bad "$d"
	essential_failed=1
	return 1
}

cleanup() {
	ns_del_all
	eqds_unload 2> /dev/null
	# EQDS_DEMO_KEEP=1: keep the raw results (iperf3 JSON, pings, capture)
	if [ -n "${EQDS_DEMO_KEEP:-}" ] && [ -d /run/vm/out ]; then
		cp -r "$TMP" /run/vm/out/demo
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT

on() { local n=$1; shift; timeout 30 ip netns exec "$n" "$@"; }

# ---- 1. the module ----

step "Load the module"
deps=$(modinfo -F depends "$EQDS_KO" 2> /dev/null | tr , ' ')
say "eqds is one kernel module. It uses kernel helpers from other modules \
(${deps:-none}), so those load first: insmod, unlike modprobe, does not \
resolve dependencies."
# shellcheck disable=SC2086
[ -n "$deps" ] && show - modprobe -a $deps
if ! essential "insmod eqds.ko" show - insmod "$EQDS_KO"; then
	exit 1
fi
printf '   %s-#%s lsmod | grep -E "^(eqds|udp_tunnel)"\n' "$D" "$N"
lsmod | grep -E '^(eqds|udp_tunnel) ' | sed 's/^/     /'
say "Every network namespace now has its own EQDS instance, configured with \
eqdsctl. Nothing is captured until a namespace names its EQDS destinations."

# ---- 2. the network ----

step "Build the network"
cat << EOF
   One namespace per host, a Linux bridge in namespace "sw" as the switch.
   The switch's port towards the receiver r is shaped to $MBIT Mbit/s with a
   100-packet buffer (tbf), like a datacenter top-of-rack port.

       a 10.0.0.1 ---.
       b 10.0.0.2 ----+== sw ==[ $MBIT Mbit/s, 100 pkts ]==> r 10.0.0.100
       c 10.0.0.3 ---'|
       p 10.0.0.9 ----'   (p only pings r: a latency probe)
EOF
build() {
	local h i=0 ip
	ns_add sw a b c p r || return 1
	ip -n sw link add br0 type bridge || return 1
	ip -n sw link set br0 up
	for h in a b c p r; do
		case $h in a) ip=10.0.0.1 ;; b) ip=10.0.0.2 ;; c) ip=10.0.0.3 ;;
		p) ip=$P ;; r) ip=$R ;; esac
		ip link add eth0 netns "$h" type veth peer name "sw-$h" netns sw || return 1
		ip -n "$h" addr add "$ip/24" dev eth0
		ip -n "$h" link set eth0 up
		ip -n sw link set "sw-$h" master br0 up
		i=$((i + 1))
	done
	# 100 packets of 1514 bytes. The 60 kB bucket is for the emulator's
	# timer slack: with less, tbf cannot keep the port busy under TCG.
	ip netns exec sw tc qdisc add dev sw-r root tbf rate "${MBIT}mbit" burst 60000 \
		limit 151400 || return 1
}
essential "build the namespaces" build || exit 1
show sw tc qdisc show dev sw-r
essential "native ping a -> r" on a ping -c 2 -W 2 -q $R > /dev/null || exit 1
good "all five hosts are up and reach each other natively"

# ---- incast machinery ----

# qdisc_stats: "drops backlog_bytes" of the shaped switch port
qdisc_stats() {
	on sw tc -s -j qdisc show dev sw-r | $PY -c '
import json, sys
q = [x for x in json.load(sys.stdin) if x.get("kind") == "tbf"][0]
print(q.get("drops", 0), q.get("backlog", 0))'
}

# incast TAG: three iperf3 flows a,b,c -> r for $SECS s, while p pings r
# and the switch queue is sampled. Leaves results in $TMP/TAG.*
incast() {
	local tag=$1 h port pids=() d0 d1 smp
	for h in "${SENDERS[@]}"; do
		port=$((5200 + ${#pids[@]} + 1))
		on r timeout $((SECS + 25)) iperf3 -s -1 -p $port > /dev/null 2>&1 &
		pids+=($!)
	done
	for port in 5201 5202 5203; do wait_listen r $port; done
	read -r d0 _ <<< "$(qdisc_stats)"
	# the switch queue in packets, sampled every 100 ms
	(
		end=$(($(date +%s) + SECS + 2))
		while [ "$(date +%s)" -lt $end ]; do
			ip netns exec sw tc -s qdisc show dev sw-r |
				awk '/backlog/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+p$/) print $i + 0; exit }'
			sleep 0.1
		done
	) > "$TMP/$tag.backlog" 2> /dev/null &
	smp=$!
	port=5201
	for h in "${SENDERS[@]}"; do
		on "$h" timeout $((SECS + 20)) iperf3 -c $R -p $port -t "$SECS" -J \
			> "$TMP/$tag.$h.json" 2> /dev/null &
		pids+=($!)
		port=$((port + 1))
	done
	sleep 1
	on p ping -i 0.2 -c $(((SECS - 1) * 5)) -W 1 $R > "$TMP/$tag.ping" 2>&1
	wait "${pids[@]}" "$smp" 2> /dev/null
	read -r d1 _ <<< "$(qdisc_stats)"
	echo $((d1 - d0)) > "$TMP/$tag.drops"
}

# summarise TAG: one line per sender, then totals (also kept for the table)
summarise() {
	$PY - "$TMP" "$1" "${SENDERS[@]}" << 'EOF'
import json, re, statistics, sys
tmp, tag, hosts = sys.argv[1], sys.argv[2], sys.argv[3:]
rates, rtx, err, secs = {}, {}, {}, {}
for h in hosts:
    rates[h], rtx[h], err[h], secs[h] = 0.0, None, None, []
    try:
        j = json.load(open(f"{tmp}/{tag}.{h}.json"))
        err[h] = j.get("error")
        secs[h] = [i["sum"]["bits_per_second"] / 1e6 for i in j.get("intervals", [])]
        e = j["end"]
        rates[h] = e.get("sum_received", {}).get("bits_per_second", 0) / 1e6
        rtx[h] = e.get("sum_sent", {}).get("retransmits", 0)
    except Exception as x:
        err[h] = err[h] or f"no result ({x.__class__.__name__})"
rtt = [float(x) for x in re.findall(r"time=([\d.]+)", open(f"{tmp}/{tag}.ping").read())]
bl = [int(x) for x in open(f"{tmp}/{tag}.backlog").read().split() if x.isdigit()]
drops = int(open(f"{tmp}/{tag}.drops").read() or 0)
v = list(rates.values())
jain = sum(v) ** 2 / (len(v) * sum(x * x for x in v)) if any(v) else 0
res = {"rates": rates, "rtx": rtx, "err": err, "drops": drops, "jain": jain,
       "peak_backlog": max(bl) if bl else 0,
       "rtt_med": statistics.median(rtt) if rtt else None,
       "rtt_max": max(rtt) if rtt else None, "pings": len(rtt)}
json.dump(res, open(f"{tmp}/{tag}.sum", "w"))
for h in hosts:
    print(f"   {h} -> r   {rates[h]:6.1f} Mbit/s   TCP retransmits {rtx[h]}"
          f"   (each second: {' '.join(f'{x:.0f}' for x in secs[h])})")
    if err[h] or not rates[h]:
        print(f"   WARNING: {h}'s flow failed or stalled: iperf3 says {err[h]!r}")
print(f"   total    {sum(v):6.1f} Mbit/s   fairness (Jain) {jain:.2f}")
print(f"   switch port sw->r: {drops} packets dropped, peak queue {res['peak_backlog']} packets")
if rtt:
    print(f"   ping p -> r during the incast: median {res['rtt_med']:.2f} ms, max {res['rtt_max']:.2f} ms")
else:
    print("   ping p -> r during the incast: no reply")
EOF
}

# ---- 3. native incast ----

step "Incast, natively"
say "Three senders each push one TCP flow (iperf3, $SECS s) to r at once, \
while p pings r. Each sender's link is much faster than r's port, so the \
switch queue fills: TCP finds the link's capacity by losing packets there, \
and p's pings wait in the same queue."
incast native
summarise native

# ---- 4. configure EQDS ----

step "Configure EQDS"
say "A host carries over EQDS the traffic to its EQDS destinations. Here every \
host names the whole subnet (traffic to itself stays local)."
for h in a b c p r; do
	essential "eqdsctl set dests on $h" on $h eqdsctl set dests 10.0.0.0/24 || exit 1
done
printf '   %sa#%s eqdsctl set dests 10.0.0.0/24      %s(same on b, c, p, r)%s\n' "$D" "$N" "$D" "$N"
say "The receiver grants credit (PULLs) at its access link's speed. A veth \
reports 10 Gbit/s, and r's real bottleneck is the switch port, so r is told \
its rate: ${PULL} Mbit/s, 5% under the port, for Ethernet headers and slack."
essential "eqdsctl set pull-rate on r" show r eqdsctl set pull-rate "$PULL" || exit 1
show r eqdsctl show

# ---- 5. ping ----

step "Ping over EQDS"
say "ICMP is IP traffic like any other: captured, tunnelled over UDP, \
delivered. The first ping creates the tunnels, one each way: soft state, \
with no handshake of their own. In the default RTS mode a new tunnel asks \
the receiver for credit first, so the first ping waits for a pull in each \
direction; later pings reuse the tunnels."
if essential "ping a -> r over EQDS" show a ping -c 5 -i 0.2 -W 2 $R; then
	good "ping over EQDS works"
fi
tx=$(stat a tx_packets 2> /dev/null)
rx=$(stat r rx_packets 2> /dev/null)
echo "   a sent $tx packets over EQDS, r received $rx"
if [ "${tx:-0}" -gt 0 ] && [ "${rx:-0}" -gt 0 ]; then
	good "the pings went through the tunnel, not around it"
else
	bad "the counters did not move: the pings bypassed EQDS"
	essential_failed=1
fi

# ---- 6. incast over EQDS ----

step "Incast over EQDS"
say "The same incast. Now the senders queue at the edge (one queue per \
destination in each sending host) and send only what r has pulled. r pulls \
from a, b and c in turn at ${PULL} Mbit/s, so the switch queue should stay \
near empty, and r, not whoever fills the buffer first, decides how its link \
is shared. p's pings get credit of their own instead of waiting behind the \
incast."
# capture 3000 packets on r's switch port once the flows are under way
(sleep 2; exec timeout $((SECS + 8)) ip netns exec sw tcpdump -i sw-r -nn -s 128 -c 3000 \
	-w "$TMP/wire.pcap") > /dev/null 2>&1 &
dump=$!
incast eqds
wait "$dump" 2> /dev/null
summarise eqds
eqds_mbit=$($PY -c 'import json,sys; print(int(sum(json.load(open(sys.argv[1]))["rates"].values())))' \
	"$TMP/eqds.sum" 2> /dev/null)
if [ "${eqds_mbit:-0}" -gt 0 ]; then
	good "data flows over EQDS"
else
	bad "no data got through over EQDS"
	essential_failed=1
fi

# ---- 7. side by side ----

step "Side by side"
$PY - "$TMP" "${SENDERS[@]}" << 'EOF'
import json, sys
tmp, hosts = sys.argv[1], sys.argv[2:]
n, e = (json.load(open(f"{tmp}/{t}.sum")) for t in ("native", "eqds"))
def ms(x):
    return "-" if x is None else f"{x:.2f} ms"
rows = [(f"{h} -> r (Mbit/s)", f"{n['rates'][h]:.1f}", f"{e['rates'][h]:.1f}") for h in hosts]
rows += [("total (Mbit/s)", f"{sum(n['rates'].values()):.1f}", f"{sum(e['rates'].values()):.1f}"),
         ("fairness (Jain, 1 = equal)", f"{n['jain']:.2f}", f"{e['jain']:.2f}"),
         ("TCP retransmits", str(sum(x or 0 for x in n['rtx'].values())),
          str(sum(x or 0 for x in e['rtx'].values()))),
         ("switch drops (packets)", str(n['drops']), str(e['drops'])),
         ("switch queue peak (packets)", str(n['peak_backlog']), str(e['peak_backlog'])),
         ("ping p -> r, median", ms(n['rtt_med']), ms(e['rtt_med'])),
         ("ping p -> r, max", ms(n['rtt_max']), ms(e['rtt_max']))]
print(f"   {'':28} {'native':>10} {'EQDS':>10}")
for r in rows:
    print(f"   {r[0]:28} {r[1]:>10} {r[2]:>10}")
EOF
say "What to look for: over EQDS the switch should drop little or nothing \
and hold a short queue, the three senders should get equal shares (Jain index \
near 1), and p's pings should not wait behind the incast. Under emulation \
(qemu without KVM) absolute rates are rough and vary from run to run; \
Documentation/benchmarks.rst says what limits them."

# ---- 8. the wire ----

step "On the wire"
say "What the switch saw on r's port during the EQDS incast: only UDP to and \
from port 6666. Data goes to r; PULLs (credit) and ACKs come back. The outer \
UDP source port changes from packet to packet: that is spraying, which lets \
per-packet ECMP spread one flow over every path."
if [ -s "$TMP/wire.pcap" ]; then
	printf '   %ssw#%s tcpdump -i sw-r -nn    %s(a few data packets, then a few from r)%s\n' \
		"$D" "$N" "$D" "$N"
	{
		timeout 10 tcpdump -r "$TMP/wire.pcap" -nn -c 3 "dst host $R and greater 1000"
		timeout 10 tcpdump -r "$TMP/wire.pcap" -nn -c 3 "src host $R"
	} 2> /dev/null | cut -c1-96 | sed 's/^/     /'
	say "Lengths above the 1500-byte MTU are TSO/GSO superpackets: EQDS \
encapsulates TCP's 64 kB segments whole, and they are cut to MTU size later \
(here by the switch's shaper). Every piece keeps the EQDS header of its \
superpacket; the receiver numbers the pieces from the outer IPv4 ID. \
tcpdump does not know EQDS; decoded (Documentation/wire-format.rst), packets \
from the same capture read:"
	$PY - "$TMP/wire.pcap" "$R" << 'EOF'
import socket, struct, sys
FL = ["SYN", "ACK", "NACK", "PULL", "RTS", "FIN", "RST", "SACK"]
pcap, r = open(sys.argv[1], "rb").read(), sys.argv[2]
off, data, ctrl, srcs, tcp = 24, [], [], set(), 0
while off + 16 <= len(pcap):
    incl = struct.unpack_from("<I", pcap, off + 8)[0]
    pkt, off = pcap[off + 16:off + 16 + incl], off + 16 + incl
    if len(pkt) < 34 or pkt[12:14] != b"\x08\x00":
        continue
    ip = pkt[14:]
    ihl, proto = (ip[0] & 15) * 4, ip[9]
    s, d = socket.inet_ntoa(ip[12:16]), socket.inet_ntoa(ip[16:20])
    tot, ipid = struct.unpack_from("!HH", ip, 2)
    if proto == 6:
        tcp += 1
    if proto != 17 or len(ip) < ihl + 16:
        continue
    sp, dp, ulen = struct.unpack_from("!HHH", ip, ihl)
    e = ip[ihl + 8:]
    if dp != 6666 or len(e) < 8:
        continue
    typ, flags = e[0] & 15, e[1]
    fl = "|".join(n for i, n in enumerate(FL) if flags >> i & 1) or "-"
    head = f"{s}:{sp} > {d}:{dp}"
    if typ == 1 and len(e) >= 16:
        seq, pt, segs = struct.unpack_from("!IHH", e, 8)
        inner = ""
        if len(e) >= 36 and e[16] >> 4 == 4 and e[16 + 9] == 6:
            iih = (e[16] & 15) * 4
            isp, idp = struct.unpack_from("!HH", e, 16 + iih)
            inner = f"  inner TCP :{isp} > :{idp}"
        if segs and d == r:
            srcs.add((s, sp))
            k = (ipid - seq) & 0xffff	# piece of a split superpacket
            if segs == 1:
                num = f"seq {seq}"
            elif tot > 1500:
                num = f"seqs {seq}..{seq + segs - 1} (superpacket)"
            else:
                num = f"seq {seq + k} (piece {k + 1}/{segs})"
            data.append(f"{head}  DATA flags {fl} {num} pull_target {pt} ({tot} B){inner}")
    elif typ == 2 and len(e) >= 28 and s == r:
        ack, pno, busy, q = struct.unpack_from("!IIHH", e, 8)
        pull = f" pull_no {pno} quantum {q * 64} B" if flags & 8 else ""
        ctrl.append(f"{head}  CTRL flags {fl} ack {ack}{pull}")
for line in data[len(data) // 2:len(data) // 2 + 3] + ctrl[len(ctrl) // 2:len(ctrl) // 2 + 3]:
    print("     " + line)
print(f"   in this capture: {len(data)} EQDS data packets to r from {len(srcs)} different "
      f"outer (address, source port) pairs,\n   {len(ctrl)} control packets from r, "
      f"{tcp} bare TCP packets")
EOF
else
	bad "tcpdump captured nothing"
fi

# ---- 9. counters ----

step "Counters"
say "eqdsctl -s adds the counters. On the receiver r: data received, pulls \
sent, packets held for reordering. On sender a: data sent, pulls received, \
requests to send (RTS), retransmissions."
show r eqdsctl -s show
show a eqdsctl -s show

step "The same, as JSON for scripts"
printf '   %sr#%s eqdsctl -j show | python3 -m json.tool | head -20\n' "$D" "$N"
on r eqdsctl -j show | $PY -m json.tool | head -20 | sed 's/^/     /'

# ---- done ----

step "Done"
echo "   $(($(date +%s) - T0)) s. Namespaces are deleted and eqds is unloaded on exit."
if [ $essential_failed != 0 ]; then
	bad "something essential failed (see above)"
	exit 1
fi
good "demo complete"
exit 0
