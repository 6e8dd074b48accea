#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What a host's own local users and local configuration may do
# (Documentation/threat-model.rst, "Local users"):
# (a) an EQDS packet that arrives tunnelled (its inner packet a UDP datagram
#     to the EQDS port, as an older sender would tunnel a local user's) is
#     dropped (drop_inner), never handed to the EQDS socket;
# (b) an unprivileged user on h1 sends UDP datagrams to h2's EQDS port
#     (malformed EQDS headers, and SYNs of a forged epoch): h1 drops them
#     (drop_local_port), h2 parses none and its tunnel keeps its epoch; so
#     does a container behind h1 that h1 masquerades;
# (c) an unprivileged user can neither read tunnel state (eqdsctl tunnel
#     list: permission denied) nor join the tunnel events (eqdsctl monitor);
# (d) a spoofed data packet on a slow interface (a tun device, 10 Mbit/s)
#     that admission drops does not choose the device whose speed sets the
#     pull rate (a kprobe on __ethtool_get_link_ksettings shows which device
#     eqds asks);
# (e) IPsec: with an ESP transport-mode policy for TCP between h1 and h2,
#     a transfer completes, through the security associations (their
#     counters grow) and with no clear text that the receiver's policy
#     rejects (XfrmInTmplMismatch);
# (f) broadcast and multicast inside a captured prefix (the subnet's
#     directed broadcast, the last address of a captured /16 routed via h2,
#     255.255.255.255, 239.1.1.1) get no sending tunnel; unicast still does.
source "$(dirname "$0")/lib.sh"
TRACING=/sys/kernel/tracing
PORT=6666
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
cleanup() {
	[ -f $TRACING/kprobe_events ] && echo '-:eqds_local/speed' >> $TRACING/kprobe_events 2> /dev/null
	ns_del_all
	rm -f /tmp/local.*.$$
}
trap cleanup EXIT

# counters NS: all of the namespace's counters as "name value" lines.
counters() {
	ctl "$1" -j show | sed -n 's/.*"stats":{\([^}]*\)}.*/\1/p' | tr -d '"' | tr ',:' '\n '
}
# delta BEFORE AFTER NAME: how much counter NAME grew between two snapshots.
delta() {
	echo $(($(awk -v k="$3" '$1 == k {v = $2} END {print v + 0}' <<< "$2") - \
		$(awk -v k="$3" '$1 == k {v = $2} END {print v + 0}' <<< "$1")))
}
# rx_epoch NS PEER: the epoch of NS's receiving tunnel from PEER.
rx_epoch() {
	ctl "$1" -j tunnel show "$2" rx 2> /dev/null | grep -o '"epoch":[0-9]*' | head -1 | cut -d: -f2
}
# pyeqds NS [AS...] -- SCRIPT: python with eqds_hostile.py's packet builders as H.
pyeqds() {
	local ns=$1
	shift
	ip netns exec "$ns" "$@" python3 -c "import sys; sys.path.insert(0, '$TOP/selftests/tools'); import eqds_hostile as H; import socket, struct
$(cat)"
}
# short_xfer DESC SERVER_NS ADDR CLIENT_NS BYTES: xfer with a 20 s bound.
short_xfer() {
	local p=$((20000 + RANDOM % 20000)) r s
	ip netns exec "$2" timeout 25 python3 "$TOP/selftests/tools/xfer.py" serve "$3" $p \
		> /tmp/local.xfer.$$ 2>&1 &
	wait_listen "$2" $p
	s=$(ip netns exec "$4" timeout 20 python3 "$TOP/selftests/tools/xfer.py" send "$3" $p "$5" 2>&1)
	wait
	r=$(cat /tmp/local.xfer.$$)
	echo "$1: sent '$s' received '$r'"
	if [ -n "$r" ] && [ "$r" = "$s" ] && [ "${r%% *}" = "$5" ]; then
		ok "$1: content intact"
	else
		fail "$1: transfer failed or content differs" "sent '$s' received '$r'"
	fi
}

check "load eqds" eqds_load
two_hosts || { fail "two hosts"; exit 1; }
ctl h1 set idle-timeout 60000
ctl h2 set idle-timeout 60000

# ---- (a) EQDS inside EQDS: what a sender without (b)'s check would send ----
h2mac=$(ip -n h2 -br link show v2 | awk '{print $3}')
c0=$(counters h2)
pyeqds h1 <<EOF
epoch, seq = H.start_seq(H.rand_epoch())
inner_udp = struct.pack("!HHHH", 40000, $PORT, 8 + 4, 0) + b"\x00\x01\x02\x03"
inner = H.ipv4("10.0.1.1", "10.0.1.2", inner_udp, proto=17)
eqds = H.data_hdr(H.SYN, H.NP_IPV4, epoch, seq, pull_target=2) + inner
udp = struct.pack("!HHHH", 0xd000, $PORT, 8 + len(eqds), 0) + eqds
pkt = H.ipv4("10.0.1.1", "10.0.1.2", udp, proto=17, ident=seq & 0xffff)
s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(0x0800))
s.sendto(pkt, ("v1", 0x0800, 0, 0, bytes.fromhex("$h2mac".replace(":", ""))))
EOF
sleep 0.5
c1=$(counters h2)
echo "h2 after a tunnelled EQDS packet: drop_inner +$(delta "$c0" "$c1" drop_inner)" \
	"drop_decode +$(delta "$c0" "$c1" drop_decode)"
expect_eq "(a) a tunnelled datagram to the EQDS port is dropped as inner" 1 \
	"$(delta "$c0" "$c1" drop_inner)"
expect_eq "(a) and never parsed as EQDS" 0 "$(delta "$c0" "$c1" drop_decode)"

# ---- tunnels both ways, with their epochs ----
short_xfer "warm-up h1 -> h2" h2 10.0.1.2 h1 $((1 << 20))
epoch0=$(rx_epoch h2 10.0.1.1)
echo "h2's receiving tunnel from h1: epoch $epoch0"

# ---- (b) an unprivileged user on h1 writes to h2's EQDS port ----
a0=$(counters h1)
b0=$(counters h2)
# (A netfilter drop fails the sendto() with EPERM: each attempt counts.)
pyeqds h1 "${NOBODY[@]}" <<EOF
def send(sock, data, to):
    try:
        sock.sendto(data, to)
    except OSError as e:
        print("sendto %s: %s" % (to[0], e))
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(5):
    send(s, bytes([0, 1, 2, 3, 4, 5]), ("10.0.1.2", $PORT))	# version 0
for i in range(5):
    epoch, seq = H.start_seq(H.rand_epoch())
    send(s, H.data_hdr(H.SYN, H.NP_IPV4, epoch, seq, pull_target=0xffff) +
         H.inner4("10.0.1.1", "10.0.1.2"), ("10.0.1.2", $PORT))
send(socket.socket(socket.AF_INET6, socket.SOCK_DGRAM), bytes(8), ("fd00:1::2", $PORT))
EOF
sleep 0.5
a1=$(counters h1)
b1=$(counters h2)
echo "h1: drop_local_port +$(delta "$a0" "$a1" drop_local_port) tx_packets" \
	"+$(delta "$a0" "$a1" tx_packets); h2: drop_decode +$(delta "$b0" "$b1" drop_decode)" \
	"drop_epoch +$(delta "$b0" "$b1" drop_epoch) rx_ctrl +$(delta "$b0" "$b1" rx_ctrl)" \
	"challenges_sent +$(delta "$b0" "$b1" challenges_sent)"
expect_eq "(b) h1 drops a local user's 11 datagrams to the EQDS port" 11 \
	"$(delta "$a0" "$a1" drop_local_port)"
expect_eq "(b) h2 parses none of them (drop_decode)" 0 "$(delta "$b0" "$b1" drop_decode)"
expect_eq "(b) h2 parses none of them (drop_epoch)" 0 "$(delta "$b0" "$b1" drop_epoch)"
expect_eq "(b) h2's tunnel from h1 keeps its epoch" "$epoch0" "$(rx_epoch h2 10.0.1.1)"
# A container c behind h1, masqueraded to h1's address: the same.
ns_add c
veth c c0 10.5.0.2/24 h1 hc 10.5.0.1/24
ip -n c route add default via 10.5.0.1
ip netns exec h1 sysctl -qw net.ipv4.ip_forward=1
ip netns exec h1 nft -f - << 'EOF'
table ip nat {
	chain post { type nat hook postrouting priority 100; oifname "v1" masquerade; }
}
EOF
a0=$(counters h1)
b0=$(counters h2)
pyeqds c <<EOF
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(3):
    s.sendto(bytes([0, 1, 2, 3, 4, 5]), ("10.0.1.2", $PORT))
EOF
sleep 0.5
a1=$(counters h1)
b1=$(counters h2)
echo "masqueraded container: h1 drop_local_port +$(delta "$a0" "$a1" drop_local_port);" \
	"h2 drop_decode +$(delta "$b0" "$b1" drop_decode)"
expect_eq "(b) h1 drops a masqueraded container's datagrams to the EQDS port" 3 \
	"$(delta "$a0" "$a1" drop_local_port)"
expect_eq "(b) h2 parses none of them" 0 "$(delta "$b0" "$b1" drop_decode)"

# ---- (c) an unprivileged user and tunnel state ----
check "(c) root lists the tunnels" ctl h1 -j tunnel list
check_fails "(c) nobody cannot list the tunnels" "permission denied" \
	ip netns exec h1 "${NOBODY[@]}" "$EQDSCTL" -j tunnel list
check_fails "(c) nobody cannot show a tunnel" "permission denied" \
	ip netns exec h1 "${NOBODY[@]}" "$EQDSCTL" -j tunnel show 10.0.1.2
check_fails "(c) nobody cannot join the tunnel events" "permission denied" \
	ip netns exec h1 timeout 3 "${NOBODY[@]}" "$EQDSCTL" monitor
check "(c) nobody still reads the instance (configuration and counters)" \
	ip netns exec h1 "${NOBODY[@]}" "$EQDSCTL" -j show

# ---- (d) who chooses the device whose speed sets the pull rate ----
mountpoint -q $TRACING || mount -t tracefs nodev $TRACING 2> /dev/null
ctl h2 set pull-rate auto
modprobe -q tun
[ -c /dev/net/tun ] || { mkdir -p /dev/net && mknod /dev/net/tun c 10 200; }
ip -n h2 tuntap add dev spoof0 mode tun
ip -n h2 link set spoof0 up
ip netns exec h2 sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
	net.ipv4.conf.spoof0.rp_filter=0
# Where struct net_device keeps its name: at its start before 6.8, not since.
name_off=$(bpftool btf dump file /sys/kernel/btf/vmlinux format raw 2> /dev/null |
	awk '/STRUCT .net_device. size/ { f = 1; next } f && /^\[/ { exit }
	     f && /\047name\047/ { sub(/.*bits_offset=/, ""); print $1 / 8; exit }')
if echo "p:eqds_local/speed __ethtool_get_link_ksettings dev=+${name_off:-0}(%di):string" \
	>> $TRACING/kprobe_events 2> /dev/null; then
	echo > $TRACING/trace
	echo 1 > $TRACING/events/eqds_local/speed/enable
	# Data on v2, then quiet: eqds asks v2's speed.
	short_xfer "h1 -> h2 before the spoofed packet" h2 10.0.1.2 h1 $((256 << 10))
	sleep 1.5
	d0=$(counters h2)
	pyeqds h2 <<EOF
import fcntl, os
fd = os.open("/dev/net/tun", os.O_RDWR)
fcntl.ioctl(fd, 0x400454ca, struct.pack("16sH", b"spoof0", 0x0001 | 0x1000))
epoch, seq = H.start_seq(H.rand_epoch())
eqds = H.data_hdr(H.SYN, H.NP_IPV4, epoch, seq, pull_target=2) + H.inner4("10.9.9.9", "10.0.1.2")
udp = struct.pack("!HHHH", 0xd000, $PORT, 8 + len(eqds), 0) + eqds
os.write(fd, H.ipv4("10.0.1.1", "10.0.1.2", udp, proto=17, ident=seq & 0xffff))
os.close(fd)
EOF
	sleep 2.5
	echo 0 > $TRACING/events/eqds_local/speed/enable
	d1=$(counters h2)
	grep -o 'dev="[^"]*"' $TRACING/trace | sort | uniq -c
	expect_eq "(d) the spoofed packet arrived and was dropped as inner" 1 \
		"$(delta "$d0" "$d1" drop_inner)"
	check "(d) the kprobe sees eqds ask the speed of v2" grep -q 'dev="v2"' $TRACING/trace
	check "(d) eqds never asks the speed of the spoofed packet's device" \
		bash -c "! grep -q 'dev=\"spoof0\"' $TRACING/trace"
	echo '-:eqds_local/speed' >> $TRACING/kprobe_events
else
	skip "(d) rx device choice" "no kprobe events in this kernel"
fi
ip -n h2 link del spoof0

# ---- (e) IPsec: ESP in transport mode for TCP between h1 and h2 ----
KEY=0x0123456789abcdef0123456789abcdef01234567
for n in h1 h2; do
	ip -n $n xfrm state add src 10.0.1.1 dst 10.0.1.2 proto esp spi 0x1001 mode transport \
		aead 'rfc4106(gcm(aes))' $KEY 128 || fail "(e) xfrm state on $n"
	ip -n $n xfrm state add src 10.0.1.2 dst 10.0.1.1 proto esp spi 0x1002 mode transport \
		aead 'rfc4106(gcm(aes))' $KEY 128
done
xpol() {	# NS SRC DST DIR
	ip -n "$1" xfrm policy add src "$2" dst "$3" proto tcp dir "$4" \
		tmpl src "$2" dst "$3" proto esp mode transport
}
xpol h1 10.0.1.1 10.0.1.2 out
xpol h1 10.0.1.2 10.0.1.1 in
xpol h2 10.0.1.2 10.0.1.1 out
xpol h2 10.0.1.1 10.0.1.2 in
# sa_packets NS SPI: packets through the state (ip -s xfrm state).
sa_packets() {
	ip -n "$1" -s xfrm state get src "$3" dst "$4" proto esp spi "$2" |
		awk '/lifetime current:/ {getline; sub(/\(packets\)/, "", $2); print $2 + 0; exit}'
}
mm0=$(nstat_get h2 XfrmInTmplMismatch)
x0=$(counters h1)
short_xfer "(e) h1 -> h2 under IPsec" h2 10.0.1.2 h1 $((2 << 20))
x1=$(counters h1)
out1=$(sa_packets h1 0x1001 10.0.1.1 10.0.1.2)
in2=$(sa_packets h2 0x1001 10.0.1.1 10.0.1.2)
mm=$(($(nstat_get h2 XfrmInTmplMismatch) - mm0))
echo "ESP h1->h2: $out1 packets out of h1, $in2 into h2; h2 XfrmInTmplMismatch +$mm;" \
	"h1 EQDS tx_packets +$(delta "$x0" "$x1" tx_packets)"
check "(e) h1's outbound SA carried the transfer" test "${out1:-0}" -gt 100
check "(e) h2's inbound SA decrypted it" test "${in2:-0}" -gt 100
expect_eq "(e) h2 got no clear text its policy rejects" 0 "$mm"
check "(e) the ESP packets went over EQDS" test "$(delta "$x0" "$x1" tx_packets)" -gt 100
# A host-to-host policy for every protocol covers EQDS's own UDP packets
# too: the receiver's policy check (before the EQDS socket sees them) wants
# them in ESP, so eqds's route lookup must apply it.
for n in h1 h2; do
	ip -n $n xfrm policy flush
done
xpol_any() {	# NS SRC DST DIR
	ip -n "$1" xfrm policy add src "$2" dst "$3" dir "$4" \
		tmpl src "$2" dst "$3" proto esp mode transport
}
xpol_any h1 10.0.1.1 10.0.1.2 out
xpol_any h1 10.0.1.2 10.0.1.1 in
xpol_any h2 10.0.1.2 10.0.1.1 out
xpol_any h2 10.0.1.1 10.0.1.2 in
o0=$(sa_packets h1 0x1001 10.0.1.1 10.0.1.2)
mm0=$(nstat_get h2 XfrmInTmplMismatch)
short_xfer "(e) h1 -> h2 under IPsec for every protocol" h2 10.0.1.2 h1 $((1 << 20))
o1=$(sa_packets h1 0x1001 10.0.1.1 10.0.1.2)
mm=$(($(nstat_get h2 XfrmInTmplMismatch) - mm0))
echo "ESP h1->h2: +$((o1 - o0)) packets; h2 XfrmInTmplMismatch +$mm"
check "(e) every protocol: h1's outbound SA carried it" test $((o1 - o0)) -gt 100
for n in h1 h2; do
	ip -n $n xfrm policy flush
	ip -n $n xfrm state flush
done

# ---- (f) broadcast and multicast inside captured prefixes ----
ip -n h1 route add 10.9.0.0/16 via 10.0.1.2
ip -n h1 route add 224.0.0.0/4 dev v1
check "h1 captures 10.0.1.0/24, 10.9.0.0/16, 239/8 and 255.255.255.255" \
	ctl h1 set dests 10.0.1.0/24,10.9.0.0/16,239.0.0.0/8,255.255.255.255/32,fd00:1::2/128
f0=$(counters h1)
ip netns exec h1 python3 - << 'EOF'
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, b"v1")
for dst in ["10.0.1.255", "10.9.255.255", "255.255.255.255", "239.1.1.1"]:
    for i in range(3):
        s.sendto(b"x" * 100, (dst, 9))
EOF
sleep 0.5
f1=$(counters h1)
txt=$(ctl h1 -j tunnel list tx)
echo "h1's sending tunnels: $txt"
for a in 10.0.1.255 10.9.255.255 255.255.255.255 239.1.1.1; do
	check "(f) no sending tunnel to $a" bash -c "! grep -q '\"$a\"' <<< '$txt'"
done
expect_eq "(f) none of the 12 datagrams made a tunnel" 0 "$(delta "$f0" "$f1" tunnels_created)"
expect_eq "(f) none of them was sent over EQDS" 0 "$(delta "$f0" "$f1" tx_packets)"
short_xfer "(f) unicast inside the captured /24 still goes over EQDS" h2 10.0.1.2 h1 $((256 << 10))
