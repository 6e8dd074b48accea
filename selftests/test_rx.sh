#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The receive side as the receiving host sees it:
#  - GRO at the receiving device merges the pieces of an EQDS packet that
#    software GSO split after encapsulation: the stack gets far fewer, larger
#    packets than the wire carried.
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

ns_del_all
check "rmmod after traffic" rmmod eqds
test_failed && exit 1
exit 0
