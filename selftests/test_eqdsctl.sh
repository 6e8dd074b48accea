#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# eqdsctl against the kernel where its unit tests fake it:
# - -b FILE / -b - applies a batch in a namespace (-n) line by line, stops at
#   the first failing line (named, exit status 2 for the kernel's refusal)
#   with the lines before it applied, and -force runs every line;
# - -d shows what the kernel applies: the bound and the effective values in
#   show and policy show, and a receiving tunnel's share in tunnel list.
source "$(dirname "$0")/lib.sh"
trap 'ns_del_all; rm -f $batch' EXIT
batch=/tmp/eqdsctl-batch.$$

check "load eqds" eqds_load
two_hosts || { fail "two hosts"; exit 1; }

cat > $batch <<'EOF'
# a batch: comments, blank lines, a continued line
set window 40 \
    queue-limit 80

policy add 10.0.1.0/24 weight 8 prio 0   # the peer's rule
policy add 10.0.0.0/8 weight 2
EOF
check "eqdsctl -n h2 -b FILE" "$EQDSCTL" -n h2 -b $batch
j=$(ctl h2 -j show)
expect_eq "the batch's set line applied" "40 80" \
	"$(json_get "$j" "'%d %d' % (j['window'], j['queue_limit'])")"
expect_eq "the batch's policy lines applied" "10.0.1.0/24 weight 8 prio 0
10.0.0.0/8 weight 2 prio 1" "$(ctl h2 policy show)"

printf 'set window 41\npolicy del 10.7.0.0/16\nset window 42\n' > $batch
err=$("$EQDSCTL" -n h2 -b $batch 2>&1)
expect_eq "a line the kernel's state refuses ends the batch with exit 2" 2 $?
expect_eq "... its message names the file and the line" \
	"eqdsctl: $batch:2: policy: no rule for 10.7.0.0/16" "$err"
expect_eq "... the lines before it stay applied, none after it ran" 41 \
	"$(json_get "$(ctl h2 -j show)" "j['window']")"
"$EQDSCTL" -n h2 -force -b $batch > /dev/null 2>&1
expect_eq "-force: exit 2 still" 2 $?
expect_eq "... and the line after the failure ran" 42 \
	"$(json_get "$(ctl h2 -j show)" "j['window']")"
printf 'set window 43\nset window 0\nset window 44\n' | "$EQDSCTL" -n h2 -b - > /dev/null 2>&1
expect_eq "a bad line (from standard input) exits 1" 1 $?
expect_eq "... after the lines before it" 43 "$(json_get "$(ctl h2 -j show)" "j['window']")"
check "set window back" ctl h2 set window 150 queue-limit 100

# -d: the host bounds h2; show and policy show say what h2 gets.
check "the host bounds h2" "$EQDSCTL" bound h2 pull-rate 2000 max-weight 4 min-prio 1
out=$(ctl h2 -d show)
echo "$out"
check "show -d: the bound" grep -qx '  bound: pull-rate 2Gbit max-weight 4 min-prio 1' <<< "$out"
check "show -d: auto thresholds as applied (half of 100)" \
	grep -q '^  effective: pull-rate auto (at most 2Gbit)  tcp-ecn-min 50  tcp-ecn-max 50' \
	<<< "$out"
expect_eq "show -dj: details.bound" "2000 4 1" "$(json_get "$(ctl h2 -dj show)" \
	"'%d %d %d' % tuple(j['details']['bound'][k] for k in ('pull_rate_mbit', 'max_weight', 'min_prio'))")"
expect_eq "policy show -d: rules under the bound" "10.0.1.0/24 weight 8 prio 0 effective weight 4 prio 1
10.0.0.0/8 weight 2 prio 1 effective weight 2 prio 1
default: weight 1 prio 1
bound: pull-rate 2Gbit max-weight 4 min-prio 1" "$(ctl h2 -d policy show)"

# A receiving tunnel in h2 from h1: -d names the rule its sender gets.
check "traffic h1 -> h2" ip netns exec h1 ping -c 2 -W 2 10.0.1.2
out=$(ctl h2 -d tunnel list rx)
echo "$out"
check "tunnel list -d: the sender's share" \
	grep -qx '    policy 10.0.1.0/24 weight 4 prio 1' <<< "$out"
expect_eq "tunnel list -dj: policy.prefix" "10.0.1.0/24 4" "$(json_get \
	"$(ctl h2 -dj tunnel list rx)" "'%s %d' % (j[0]['policy']['prefix'], j[0]['policy']['weight'])")"
check "the host lifts the bound" "$EQDSCTL" bound h2 none
check "h2's policy flushed" ctl h2 policy flush

ns_del_all
check "unload eqds" eqds_unload
test_failed && exit 1
exit 0
