#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Sender memory (issue 12, item 2): one lost piece of a GSO packet that was
# sent whole is retransmitted by EQDS: its copy is kept until every piece is
# acknowledged, so the receiver does not give up on the hole after the
# release timeout.
source "$(dirname "$0")/lib.sh"
trap ns_del_all EXIT

# grew NS COUNTER BEFORE: how much a counter grew since BEFORE.
grew() { echo $(($(stat "$1" "$2") - $3)); }

check "load eqds" eqds_load
two_hosts || { fail "two hosts"; exit 1; }

# ---- item 2: one lost piece of a GSO packet ----
# The outer packets leave h1 as a UDP-tunnel GSO packet split in software
# before the link, so h2's input hook sees each piece; piece k of a packet
# numbered from seq has outer IP ID (seq + k) mod 2^16. The rule drops one
# outer data packet whose seq ends in hex 0 and whose ID ends in 5: piece 5
# (or 21, 37...) of its GSO packet, never its first piece.
check "h2 pulls at 200 Mbit/s" ctl h2 set pull-rate 200
ip netns exec h1 ethtool -K v1 tx-udp_tnl-segmentation off \
	tx-udp_tnl-csum-segmentation off > /dev/null 2>&1
ip netns exec h2 nft -f - <<-EOF
table inet piece {
	chain in {
		type filter hook input priority 0; policy accept;
		udp dport 6666 @th,64,8 0x11 @th,156,4 0 ip id & 0xf == 5 quota until 2000 bytes counter drop
	}
}
EOF
rtx0=$(stat h1 retransmits)
skip0=$(stat h2 reorder_skipped)
xfer "one GSO piece lost" h2 10.0.1.2 h1 $((8 << 20))
dropped=$(ip netns exec h2 nft list table inet piece |
	awk '/counter/ { for (i = 1; i < NF; i++) if ($i == "packets") print $(i + 1) }')
ip netns exec h2 nft delete table inet piece
expect_eq "exactly one piece (not a GSO packet's first) was dropped" 1 "$dropped"
rtx=$(grew h1 retransmits "$rtx0")
skipped=$(grew h2 reorder_skipped "$skip0")
echo "retransmits $rtx, seqs the receiver gave up on $skipped"
check "EQDS retransmitted the lost piece" test "$rtx" -ge 1
expect_eq "the receiver gave up on no hole (no release timeout)" 0 "$skipped"
echo "h1: $(eqds_stats h1)"
echo "h2: $(eqds_stats h2)"
ctl h2 set pull-rate 0

ns_del_all
check "unload eqds" eqds_unload
