#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The receive side as the receiving host sees it:
#  - GRO at the receiving device merges the pieces of an EQDS packet that
#    software GSO split after encapsulation: the stack gets far fewer, larger
#    packets than the wire carried;
#  - decapsulated packets reach packet taps (tcpdump, AF_PACKET) on the
#    receiving device with a valid link-layer header: the frame's own
#    addresses and the inner protocol as ethertype, as a native packet
#    between the same hosts would have.
source "$(dirname "$0")/lib.sh"
trap ns_del_all EXIT
MB=${EQDS_XFER_MB:-50}

check "load eqds" eqds_load
two_hosts || { fail "two hosts"; exit 1; }

devstat() {	# NS DEV COUNTER
	ip netns exec "$1" cat "/sys/class/net/$2/statistics/$3"
}

# ---- GRO of outer EQDS packets ----
# h1's device splits each GSO packet after encapsulation (software GSO), so
# the wire carries MTU-sized pieces; h2's device (veth with GRO on, so NAPI)
# should merge the pieces of one EQDS packet back before decapsulation. Every
# merged packet is one packet delivered (rx_packets); the wire count is what
# v2 received less control packets (rx_ctrl).
ip netns exec h1 ethtool -K v1 tso off gso off > /dev/null 2>&1
ip netns exec h2 ethtool -K v2 gro on > /dev/null 2>&1
wire0=$(devstat h2 v2 rx_packets)
ctrl0=$(stat h2 rx_ctrl)
up0=$(stat h2 rx_packets)
xfer "split after encapsulation, merged by GRO" h2 10.0.1.2 h1 $((MB << 20))
wire=$(($(devstat h2 v2 rx_packets) - wire0 - ($(stat h2 rx_ctrl) - ctrl0)))
up=$(($(stat h2 rx_packets) - up0))
echo "GRO: v2 received $wire EQDS data packets, eqds delivered $up packets"
# Unmerged, the two counts are about equal; a bulk transfer's GSO packets
# are several segments each, so merged, far more arrive than are delivered.
[ "$up" -gt 0 ] && [ "$wire" -ge $((2 * up)) ] &&
	ok "GRO merges the pieces of EQDS packets ($wire on the wire, $up delivered)" ||
	fail "GRO merges the pieces of EQDS packets" "$wire on the wire, $up delivered"
ip netns exec h1 ethtool -K v1 tso on gso on > /dev/null 2>&1

# ---- link-layer headers seen by packet taps ----
mac1=$(ip netns exec h1 cat /sys/class/net/v1/address)
mac2=$(ip netns exec h2 cat /sys/class/net/v2/address)
capture h2 v2 /tmp/rx-taps.pcap -Q in -s 128
xfer "under tcpdump, IPv4" h2 10.0.1.2 h1 $((2 << 20))
xfer "under tcpdump, IPv6" h2 fd00:1::2 h1 $((2 << 20))
capture_stop
# Every frame the tap saw: an ethertype that names what follows (IPv4 with
# an IPv4 header, IPv6 with an IPv6 header, ARP), and for UDP and TCP h1's
# and h2's addresses; the decapsulated packets are the TCP ones (on the
# wire TCP only travels inside EQDS/UDP).
res=$(python3 - /tmp/rx-taps.pcap "$mac1" "$mac2" << 'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
src = bytes.fromhex(sys.argv[2].replace(":", ""))
dst = bytes.fromhex(sys.argv[3].replace(":", ""))
assert struct.unpack("<I", data[20:24])[0] == 1, "not an Ethernet capture"
off, inner4, inner6, outer, bad, why = 24, 0, 0, 0, 0, set()
while off + 16 <= len(data):
    caplen = struct.unpack("<I", data[off + 8:off + 12])[0]
    f = data[off + 16:off + 16 + caplen]
    off += 16 + caplen
    et = struct.unpack("!H", f[12:14])[0]
    if et == 0x0806:
        continue
    ver = f[14] >> 4 if len(f) > 14 else -1
    if (et, ver) == (0x0800, 4):
        proto = f[14 + 9]
    elif (et, ver) == (0x86dd, 6):
        proto = f[14 + 6]
    else:
        bad += 1
        why.add("ethertype 0x%04x before IP version %d" % (et, ver))
        continue
    if proto not in (6, 17):
        continue        # neighbour discovery, MLD: native, multicast
    if f[0:6] != dst or f[6:12] != src:
        bad += 1
        why.add("addresses %s > %s" % (f[6:12].hex(), f[0:6].hex()))
        continue
    if proto == 17:
        outer += 1
    elif proto == 6:
        if et == 0x0800:
            inner4 += 1
        else:
            inner6 += 1
print(outer, inner4, inner6, bad, "; ".join(sorted(why)) or "-")
EOF
)
echo "taps on v2: outer, inner IPv4, inner IPv6, bad, why: $res"
read -r outer inner4 inner6 bad why <<< "$res"
[ "${outer:-0}" -gt 0 ] && [ "${inner4:-0}" -gt 0 ] && [ "${inner6:-0}" -gt 0 ] &&
	ok "the tap sees the outer and the decapsulated packets" ||
	fail "the tap sees the outer and the decapsulated packets" "$res"
expect_eq "every frame a tap sees has a valid link-layer header" "0 -" "$bad $why"

ns_del_all
check "rmmod after traffic" rmmod eqds
test_failed && exit 1
exit 0
