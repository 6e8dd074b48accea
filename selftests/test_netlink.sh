#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The per-namespace instance over generic netlink: module parameters seed
# every namespace, eqdsctl reads and writes one namespace at a time, writes
# need CAP_NET_ADMIN, malformed requests are rejected with extack and change
# nothing, and rmmod is clean after namespaces come and go.
source "$(dirname "$0")/lib.sh"
RAW="python3 $TOP/selftests/tools/genl_raw.py"
trap ns_del_all EXIT
eqds_deps
eqds_unload	# start from a clean slate whatever ran before

check_fails "insmod rejects a malformed dests parameter" "invalid|Invalid" \
	insmod "$EQDS_KO" dests=10.0.0.0/33
check_fails "insmod rejects port 0" "invalid|Invalid" insmod "$EQDS_KO" port=0
check "insmod with dests, port and pull_rate" \
	eqds_load dests=10.9.0.0/16,fd00:9::/64 port=7777 pull_rate=400

ns_add h1 h2
j=$(ctl h1 -j show)
expect_eq "new namespace starts with the module's dests" \
	"['10.9.0.0/16', 'fd00:9::/64']" "$(json_get "$j" "j['dests']")"
expect_eq "new namespace starts with the module's port" 7777 "$(json_get "$j" "j['port']")"
expect_eq "new namespace starts with the module's pull rate" 400 "$(json_get "$j" "j['pull_rate_mbit']")"
expect_eq "counters start at zero" 0 "$(json_get "$j" "sum(j['stats'].values())")"

check "eqdsctl set in h1" ctl h1 set port 7001 dests 10.1.0.0/24,fd00:1::/64 window 64
check "eqdsctl set in h2" ctl h2 set port 7002 dests 10.2.0.0/16 mode burst idle-timeout 500
j1=$(ctl h1 -j show)
j2=$(ctl h2 -j show)
expect_eq "h1 shows its own port" 7001 "$(json_get "$j1" "j['port']")"
expect_eq "h2 shows its own port" 7002 "$(json_get "$j2" "j['port']")"
expect_eq "h1 shows its own dests" "['10.1.0.0/24', 'fd00:1::/64']" "$(json_get "$j1" "j['dests']")"
expect_eq "h2 shows its own dests" "['10.2.0.0/16']" "$(json_get "$j2" "j['dests']")"
expect_eq "h1 window set, mode untouched" "64 rts" "$(json_get "$j1" "'%d %s' % (j['window'], j['mode'])")"
expect_eq "h2 mode and idle timeout set" "burst 500" \
	"$(json_get "$j2" "'%s %d' % (j['mode'], j['idle_timeout_ms'])")"
expect_eq "the initial namespace is untouched" 7777 "$(json_get "$("$EQDSCTL" -j show)" "j['port']")"
# -n NETNS, as ip -n: the same as running inside the namespace.
expect_eq "eqdsctl -n h2 shows h2's port" 7002 "$(json_get "$("$EQDSCTL" -n h2 -j show)" "j['port']")"
check "eqdsctl -n h1 set writes h1" "$EQDSCTL" -n h1 set window 65
expect_eq "... and h1 has it" 65 "$(json_get "$(ctl h1 -j show)" "j['window']")"
check "eqdsctl -n h1 set window back" "$EQDSCTL" -n h1 set window 64
check_fails "eqdsctl -n names a missing namespace as ip does" \
	'Cannot open network namespace "nosuchns": No such file' "$EQDSCTL" -n nosuchns show
# save and restore (wg showconf/setconf): a saved file brings the settings
# and the policy back, in one request that the kernel takes whole or not at all.
conf=/tmp/netlink.conf.$$
check "a policy rule in h1 to save" ctl h1 policy add 10.0.1.0/24 weight 3
check "eqdsctl save h1" bash -c "'$EQDSCTL' -n h1 save > $conf"
saved=$(cat $conf)
check "h1 changed after the save" ctl h1 set window 99 port 7099
check "h1's policy changed after the save" ctl h1 policy replace 10.0.1.0/24 weight 5
check "eqdsctl restore h1" "$EQDSCTL" -n h1 restore $conf
expect_eq "restored: h1 saves the same again" "$saved" "$(ctl h1 save)"
printf 'set window 98\nset tcp-ecn-min 65535\npolicy flush\n' > $conf
"$EQDSCTL" -n h1 restore $conf > /dev/null 2>&1
expect_eq "a restore the kernel refuses exits 2" 2 $?
expect_eq "... and changes nothing (not even its valid lines)" "$saved" "$(ctl h1 save)"
printf 'set window 98\ntunnel list\n' > $conf
"$EQDSCTL" -n h1 restore $conf > /dev/null 2>&1
expect_eq "a restore file with a bad line exits 1" 1 $?
expect_eq "... and changes nothing" "$saved" "$(ctl h1 save)"
rm -f $conf
check "h1's policy flushed again" ctl h1 policy flush
check "host bits of a prefix are masked" ctl h1 set dests 10.1.2.3/24
expect_eq "10.1.2.3/24 reads back as 10.1.2.0/24" "['10.1.2.0/24']" \
	"$(json_get "$(ctl h1 -j show)" "j['dests']")"
check "dests none clears the list" ctl h1 set dests none
expect_eq "no dests after clearing" "[]" "$(json_get "$(ctl h1 -j show)" "j['dests']")"
check "human output names the version" bash -c "ctl() { ip netns exec h2 $EQDSCTL \"\$@\"; }; ctl show | grep -q 'version'"

# Unprivileged: reading works, writing is refused with a clear message.
unpriv=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all)
check "an unprivileged user can read" ip netns exec h1 "${unpriv[@]}" "$EQDSCTL" show
check_fails "an unprivileged user gets 'permission denied' from set" "permission denied" \
	ip netns exec h1 "${unpriv[@]}" "$EQDSCTL" set port 9
expect_eq "the refused write changed nothing" 7001 "$(json_get "$(ctl h1 -j show)" "j['port']")"

# Malformed requests, each rejected by the kernel with an extack message.
before=$(ctl h1 -j show)
bad() {	# description errno-pattern msg-pattern attrs...
	local desc=$1 epat=$2 mpat=$3 r
	shift 3
	r=$(ip netns exec h1 $RAW EQDS_CMD_SET_INSTANCE "$@" 2>&1)
	if [[ $r =~ errno=($epat)\  ]] && grep -qiE -- "$mpat" <<< "$r"; then
		ok "rejected: $desc"
	else
		fail "rejected: $desc" "got '$r'"
	fi
}
bad "port 0" "22|34" "min|range" EQDS_A_PORT:u16:0
bad "port with the wrong width" "22|34" "length|type|invalid" EQDS_A_PORT:u32:80
bad "window 0" "22|34" "range|min" EQDS_A_WINDOW:u32:0
bad "window above the maximum" "22|34" "range|max" EQDS_A_WINDOW:u32:70000
bad "unknown mode" "22|34" "range|max" EQDS_A_MODE:u8:9
bad "idle timeout too short" "22|34" "range|min" EQDS_A_IDLE_TIMEOUT:u32:5
bad "read-only version" 22 "read-only" EQDS_A_VERSION:str:9.9
bad "read-only stats" 22 "read-only" "EQDS_A_STATS:rawnest:()"
bad "unknown attribute" "22|34" "unknown|unexpected|attribute|type" 200:u32:1
bad "IPv4 dest with a 16-byte address" 22 "4 bytes" \
	"EQDS_A_DESTS:nest:(1:nest:(EQDS_DEST_A_FAMILY:u16:2,EQDS_DEST_A_ADDR:hex:fd000000000000000000000000000000,EQDS_DEST_A_PREFIXLEN:u8:64))"
bad "dest without a prefix length" 22 "needs" \
	"EQDS_A_DESTS:nest:(1:nest:(EQDS_DEST_A_FAMILY:u16:2,EQDS_DEST_A_ADDR:hex:0a000000))"
bad "IPv4 prefix length 33" 22 "too long" \
	"EQDS_A_DESTS:nest:(1:nest:(EQDS_DEST_A_FAMILY:u16:2,EQDS_DEST_A_ADDR:hex:0a000000,EQDS_DEST_A_PREFIXLEN:u8:33))"
bad "unknown address family" 22 "AF_INET" \
	"EQDS_A_DESTS:nest:(1:nest:(EQDS_DEST_A_FAMILY:u16:99,EQDS_DEST_A_ADDR:hex:0a000000,EQDS_DEST_A_PREFIXLEN:u8:8))"
bad "a good port with a bad window: nothing applied" "22|34" "range|min" \
	EQDS_A_PORT:u16:4444 EQDS_A_WINDOW:u32:0
after=$(ctl h1 -j show)
expect_eq "rejected requests changed nothing" "$before" "$after"

# Namespaces with state come and go; the module unloads afterwards.
ns_del_all
for i in 1 2 3 4 5; do ns_add "tmp$i"; ctl "tmp$i" set port $((8000 + i)) >/dev/null; done
ns_del_all
check "rmmod after namespaces were created and deleted" rmmod eqds
check_fails "eqdsctl says the module is not loaded" "not loaded" "$EQDSCTL" show
test_failed && exit 1
exit 0
