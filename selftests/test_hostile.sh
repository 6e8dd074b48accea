#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Hostile and broken input (Documentation/threat-model.rst).
# (a) While h1 sends to h2 over EQDS, an attacker m on another link sends h2
#     thousands of malformed and forged EQDS packets from spoofed sources:
#     truncated headers, illegal flag combinations, huge and wrapped
#     numbers, broken inner headers, random bytes, valid packets from hosts
#     that are not peers, data for tunnels h2 does not know, control packets
#     with guessed epochs. Each packet belongs to a class whose fate the
#     design decides, and h2's per-reason drop counters must account for
#     every one of them exactly; the transfer must arrive intact.
# (b) Forged pulls at a sender, spoofing its receiver: off path (guessed
#     epochs) and on path (the real epoch, sniffed, with pull numbers far
#     ahead): every one is counted and dropped, and the sender does not go
#     faster than its receiver pulls.
# (c) Forged SYNs for newer epochs, spoofing the sender, off path: once they
#     reset the receiver's tunnel. Now each is dropped and at most one
#     challenge a millisecond goes to the real sender, which takes it as an
#     ack: the sender never restarts, and its transfer keeps its pace.
# (d) Memory of spoofed SYNs: a receiving tunnel's ring of held packets (512
#     pointers, one kmalloc-4k object) is allocated only for a packet that
#     may be held, ahead of a hole; a spoofed SYN that is a duplicate or
#     lies beyond the window creates a tunnel without one.
# EQDS_HOSTILE_PARTS=a,c runs only those parts.
source "$(dirname "$0")/lib.sh"
trap ns_del_all EXIT
HOSTILE="python3 $TOP/selftests/tools/eqds_hostile.py"
COUNT=${EQDS_HOSTILE_COUNT:-6000}
# The parts to run (EQDS_HOSTILE_PARTS, default all): each stands alone.
PARTS=${EQDS_HOSTILE_PARTS:-a,b,c,d}
part() { [[ ",$PARTS," == *",$1,"* ]]; }
out=/tmp/hostile.$$

# counters NS: all of the namespace's counters as "name value" lines.
counters() {
	ctl "$1" -j show | sed -n 's/.*"stats":{\([^}]*\)}.*/\1/p' | tr -d '"' | tr ',:' '\n '
}
# delta BEFORE AFTER NAME: how much counter NAME grew between two snapshots.
delta() {
	echo $(($(awk -v k="$3" '$1 == k {print $2}' <<< "$2") - \
		$(awk -v k="$3" '$1 == k {print $2}' <<< "$1")))
}
no_rp_filter() {
	ip netns exec "$1" sysctl -qw net.ipv4.conf.all.rp_filter=0 \
		net.ipv4.conf.default.rp_filter=0
	for dev in $(ip netns exec "$1" ls /sys/class/net); do
		ip netns exec "$1" sysctl -qw "net.ipv4.conf.$dev.rp_filter=0"
	done
}

check "load eqds (new tunnels unlimited in rate for (a))" eqds_load tunnel_rate=1000000
two_hosts || { fail "two hosts"; exit 1; }
ns_add m
# m reaches h2 (10.0.1.2) through h2's second link; h2 reaches the spoofed
# peers (10.2.0.0/16) and outsiders (10.9.0.0/16) through m, which drops
# whatever h2 answers them.
veth m e0 10.3.0.2/24 h2 e2 10.3.0.1/24
veth m e1 10.4.0.2/24 h1 e1 10.4.0.1/24
ip -n m route add 10.0.1.2/32 via 10.3.0.1
ip -n m route add 10.0.1.1/32 via 10.4.0.1
ip -n h2 route add 10.2.0.0/16 via 10.3.0.2
ip -n h2 route add 10.9.0.0/16 via 10.3.0.2
no_rp_filter h1
no_rp_filter h2
check "h2 accepts 10.2.0.0/16 as peers too" ctl h2 set dests 10.0.1.1/32,fd00:1::1/128,10.2.0.0/16

# ---- (a) the barrage, during transfers ----
if part a; then
# Idle tunnels must outlive the barrage (half-open ones do not, see below).
check "h2: idle timeout 60 s" ctl h2 set idle-timeout 60000
MB=${EQDS_HOSTILE_MB:-40}
stop=/tmp/hostile.stop.$$
rm -f $stop
# Transfers one after another until the barrage is over: python under
# emulation sends slowly, and its pace varies.
(n=0; until [ -e $stop ]; do n=$((n + 1)); xfer "transfer $n during the barrage" h2 10.0.1.2 \
	h1 $((MB << 20)); done) > $stop.log 3> $stop.res &
xpid=$!
for i in $(seq 100); do
	[ "$(stat h2 rx_packets)" -gt 1000 ] 2> /dev/null && break
	sleep 0.1
done
# The legitimate transfer may lose a packet to the reorder window too (a
# retransmission that comes after the window moved on): the drop tracepoint
# tells them apart by peer.
TRACING=/sys/kernel/tracing
drop_ev=$TRACING/events/eqds/eqds_drop
h2ns=$(ip netns exec h2 readlink /proc/self/ns/net | tr -dc 0-9)
echo > $TRACING/trace
echo 1 > $drop_ev/enable
b2=$(counters h2) b1=$(counters h1)
drops0=$(if_stat h2 e2 rx_dropped)
exp=$(ip netns exec m $HOSTILE barrage --dst 10.0.1.2 --port 6666 --peers 10.2.0.0/16 \
	--outside 10.9.0.0/16 --legit 10.0.1.1 --count "$COUNT" --seed $RANDOM)
echo "barrage: $exp"
# The packets are in h2's backlog or being processed: let it settle.
sleep 1
a2=$(counters h2) a1=$(counters h1)
echo 0 > $drop_ev/enable
# The barrage's drops all fall between the snapshots; the trace, a little
# longer, counts them exactly. The rest of the counter's growth is the
# transfer's.
hostile_window=$(grep -c " eqds_drop: netns=$h2ns reason=window peer=::ffff:10\.2\." $TRACING/trace)
legit_window=$(($(delta "$b2" "$a2" drop_window) - hostile_window))
echo > $TRACING/trace
touch $stop
wait $xpid
cat $stop.log
results_from $stop.res
rm -f $stop $stop.log $stop.res
sent=$(json_get "$exp" "j['sent']")
[ "$sent" -ge "$COUNT" ] && ok "m sent $sent hostile packets" || fail "m sent $sent packets"
expect_eq "h2's link lost none of them" "$drops0" "$(if_stat h2 e2 rx_dropped)"
echo "h2 counters grew by: $(for k in $(awk '{print $1}' <<< "$a2"); do
	d=$(delta "$b2" "$a2" "$k"); [ "$d" != 0 ] && printf '%s=%s ' "$k" "$d"; done)"

echo "h1 counters grew by: $(for k in $(awk '{print $1}' <<< "$a1"); do
	d=$(delta "$b1" "$a1" "$k"); [ "$d" != 0 ] && printf '%s=%s ' "$k" "$d"; done)"

# Counters the legitimate transfer does not touch: exact.
for k in drop_decode drop_peer drop_inner drop_unknown drop_stale drop_segs \
	tunnels_created drop_tunnel_limit drop_tunnel_rate drop_ctrl drop_nomem; do
	want=$(json_get "$exp" "j['expect'].get('$k', 0)")
	expect_eq "h2 $k counts the hostile packets of its class exactly ($want)" \
		"$want" "$(delta "$b2" "$a2" $k)"
done
want=$(json_get "$exp" "j['expect'].get('drop_window', 0)")
expect_eq "h2 drop_window: the spoofed peers' packets out of the window, exactly ($want)" \
	"$want" "$hostile_window"
[ "$legit_window" -ge 0 ] &&
	ok "h2 drop_window counts them, and $legit_window of the transfer's own" ||
	fail "h2 drop_window counts them" "the trace saw $hostile_window, the counter grew by $((hostile_window + legit_window))"
# SYNs for another epoch: exact, except when a legitimate tunnel between h1
# and h2 began a new incarnation meanwhile (the reverse one is reaped as
# half open between transfers). Its first SYNs are then challenged too, and
# the resynchronisation ends with h1's FIN (fins_rcvd): a few per FIN.
fins=$(delta "$b2" "$a2" fins_rcvd)
for k in drop_epoch challenges_sent; do
	want=$(json_get "$exp" "j['expect'].get('$k', 0)")
	got=$(delta "$b2" "$a2" $k)
	[ "$got" -ge "$want" ] && [ "$got" -le $((want + 4 * fins)) ] &&
		ok "h2 $k counts the hostile packets of its class ($want; $got with $fins resyncs)" ||
		fail "h2 $k counts the hostile packets of its class" "want $want (+ up to $((4 * fins)) from $fins resyncs), got $got"
done
legit_syns=$(($(delta "$b2" "$a2" drop_epoch) - $(json_get "$exp" "j['expect'].get('drop_epoch', 0)")))
# Every packet is accounted for: rx_drops is the sum of the receive drop
# reasons (the transfer may add duplicates and its own resyncs' SYNs), and
# the rest were delivered (a valid first packet from a spoofed peer address)
# or are control packets dropped as stale (not in rx_drops).
rxd=$(delta "$b2" "$a2" rx_drops)
dup=$(delta "$b2" "$a2" drop_dup)
want=$(json_get "$exp" "j['expect']['rx_drops']")
expect_eq "h2 rx_drops: every hostile data packet dropped, plus the transfer's duplicates" \
	"$((want + dup + legit_syns + legit_window))" "$rxd"
acc=$(json_get "$exp" "j['expect'].get('rx_packets', 0)")
stale=$(json_get "$exp" "j['expect'].get('drop_stale', 0)")
expect_eq "every packet sent is accounted for (dropped by reason, or accepted)" "$sent" \
	"$((want + acc + stale))"
[ "$(delta "$b2" "$a2" rx_packets)" -ge "$acc" ] &&
	ok "the $acc valid first packets from spoofed peers were delivered" ||
	fail "valid first packets from spoofed peers delivered" "rx_packets grew less than $acc"
# The RSTs h2 sent for data of unknown tunnels: those for the legitimate
# sender's address reached h1, whose tunnel has another epoch.
rsts=$(json_get "$exp" "j['expect'].get('rsts_sent', 0)")
expect_eq "h2 answered every data packet of an unknown tunnel with an RST ($rsts)" \
	"$rsts" "$(delta "$b2" "$a2" rsts_sent)"
legit=$(json_get "$exp" "j['classes'].get('legit_addr_other_epoch', 0)")
# ... and so did the FINs h2 sent while its own tunnel to h1 was new: the
# forged acks from h1's address (guessed epochs) looked like challenges.
reflected=$(delta "$b2" "$a2" fins_sent)
# ... and so did the challenges h2 sent h1 when the legitimate tunnel
# resynchronised (above): acks for the epoch h1 had left, which h1 answers
# with its FIN.
resync=$(($(delta "$b2" "$a2" challenges_sent) - $(json_get "$exp" "j['expect'].get('challenges_sent', 0)")))
expect_eq "h1 dropped as stale each RST for an epoch it does not have ($legit), each FIN ($reflected) and each resync's challenge ($resync)" \
	"$((legit + reflected + resync))" "$(delta "$b1" "$a1" drop_stale)"
expect_eq "h1 did not restart" 0 "$(delta "$b1" "$a1" restarts)"
expect_eq "h1 refused no credit for forged pulls (none had its epoch)" \
	0 "$(delta "$b1" "$a1" drop_ctrl)"

# The spoofed peers' tunnels never got past their first packet: they are
# half open, and reaped after a second although the idle timeout is 60 s.
t=$(stat h2 tunnels)
for i in $(seq 50); do [ "$(stat h2 tunnels)" -le 2 ] && break; sleep 0.1; done
n=$(stat h2 tunnels)
[ "$n" -le 2 ] && ok "h2's half-open tunnels for spoofed peers reaped ($t -> $n)" ||
	fail "h2's half-open tunnels for spoofed peers reaped" "$t -> $n"
check "h2: idle timeout back to 10 s" ctl h2 set idle-timeout 10000
fi

# ---- (b) forged pulls at the sender h1, spoofing h2 ----
if part b; then
RATE=${EQDS_HOSTILE_RATE:-8}
check "h2 pulls at $RATE Mbit/s" ctl h2 set pull-rate "$RATE"
PMB=${EQDS_HOSTILE_PULL_MB:-4}
# pulled DESC ATTACK...: a transfer h1 -> h2 during the attack; its rate must
# stay at the pull rate.
pulled() {
	local desc=$1 t0 secs mbit
	shift
	t0=$(date +%s.%N)
	xfer_bg "$desc" h2 10.0.1.2 h1 $((PMB << 20))
	sleep 0.3
	"$@" > "$out.a"
	xfer_wait
	secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{print b-a}')
	mbit=$(awk -v s="$secs" -v m="$PMB" 'BEGIN{printf "%d", m * 8 * 1.048576 / s}')
	echo "$desc: $PMB MiB in ${secs}s: $mbit Mbit/s; attack: $(cat "$out.a")"
	[ "$mbit" -le $((RATE * 115 / 100)) ] &&
		ok "$desc: h1 sent at $mbit Mbit/s, no faster than h2 pulls ($RATE)" ||
		fail "$desc: h1 sent faster than h2 pulls" "$mbit Mbit/s > $RATE"
}
p0=$(counters h1)
pulled "off-path forged pulls (guessed epochs)" \
	ip netns exec m $HOSTILE pulls --dst 10.0.1.1 --src 10.0.1.2 --count 3000 --pps 2000
p1=$(counters h1)
n=$(json_get "$(cat "$out.a")" "j['sent']")
expect_eq "h1 dropped each off-path pull as stale ($n)" "$n" "$(delta "$p0" "$p1" drop_stale)"
expect_eq "h1 counted none as impossible numbers" 0 "$(delta "$p0" "$p1" drop_ctrl)"

# On path: learn the epoch of h1's tunnel from one of its data packets.
sniff_epoch() {
	ip netns exec h2 $HOSTILE sniff --src 10.0.1.1 --port 6666 --timeout 20 > "$out.e" &
	local s=$!
	sleep 0.3
	ip netns exec h1 ping -c 3 -i 0.2 -q 10.0.1.2 > /dev/null
	wait $s
}
onpath() {
	local epoch
	sniff_epoch
	epoch=$(cat "$out.e")
	echo "h1's epoch: $epoch" >&2
	ip netns exec m $HOSTILE pulls --dst 10.0.1.1 --src 10.0.1.2 --count 2000 --pps 2000 \
		--epoch "$epoch"
}
p0=$(counters h1)
pulled "on-path forged pulls (the real epoch, pull numbers far ahead)" onpath
p1=$(counters h1)
n=$(json_get "$(cat "$out.a")" "j['sent']")
expect_eq "h1 dropped each on-path pull as impossible ($n)" "$n" "$(delta "$p0" "$p1" drop_ctrl)"
expect_eq "h1 did not restart" 0 "$(delta "$p0" "$p1" restarts)"
rm -f "$out".*
check "h2 pulls at the link rate again" ctl h2 set pull-rate auto
fi

# ---- (c) forged SYNs with newer epochs at h2, spoofing h1 ----
if part c; then
# h2 pulls at 100 Mbit/s, so the transfer's pace is the receiver's choice and
# the same with and without the attack, unless the attack disturbs it.
SRATE=${EQDS_HOSTILE_SYN_RATE:-100}
SMB=${EQDS_HOSTILE_SYN_MB:-30}
SPPS=${EQDS_HOSTILE_SYN_PPS:-1000}
check "h2 pulls at $SRATE Mbit/s" ctl h2 set pull-rate "$SRATE"
# The attack is on an established tunnel: the baseline's must not idle out
# before the attacked transfer, however slowly the guest starts it. (With no
# tunnel, the first SYN from h1's address begins one, a forged SYN too:
# Documentation/threat-model.rst, Epoch.)
check "h1, h2: idle timeout 60 s" eval "ctl h1 set idle-timeout 60000 && ctl h2 set idle-timeout 60000"
# paced DESC: a transfer h1 -> h2; its rate in Mbit/s goes to $out.rate.
paced() {
	local t0 secs
	t0=$(date +%s.%N)
	xfer "$1" h2 10.0.1.2 h1 $((SMB << 20))
	secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{print b-a}')
	awk -v s="$secs" -v m="$SMB" 'BEGIN{printf "%d\n", m * 8 * 1.048576 / s}' > "$out.rate"
}
# Tunnel events, with the test's steps among them (appended, in order),
# from before the baseline: listening when the attack starts.
mark() { echo "-- $* $(date +%T.%N)" | tee -a "$out.mon1" >> "$out.mon2"; }
ip netns exec h1 "$EQDSCTL" monitor >> "$out.mon1" 2>&1 &
mon1=$!
ip netns exec h2 "$EQDSCTL" monitor >> "$out.mon2" 2>&1 &
mon2=$!
# The baseline runs beside the same flood sent to a port nobody listens on:
# under emulation the attacker's CPU alone slows the transfer, and only what
# EQDS does with the SYNs is under test. (Dropped before UDP: no ICMP errors.)
ip netns exec h2 nft add table inet decoy
ip netns exec h2 nft add chain inet decoy in "{ type filter hook input priority 0; }"
ip netns exec h2 nft add rule inet decoy in udp dport 6667 drop
rm -f "$out.stop"
ip netns exec m $HOSTILE syns --dst 10.0.1.2 --src 10.0.1.1 --count 1000000 --pps "$SPPS" \
	--port 6667 --stop-file "$out.stop" > /dev/null &
apid=$!
sleep 0.5
paced "h1 -> h2 at the pull rate, the flood to another port"
base=$(cat "$out.rate")
touch "$out.stop"
wait $apid
ip netns exec h2 nft delete table inet decoy
c1=$(counters h1) c2=$(counters h2)
rm -f "$out.stop"
mark "attack starts"
ip netns exec m $HOSTILE syns --dst 10.0.1.2 --src 10.0.1.1 --count 1000000 --pps "$SPPS" \
	--stop-file "$out.stop" > "$out.a" &
apid=$!
sleep 0.5
paced "h1 -> h2 while m forges h1's SYNs with newer epochs"
attacked=$(cat "$out.rate")
mark "transfer done"
touch "$out.stop"
wait $apid
sleep 0.5
d1=$(counters h1) d2=$(counters h2)
mark "counted"
kill $mon1 $mon2 2> /dev/null
wait $mon1 $mon2 2> /dev/null
n=$(json_get "$(cat "$out.a")" "j['sent']")
echo "h1 counters grew by: $(for k in $(awk '{print $1}' <<< "$d1"); do
	d=$(delta "$c1" "$d1" "$k"); [ "$d" != 0 ] && printf '%s=%s ' "$k" "$d"; done)"
echo "h2 counters grew by: $(for k in $(awk '{print $1}' <<< "$d2"); do
	d=$(delta "$c2" "$d2" "$k"); [ "$d" != 0 ] && printf '%s=%s ' "$k" "$d"; done)"
echo "h1's tunnel events:"; sed 's/^/  /' "$out.mon1"
echo "h2's tunnel events:"; sed 's/^/  /' "$out.mon2"
expect_eq "h2's tunnel from h1 lived through the attack (not created or restarted)" "" \
	"$(sed -n '/^-- attack starts/,$p' "$out.mon2" | grep -E '^(new|restart) rx 10\.0\.1\.1 ')"
echo "forged SYNs: $(cat "$out.a"); h1 -> h2: $base Mbit/s beside the decoy flood," \
	"$attacked Mbit/s attacked"
echo "h2: drop_epoch +$(delta "$c2" "$d2" drop_epoch)" \
	"challenges_sent +$(delta "$c2" "$d2" challenges_sent)" \
	"fins_rcvd +$(delta "$c2" "$d2" fins_rcvd); h1: restarts +$(delta "$c1" "$d1" restarts)" \
	"rsts_rcvd +$(delta "$c1" "$d1" rsts_rcvd) drop_stale +$(delta "$c1" "$d1" drop_stale)"
[ "$n" -ge 100 ] && ok "m forged $n SYNs from h1's address" || fail "m forged SYNs" "only $n"
expect_eq "h2 dropped every forged SYN as another epoch ($n)" "$n" \
	"$(delta "$c2" "$d2" drop_epoch)"
ch=$(delta "$c2" "$d2" challenges_sent)
[ "$ch" -ge 1 ] && [ "$ch" -le "$n" ] && ok "h2 challenged h1 $ch times for $n forged SYNs" ||
	fail "h2 challenged h1, at most once per forged SYN" "$ch challenges, $n SYNs"
expect_eq "h1 never restarted" 0 "$(delta "$c1" "$d1" restarts)"
expect_eq "h1 got no RST" 0 "$(delta "$c1" "$d1" rsts_rcvd)"
expect_eq "h1 took every challenge as an ack (none stale)" 0 "$(delta "$c1" "$d1" drop_stale)"
expect_eq "h1 disowned nothing" 0 "$(delta "$c1" "$d1" fins_sent)"
[ "$attacked" -ge $((base * 85 / 100)) ] &&
	ok "h1 kept its pace under attack ($attacked of $base Mbit/s)" ||
	fail "h1 kept its pace under attack" "$attacked Mbit/s against $base with the decoy flood"
rm -f "$out".*
check "h2 pulls at the link rate again" ctl h2 set pull-rate auto
check "h1, h2: idle timeout back to 10 s" eval "ctl h1 set idle-timeout 10000 && ctl h2 set idle-timeout 10000"
fi

# ---- (d) the ring of held packets, only for a packet that may be held ----
if part d; then
params=/sys/module/eqds/parameters
half0=$(cat $params/half_open_ms)
# kmalloc-4k objects in use (all of its copies, with random kmalloc caches)
k4() { awk '$1 ~ /^kmalloc(-rnd-[0-9]+)?-4k$/ {n += $2} END {print n + 0}' /proc/slabinfo; }
# reap_half_open: the half-open tunnels of the last flood go (for a moment
# a short half-open timeout), so the next flood's sources are new peers.
reap_half_open() {
	echo 100 > $params/half_open_ms
	wait_until 20 stat_is h2 tunnels -le "$t0" ||
		fail "half-open tunnels reaped" "$(stat h2 tunnels) left, want $t0"
	echo 600000 > $params/half_open_ms
}
# rings WHERE: one SYN from each of 1000 spoofed peers, its seq at WHERE
# (eqds_hostile.py flood --seq); prints kmalloc-4k objects gained per
# tunnel created, in hundredths. The tunnels stay until reaped.
rings() {
	local c0 k0 c k
	c0=$(stat h2 tunnels_created) k0=$(k4)
	ip netns exec m $HOSTILE flood --dst 10.0.1.2 --peers 10.2.0.0/16 \
		--outside 10.9.0.0/16 --count 2000 --pps 20000 --seq "$1" \
		--seed $RANDOM > /dev/null
	sleep 0.5
	c=$(($(stat h2 tunnels_created) - c0)) k=$(($(k4) - k0))
	echo "SYNs $1 of the ISN: $c tunnels created, kmalloc-4k objects $k more" >&2
	[ "$c" -ge 500 ] && echo $((k * 100 / c)) || echo "too few tunnels: $c"
}
check "h2: idle timeout 600 s" ctl h2 set idle-timeout 600000
t0=$(stat h2 tunnels)
echo 600000 > $params/half_open_ms
# Held ahead of the hole at the ISN: each tunnel takes its ring.
r=$(rings ahead)
[ "$r" -ge 75 ] 2> /dev/null && ok "a SYN held ahead of a hole takes a ring ($r/100 a tunnel)" ||
	fail "a SYN held ahead of a hole takes a ring" "$r/100 a tunnel"
reap_half_open
# A duplicate (nothing before the ISN was sent) is acknowledged again,
# and one beyond the window dropped, without a ring.
for where in behind far; do
	r=$(rings $where)
	[ "$r" -le 25 ] 2> /dev/null && ok "a SYN $where of the ISN takes no ring ($r/100 a tunnel)" ||
		fail "a SYN $where of the ISN takes no ring" "$r/100 a tunnel"
	reap_half_open
done
echo "$half0" > $params/half_open_ms
check "h2: idle timeout back to 10 s" ctl h2 set idle-timeout 10000
fi
