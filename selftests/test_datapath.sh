#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# TCP between two hosts runs over EQDS: the wire carries only EQDS/UDP,
# counters move on both sides, and bulk transfers arrive intact with and
# without impairment, with offloads on and off, over IPv4 and IPv6.
source "$(dirname "$0")/lib.sh"
trap ns_del_all EXIT
MB=${EQDS_XFER_MB:-200}

check "load eqds" eqds_load
two_hosts || { fail "two hosts"; exit 1; }

check "ping over EQDS (IPv4)" ip netns exec h1 ping -c 3 -i 0.2 -W 2 -q 10.0.1.2
check "ping over EQDS (IPv6)" ip netns exec h1 ping -6 -c 3 -i 0.2 -W 2 -q fd00:1::2
tx=$(stat h1 tx_packets)
rx=$(stat h2 rx_packets)
[ "$tx" -gt 0 ] && [ "$rx" -gt 0 ] && ok "counters: h1 sent $tx, h2 received $rx" ||
	fail "counters move" "h1 tx_packets=$tx h2 rx_packets=$rx"
# A new tunnel's first packets are small (pings): they borrow their credit
# and go at once, with no RTS probe and pull round trip first
# (Documentation/eqds.rst, "Small packets").
b1=$(stat h1 small_borrowed) b2=$(stat h2 small_borrowed)
[ "${b1:-0}" -gt 0 ] && [ "${b2:-0}" -gt 0 ] && [ "$(stat h1 rts_sent)" = 0 ] &&
	ok "the pings borrowed their credit (h1 $b1, h2 $b2), no RTS" ||
	fail "the pings borrowed their credit" "small_borrowed h1 ${b1:-none} h2 ${b2:-none}, h1 rts_sent $(stat h1 rts_sent)"

# The wire: while iperf3 runs, no TCP is seen on the link, only EQDS. What
# each host sends: a tap on the receiving side also sees the decapsulated
# packets as they go up (with their own link-layer header).
capture h1 v1 /tmp/wire1.pcap -Q out -s 96
capture h2 v2 /tmp/wire2.pcap -Q out -s 96
r1=$(iperf h2 10.0.1.2 h1 3)
capture_stop
r2=$(iperf h2 10.0.1.2 h1 3 -R)
echo "iperf3 h1->h2: ${r1% *} Mbit/s (retransmits ${r1#* }); h2->h1: ${r2% *} Mbit/s"
[ -n "$r1" ] && [ "${r1% *}" -gt 0 ] && ok "iperf3 TCP h1->h2 over EQDS" || fail "iperf3 h1->h2" "$r1"
[ -n "$r2" ] && [ "${r2% *}" -gt 0 ] && ok "iperf3 TCP h2->h1 over EQDS" || fail "iperf3 h2->h1" "$r2"
ntcp=$(for f in /tmp/wire1.pcap /tmp/wire2.pcap; do tcpdump -nn -r $f tcp 2> /dev/null; done | wc -l)
neqds=$(for f in /tmp/wire1.pcap /tmp/wire2.pcap; do
	tcpdump -nn -r $f udp port 6666 2> /dev/null; done | wc -l)
echo "capture: $neqds EQDS packets, $ntcp bare TCP packets"
[ "$ntcp" = 0 ] && [ "$neqds" -gt 100 ] && ok "the wire carries EQDS/UDP only" ||
	fail "the wire carries EQDS/UDP only" "tcp=$ntcp eqds=$neqds"
pulls=$(stat h2 pulls_sent)
[ "$pulls" -gt 0 ] && [ "$(stat h1 pulls_rcvd)" -gt 0 ] && ok "the receiver pulls ($pulls pulls)" ||
	fail "pulls flow" "h2 pulls_sent=$pulls"

xfer "integrity, no impairment" h2 10.0.1.2 h1 $((MB << 20))
# An IPv6 GSO packet is queued whole: the queue limit counts it as one
# packet, as over IPv4 (split first, 44 pieces each, a 100-packet queue
# dropped TCP's bursts). It leaves whole too, its header saying where its
# TCP sequence numbers start (EQDS_F_TCPSEQ): split in numbered pieces, it
# cost the receiver a trip through UDP and EQDS per piece.
qf=$(stat h1 drop_queue_full)
b0=$(if_stat h1 v1 tx_bytes) p0=$(if_stat h1 v1 tx_packets)
xfer "integrity, IPv6" h2 fd00:1::2 h1 $((MB << 20))
b1=$(if_stat h1 v1 tx_bytes) p1=$(if_stat h1 v1 tx_packets)
qf2=$(stat h1 drop_queue_full)
expect_eq "IPv6 GSO packets queued whole: no queue-full drop at h1" "${qf:-0}" "${qf2:-0}"
avg=$(((b1 - b0) / (p1 - p0 + 1)))
[ "$avg" -gt 4000 ] && ok "IPv6 GSO packets leave whole ($avg bytes per packet on h1's link)" ||
	fail "IPv6 GSO packets leave whole" "$avg bytes per packet on h1's link"
for h in "h1 v1" "h2 v2"; do ip netns exec ${h% *} ethtool -K ${h#* } tso off gso off gro off 2> /dev/null; done
xfer "integrity, offloads off" h2 10.0.1.2 h1 $((MB << 20))
for h in "h1 v1" "h2 v2"; do ip netns exec ${h% *} ethtool -K ${h#* } tso on gso on gro on 2> /dev/null; done
# Split after encapsulation (software GSO at h1's device): each piece is
# numbered by its IPv4 ID; h2's device merges them back with EQDS GRO.
ip netns exec h1 ethtool -K v1 tso off gso off 2> /dev/null
segs=$(stat h2 drop_segs)
xfer "integrity, split by GSO after encapsulation, GRO at the receiver" h2 10.0.1.2 h1 $((MB << 20))
expect_eq "every piece's seq recovered from its IP ID" "$segs" "$(stat h2 drop_segs)"
# Over IPv6, from its TCP sequence number: none refused, and no more taken
# for duplicates than a spurious EQDS retransmission makes now and then (a
# piece given a wrong number is taken for one, or fills the wrong hole).
# With GRO at h2, runs of pieces merged before decapsulation; without it,
# every piece numbered on its own.
for gro in on off; do
	ip netns exec h2 ethtool -K v2 gro $gro 2> /dev/null
	segs=$(stat h2 drop_segs) dup=$(stat h2 drop_dup) rx=$(stat h2 rx_packets)
	xfer "integrity, IPv6, split by GSO after encapsulation, GRO $gro" h2 fd00:1::2 h1 $((MB << 20))
	expect_eq "GRO $gro: no IPv6 piece refused" "$segs" "$(stat h2 drop_segs)"
	dup=$(($(stat h2 drop_dup) - dup)) rx=$(($(stat h2 rx_packets) - rx))
	[ $((dup * 1000)) -lt "$rx" ] &&
		ok "GRO $gro: IPv6 pieces numbered right ($dup of $rx packets taken for duplicates)" ||
		fail "GRO $gro: IPv6 pieces numbered right" "$dup of $rx packets taken for duplicates"
	eval "rx_gro_$gro=$rx"
done
# GRO merged them: fewer packets went up than arrived.
[ $((rx_gro_on * 2)) -lt "$rx_gro_off" ] &&
	ok "GRO merged IPv6 pieces ($rx_gro_on packets up with GRO, $rx_gro_off without)" ||
	fail "GRO merged IPv6 pieces" "$rx_gro_on packets up with GRO, $rx_gro_off without"
ip netns exec h2 ethtool -K v2 gro on 2> /dev/null
ip netns exec h1 ethtool -K v1 tso on gso on 2> /dev/null
ip netns exec h1 tc qdisc add dev v1 root netem loss 1%
xfer "integrity, 1% loss" h2 10.0.1.2 h1 $((MB << 20))
ip netns exec h1 tc qdisc change dev v1 root netem delay 1ms reorder 75% 50%
xfer "integrity, 25% reordering" h2 10.0.1.2 h1 $((MB << 20))
ip netns exec h1 tc qdisc change dev v1 root netem duplicate 5%
xfer "integrity, 5% duplication" h2 10.0.1.2 h1 $((MB << 20))
# Corrupted outer packets fail the outer UDP checksum: a loss to repair.
# netem splits a GSO packet to corrupt one piece, so the hole is inside a
# packet whose other pieces arrived; its retransmission must fill it. Resent
# whole, it arrived as one range overlapping what had arrived: a duplicate,
# dropped whole, and the hole waited for TCP.
sk=$(stat h2 reorder_skipped) nk=$(stat h2 nacks_sent)
ip netns exec h1 tc qdisc change dev v1 root netem corrupt 1%
xfer "integrity, 1% of outer packets corrupted" h2 10.0.1.2 h1 $((MB << 20))
sk2=$(stat h2 reorder_skipped) nk2=$(stat h2 nacks_sent)
sk=$((${sk2:-0} - ${sk:-0})) nk=$((${nk2:-0} - ${nk:-0}))
echo "h2 NACKed $nk holes, gave up on $sk"
[ "$nk" -gt 0 ] && [ $((sk * 4)) -le "$nk" ] &&
	ok "EQDS retransmissions filled the corrupted pieces' holes ($sk of $nk given up)" ||
	fail "EQDS retransmissions filled the corrupted pieces' holes" "$sk given up, $nk NACKs"
ip netns exec h1 tc qdisc change dev v1 root netem loss 5%
xfer "integrity, 5% loss" h2 10.0.1.2 h1 $((MB << 20))
ip netns exec h1 tc qdisc del dev v1 root
echo "h1: $(ctl h1 -j show | python3 -c 'import json,sys; s=json.load(sys.stdin)["stats"]; print({k: v for k, v in s.items() if v})')"
echo "h2: $(ctl h2 -j show | python3 -c 'import json,sys; s=json.load(sys.stdin)["stats"]; print({k: v for k, v in s.items() if v})')"

ns_del_all
check "rmmod after traffic" rmmod eqds
test_failed && exit 1
exit 0
