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
expect_eq "counters start at zero" 0 \
	"$(json_get "$j" "sum(v for k, v in j['stats'].items() if k != 'pull_rate')")"
expect_eq "the pull_rate gauge is the module's pull rate" 400000000 \
	"$(json_get "$j" "j['stats']['pull_rate']")"

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

# ---- the family driven from its YNL spec alone ----
# The kernel's generic client (tools/ynl/cli.py) reads uapi/eqds.yaml and
# nothing else: every operation, attribute and event of the spec is used
# here, and what it decodes is compared with what eqdsctl reports
# (selftests/tools/ynl_compare.py).
CMP="python3 $TOP/selftests/tools/ynl_compare.py"
ns_add h3 h4
# The example of Documentation/netlink.rst, verbatim.
check "ynl: the documentation's example sets h3" bash -c "cd '$TOP' && ip netns exec h3 \
python3 tools/ynl/cli.py --spec uapi/eqds.yaml --schema tools/ynl/genetlink-legacy.yaml \
--do set-instance --json '{\"window\": 64, \"dests\": [{\"family\": 2, \"addr\": \"0a000000\", \"prefixlen\": 24}]}'"
expect_eq "... and eqdsctl sees it" "64 ['10.0.0.0/24']" \
	"$(json_get "$(ctl h3 -j show)" "'%d %s' % (j['window'], j['dests'])")"
ALL='{"port": 7003, "pull-rate": 300, "mode": "burst", "window": 77,
 "idle-timeout": 600000, "headroom": 7, "queued-limit": 1234,
 "class": [{"id": "tcp", "queue-limit": 90, "ecn-min": 20, "ecn-max": 40, "tc-priority": 3},
           {"id": "ll", "queue-limit": 12, "ecn-min": 2, "ecn-max": 4, "tc-priority": 5,
            "priority": 4, "mark": 16, "mark-mask": 48}],
 "dests": [{"family": 2, "addr": "0a030000", "prefixlen": 16},
           {"family": 10, "addr": "fd000003000000000000000000000000", "prefixlen": 64}],
 "policy": [{"family": 2, "addr": "0a030201", "prefixlen": 32, "weight": 3, "prio": 0, "rate": 50},
            {"family": 10, "addr": "fd000003000000000000000000000000", "prefixlen": 64,
             "weight": 2, "prio": 2, "rate": 0}]}'
expect_eq "ynl: set-instance with every writable attribute" "errno=0 msg=" \
	"$(ynl_req h3 set-instance "$ALL")"
check "... eqdsctl shows each of them" $CMP set "$ALL" "$(ctl h3 -j show)" "$(ctl h3 -j policy show)"
check "ynl: get-instance (do and dump) agrees with eqdsctl, every attribute of the reply" \
	ip netns exec h3 $CMP instance "$(ctl h3 -j show)" "$(ctl h3 -j policy show)"
# Policy rules: the list is replaced whole, so a rule is added or deleted by
# sending the list with or without it.
P1='{"family": 2, "addr": "0a030201", "prefixlen": 32, "weight": 3, "prio": 0, "rate": 50}'
P3='{"family": 2, "addr": "0a030300", "prefixlen": 24, "weight": 5, "prio": 1, "rate": 0}'
expect_eq "ynl: policy replaced by two rules" "errno=0 msg=" \
	"$(ynl_req h3 set-instance "{\"policy\": [$P1, $P3]}")"
check "... eqdsctl shows them" $CMP set "{\"policy\": [$P1, $P3]}" "$(ctl h3 -j show)" \
	"$(ctl h3 -j policy show)"
expect_eq "ynl: policy without the first rule" "errno=0 msg=" \
	"$(ynl_req h3 set-instance "{\"policy\": [$P3]}")"
check "... eqdsctl shows the other" $CMP set "{\"policy\": [$P3]}" "$(ctl h3 -j show)" \
	"$(ctl h3 -j policy show)"
# The host's bound on h3: set-bound from the initial namespace, naming h3 by
# a descriptor the client inherits.
expect_eq "ynl: set-bound on h3 from the initial namespace" "errno=0 msg=" \
	"$(ynl_req - set-bound '{"netns-fd": 9, "bound": {"pull-rate": 200, "max-weight": 4, "min-prio": 1}}' \
	9< /run/netns/h3)"
expect_eq "... eqdsctl shows the bound" "200 4 1" \
	"$(json_get "$(ctl h3 -j policy show)" "'%d %d %d' % tuple(j['bound'].values())")"
check "ynl: get-instance with policy and bound agrees with eqdsctl" \
	ip netns exec h3 $CMP instance "$(ctl h3 -j show)" "$(ctl h3 -j policy show)"
expect_eq "ynl: set-bound with an empty bound removes it" "errno=0 msg=" \
	"$(ynl_req - set-bound '{"netns-fd": 9, "bound": {}}' 9< /run/netns/h3)"
expect_eq "ynl: policy flushed with an empty list" "errno=0 msg=" \
	"$(ynl_req h3 set-instance '{"policy": []}')"
expect_eq "... eqdsctl shows no rule and no bound" "[] 0 0 0" \
	"$(json_get "$(ctl h3 -j policy show)" "'%s %d %d %d' % ((j['policy'],) + tuple(j['bound'].values()))")"

# Tunnels between h3 and h4, and the events of the "tunnels" group: the
# client subscribes for a while, eqdsctl monitor listens to the same.
veth h3 v3 10.3.0.3/16 h4 v4 10.3.0.4/16
ip -n h3 addr add fd00:3::3/64 dev v3 nodad
ip -n h4 addr add fd00:3::4/64 dev v4 nodad
expect_eq "ynl: h4's dests" "errno=0 msg=" "$(ynl_req h4 set-instance \
	'{"port": 7003, "idle-timeout": 600000, "dests": [{"family": 2, "addr": "0a030003", "prefixlen": 32},
	{"family": 10, "addr": "fd000003000000000000000000000003", "prefixlen": 128}]}')"
ctl h3 -j monitor > /tmp/nl.ctlmon.$$ 2>&1 &
ctl_mon=$!
ynl h3 --subscribe tunnels --sleep 20 > /tmp/nl.ynlmon.$$ 2>&1 &
ynl_mon=$!
# The client joins the group, then sleeps: once it is in clock_nanosleep
# (syscall 230) it hears every event. Python starts slowly under emulation.
for _ in $(seq 300); do
	p=$(pgrep -f -- 'cli.py .*--subscribe tunnels' | head -1)
	[ -n "$p" ] && read -r nr _ < "/proc/$p/syscall" && [ "$nr" = 230 ] && break
	sleep 0.1
done 2> /dev/null
t0=$SECONDS
ip netns exec h3 ping -c 2 -i 0.2 -q 10.3.0.4 > /dev/null
ip netns exec h3 ping -6 -c 2 -i 0.2 -q fd00:3::4 > /dev/null
ynl_req h3 set-instance "{\"policy\": [$P3]}" > /dev/null
# h4 forgets its receiving tunnels; h3's next packet gets an RST and h3's
# tunnel restarts; then h3 reaps its tunnels.
ctl h4 set idle-timeout 200
sleep 1.5
ip netns exec h3 ping -c 1 -W 2 -q 10.3.0.4 > /dev/null
ctl h3 set idle-timeout 200
for _ in $(seq 50); do
	[ "$(stat h3 tunnels)" = 0 ] && break
	sleep 0.1
done
echo "events caused in $((SECONDS - t0)) s of the client's 20"
wait $ynl_mon
sleep 0.5
kill $ctl_mon 2> /dev/null
wait $ctl_mon 2> /dev/null
echo "ynl: $(cat /tmp/nl.ynlmon.$$)"
echo "eqdsctl monitor: $(cat /tmp/nl.ctlmon.$$)"
check "ynl: the events (tunnel-new, -restart, -del with its reason, policy-changed) agree with eqdsctl monitor" \
	$CMP events "$(cat /tmp/nl.ynlmon.$$)" /tmp/nl.ctlmon.$$
rm -f /tmp/nl.ynlmon.$$ /tmp/nl.ctlmon.$$

ctl h3 set idle-timeout 600000
ctl h4 set idle-timeout 600000
ip netns exec h3 ping -c 2 -i 0.2 -q 10.3.0.4 > /dev/null
ip netns exec h3 ping -6 -c 2 -i 0.2 -q fd00:3::4 > /dev/null
sleep 0.5
check "ynl: get-tunnel dump agrees with eqdsctl tunnel list, both sides, every attribute" \
	ip netns exec h3 $CMP tunnels dump '{}' "$(ctl h3 -j -s tunnel list)"
check "ynl: get-tunnel dump of one side agrees with eqdsctl" \
	ip netns exec h3 $CMP some-tunnels dump '{"tunnel": {"dir": "rx"}}' "$(ctl h3 -j -s tunnel list rx)"
check "ynl: get-tunnel of a peer agrees with eqdsctl tunnel show" ip netns exec h3 $CMP some-tunnels \
	do '{"tunnel": {"family": 10, "peer": "fd000003000000000000000000000004"}}' \
	"$(ctl h3 -j -s tunnel show fd00:3::4)"
check "ynl: get-tunnel of a peer's sending side agrees with eqdsctl" ip netns exec h3 $CMP some-tunnels \
	do '{"tunnel": {"family": 2, "peer": "0a030004", "dir": "tx"}}' \
	"$(ctl h3 -j -s tunnel show 10.3.0.4 tx)"
expect_eq "ynl: get-tunnel of a peer without a tunnel" \
	"errno=2 msg=no tunnel to or from this peer" \
	"$(ynl_req h3 get-tunnel '{"tunnel": {"family": 2, "peer": "0a030063"}}')"

# Unprivileged: reading works, writing is refused with a clear message.
unpriv=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all)
check "an unprivileged user can read" ip netns exec h1 "${unpriv[@]}" "$EQDSCTL" show
check_fails "an unprivileged user gets 'permission denied' from set" "permission denied" \
	ip netns exec h1 "${unpriv[@]}" "$EQDSCTL" set port 9
ynl_unpriv() {	# OP JSON: ynl in h1 as nobody, without capabilities
	ip netns exec h1 "${unpriv[@]}" python3 "$TOP/tools/ynl/cli.py" --spec "$TOP/uapi/eqds.yaml" \
		--no-schema --output-json --do "$1" --json "$2" 2>&1
}
check "ynl: an unprivileged user can get-instance" ynl_unpriv get-instance '{}'
check_fails "ynl: an unprivileged set-instance gets EPERM (uns-admin-perm)" "error: -1$" \
	ynl_unpriv set-instance '{"port": 9}'
check_fails "ynl: an unprivileged get-tunnel gets EPERM (uns-admin-perm)" "error: -1$" \
	ynl_unpriv get-tunnel '{"tunnel": {"family": 2, "peer": "0a000102"}}'
expect_eq "the refused write changed nothing" 7001 "$(json_get "$(ctl h1 -j show)" "j['port']")"

# Bad requests, each rejected by the kernel with an extack message. The
# kernel's generic client (ynl, reading uapi/eqds.yaml) sends every one it can
# encode: out-of-range values, read-only or misplaced attributes, missing
# ones. genl_raw.py builds only what a spec-driven client cannot: an
# attribute of the wrong width, a type the spec does not have, a nest
# without NLA_F_NESTED.
before=$(ctl h1 -j show)
expect_req() {	# description errno-pattern msg-pattern "errno=N msg=TEXT"
	if [[ $4 =~ errno=($2)\  ]] && grep -qiE -- "$3" <<< "$4"; then
		ok "rejected: $1"
	else
		fail "rejected: $1" "got '$4'"
	fi
}
descs=() epats=() mpats=() reqs=()
bad() {	# description errno-pattern msg-pattern JSON of a set-instance
	descs+=("$1") epats+=("$2") mpats+=("$3") reqs+=("$4")
}
bad_raw() {	# description errno-pattern msg-pattern raw attrs...
	local desc=$1 epat=$2 mpat=$3
	shift 3
	expect_req "$desc" "$epat" "$mpat" "$(ip netns exec h1 $RAW EQDS_CMD_SET_INSTANCE "$@" 2>&1)"
}
bad "port 0" "22|34" "min|range" '{"port": 0}'
bad_raw "port with the wrong width" "22|34" "length|type|invalid" EQDS_A_PORT:u32:80
bad "window 0" "22|34" "range|min" '{"window": 0}'
bad "window above the maximum" "22|34" "range|max" '{"window": 70000}'
bad "unknown mode" "22|34" "range|max" '{"mode": 9}'
bad "idle timeout too short" "22|34" "range|min" '{"idle-timeout": 5}'
bad "read-only version" 22 "read-only" '{"version": "9.9"}'
bad "read-only stats, as a proper nest" 22 "NLA_F_NESTED not expected|read-only" '{"stats": {}}'
bad_raw "read-only stats" 22 "read-only" "EQDS_A_STATS:rawnest:()"
bad_raw "unknown attribute" "22|34" "unknown|unexpected|attribute|type" 200:u32:1
bad "IPv4 dest with a 16-byte address" 22 "4 bytes" \
	'{"dests": [{"family": 2, "addr": "fd000000000000000000000000000000", "prefixlen": 64}]}'
bad "dest without a prefix length" 22 "needs" '{"dests": [{"family": 2, "addr": "0a000000"}]}'
bad "IPv4 prefix length 33" 22 "too long" \
	'{"dests": [{"family": 2, "addr": "0a000000", "prefixlen": 33}]}'
bad "unknown address family" 22 "AF_INET" \
	'{"dests": [{"family": 99, "addr": "0a000000", "prefixlen": 8}]}'
bad "a good port with a bad window: nothing applied" "22|34" "range|min" \
	'{"port": 4444, "window": 0}'
bad "a tunnel in set-instance" 22 "tunnels are not configured" '{"tunnel": [{"dir": "tx"}]}'
# The class nests: each names its class, once, and holds only its own.
bad "a class nest without its id" 22 "needs the class id" '{"class": [{"queue-limit": 8}]}'
bad "an unknown class" "22|34" "range|max" '{"class": [{"id": 2}]}'
bad "two nests for one class" 22 "same class" '{"class": [{"id": "ll"}, {"id": "ll"}]}'
bad "a selector in the tcp class" 22 "only the ll class" '{"class": [{"id": "tcp", "mark": 1}]}'
bad "an ECN threshold above its class's new limit" 22 "above the class" \
	'{"class": [{"id": "tcp", "ecn-min": 8}, {"id": "ll", "queue-limit": 4, "ecn-min": 8}]}'
bad "a bad class after a good one: nothing applied" 22 "below the min" \
	'{"class": [{"id": "tcp", "queue-limit": 50}, {"id": "ll", "ecn-min": 8, "ecn-max": 4}]}'
bad_raw "a class nest without NLA_F_NESTED" 22 "NLA_F_NESTED" \
	"EQDS_A_CLASS:rawnest:(EQDS_CLASS_A_ID:u8:1)"
bad_raw "a class attribute of the wrong width" "22|34" "length|type|invalid" \
	"EQDS_A_CLASS:nest:(EQDS_CLASS_A_ID:u8:1,EQDS_CLASS_A_QUEUE_LIMIT:u16:8)"
mapfile -t res < <(ynl_req h1 set-instance "${reqs[@]}" 2>&1)
for i in "${!descs[@]}"; do
	expect_req "${descs[i]}" "${epats[i]}" "${mpats[i]}" "${res[i]:-${res[*]}}"
done
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
