#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Where the CPU goes: one iperf3 flow h1 -> h2, natively and over EQDS, each
# under `perf record -a -g` in one boot of the test VM (`make profile`).
# Both hosts share the VM's CPUs, so a profile is sender and receiver
# together; callers tell them apart (tcp_sendmsg under the sender's iperf3,
# the receive softirq under the receiver's).
#
# Writes, for each mode M (native, eqds), to the run directory (/run/vm/out,
# which `make profile` copies to build/profile/):
#   M.symbols.txt   the hottest symbols by self time, with their module
#   M.callers.txt   the hottest call chains into them (perf report -g caller)
#   M.summary       throughput, bytes, samples and VM busy jiffies
# and profile.md: EQDS against native (throughput, busy samples and busy
# jiffies per GB received: the VM's CPU per byte, both hosts together) and
# the two top tables, with each symbol's samples per GB.
#
# Under TCG there is no PMU: perf samples on the cpu-clock software event,
# at EQDS_PROFILE_HZ (default 999) per CPU.
#
# Environment: EQDS_PROFILE_SECS (iperf3 seconds, default 8),
# EQDS_PROFILE_TOP (rows per table, default 40), EQDS_PROFILE_OFFLOADS
# (on|off, default on).
source "$(dirname "$0")/../selftests/lib.sh"

SECS=${EQDS_PROFILE_SECS:-8}
TOPN=${EQDS_PROFILE_TOP:-40}
HZ=${EQDS_PROFILE_HZ:-999}
OFFL=${EQDS_PROFILE_OFFLOADS:-on}
OUT=/run/vm/out
[ -d $OUT ] || OUT=$TOP/build/profile
mkdir -p "$OUT"
TMP=$(mktemp -d /tmp/eqds-profile.XXXXXX)

cleanup() {
	ns_del_all
	eqds_unload 2> /dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

on() { local n=$1; shift; timeout $((SECS + 60)) ip netns exec "$n" "$@"; }
busy_jiffies() { awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6 }' /proc/stat; }

command -v perf > /dev/null || { echo "profile: no perf (make deps installs linux-perf)"; exit 1; }
# shellcheck disable=SC2046
modprobe -a $(modinfo -F depends "$EQDS_KO" | tr , ' ') 2> /dev/null
eqds_load || { echo "profile: cannot load $EQDS_KO"; exit 1; }
two_hosts || { echo "profile: cannot build the two hosts"; exit 1; }
for h in 1 2; do
	on h$h ethtool -K v$h tso "$OFFL" gso "$OFFL" gro "$OFFL" > /dev/null 2>&1
done
on h1 ping -c 2 -W 2 -q 10.0.1.2 > /dev/null || { echo "profile: no ping"; exit 1; }
# Symbols of the module too: perf reads /proc/kallsyms.
echo 0 > /proc/sys/kernel/kptr_restrict
echo -1 > /proc/sys/kernel/perf_event_paranoid

profile() {	# native|eqds
	local m=$1 port=$((5201 + RANDOM % 1000)) j0 j1
	if [ "$m" = eqds ]; then
		ctl h1 set dests 10.0.1.2/32 && ctl h2 set dests 10.0.1.1/32
	else
		ctl h1 set dests none && ctl h2 set dests none
	fi || { echo "profile: eqdsctl failed"; exit 1; }
	sleep 0.5
	on h2 iperf3 -s -1 -p $port > /dev/null 2>&1 &
	wait_listen h2 $port
	j0=$(busy_jiffies)
	# perf runs the workload itself: the flow starts once sampling is on.
	perf record -q -a -g -F "$HZ" -o "$TMP/$m.data" -- \
		ip netns exec h1 iperf3 -c 10.0.1.2 -p $port -t "$SECS" -J \
		> "$TMP/$m.json" 2> "$TMP/$m.perf.log"
	j1=$(busy_jiffies)
	wait
	perf report -i "$TMP/$m.data" --stdio --no-children --sort dso,sym \
		--percent-limit 0.3 -g none 2> /dev/null | grep -v '^$' | head -$((TOPN + 12)) \
		> "$OUT/$m.symbols.txt"
	perf report -i "$TMP/$m.data" --stdio --no-children --sort sym \
		--percent-limit 2 -g caller,0.5,callee,function,percent --max-stack 12 \
		2> /dev/null | head -600 > "$OUT/$m.callers.txt"
	# Inclusive (self and callees): where the time goes by the path that
	# spends it, e.g. everything under the pacer's timer or an ack's send.
	perf report -i "$TMP/$m.data" --stdio --children --sort sym \
		--percent-limit 1 -g none 2> /dev/null | grep -v '^$' \
		> "$OUT/$m.inclusive.txt"
	# The idle loop is sampled too (cpu-clock): its share, the swapper
	# task's, is left out of the busy samples per GB.
	perf report -i "$TMP/$m.data" --stdio --no-children --sort comm -g none \
		> "$TMP/$m.comm" 2> /dev/null
	python3 - "$TMP/$m.json" "$((j1 - j0))" \
		"$(sed -n 's/^# Samples: \([0-9.]*\)\([KM]\?\).*/\1\2/p' "$TMP/$m.comm" | head -1)" \
		"$(awk '$2 == "swapper" { sub("%", "", $1); print $1 }' "$TMP/$m.comm")" \
		> "$OUT/$m.summary" << 'EOF'
import json, sys
e = json.load(open(sys.argv[1]))["end"]
s = sys.argv[3] or "0"
n = float(s.rstrip("KM")) * {"K": 1e3, "M": 1e6}.get(s[-1:], 1)
idle = float(sys.argv[4] or 0) / 100
b = e["sum_received"]["bytes"]
print("mbit %.1f\nbytes %d\nsamples %d\nidle_share %.3f\nsamples_per_gb %.0f\n"
      "busy_samples_per_gb %.0f\nbusy_jiffies %s\njiffies_per_gb %.0f"
      % (e["sum_received"]["bits_per_second"] / 1e6, b, n, idle, n / (b / 1e9),
         n * (1 - idle) / (b / 1e9), sys.argv[2], int(sys.argv[2]) / (b / 1e9)))
EOF
	echo "profile $m:"; cat "$OUT/$m.summary"
}

profile native
profile eqds

python3 - "$OUT" "$TOPN" "$(uname -r)" "$SECS" "$OFFL" > "$OUT/profile.md" << 'EOF'
import re, sys
out, topn, kernel, secs, offl = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
def summary(m):
    return dict(l.split() for l in open(f"{out}/{m}.summary") if l.strip())
def rows(m):
    r = []
    for l in open(f"{out}/{m}.symbols.txt"):
        x = re.match(r"\s*([0-9.]+)%\s+(\S+)\s+\[.\]\s+(.*)", l)
        if x:
            r.append((float(x.group(1)), x.group(2), x.group(3).strip()))
    return r[:topn]
s = {m: summary(m) for m in ("native", "eqds")}
print(f"# Profile: one iperf3 flow, native and over EQDS\n")
print(f"Kernel {kernel}, {secs} s, offloads {offl}, perf cpu-clock samples of the whole VM "
      "(both hosts).\n")
print("| | native | eqds | eqds/native |\n|---|---|---|---|")
for k in ("mbit", "busy_samples_per_gb", "jiffies_per_gb"):
    a, b = float(s["native"][k]), float(s["eqds"][k])
    print(f"| {k} | {a:.1f} | {b:.1f} | {b / a if a else 0:.2f} |")
for m in ("native", "eqds"):
    spg = float(s[m]["samples_per_gb"])
    print(f"\n## {m}: hottest symbols (self)\n\n| % | samples/GB | module | symbol |\n|---|---|---|---|")
    for pct, dso, sym in rows(m):
        print(f"| {pct:.2f} | {pct * spg / 100:.0f} | {dso} | {sym} |")
def inclusive(m):
    r = {}
    for l in open(f"{out}/{m}.inclusive.txt"):
        x = re.match(r"\s*([0-9.]+)%\s+([0-9.]+)%\s+\[.\]\s+(.*)", l)
        if x:
            r.setdefault(x.group(3).strip(), float(x.group(1)))
    return r
inc = {m: inclusive(m) for m in ("native", "eqds")}
spg = {m: float(s[m]["samples_per_gb"]) for m in inc}
print("\n## Inclusive samples per GB (self and callees), the paths EQDS adds most to\n")
print("| symbol | native | eqds | eqds - native |\n|---|---:|---:|---:|")
per_gb = {m: {k: v * spg[m] / 100 for k, v in inc[m].items()} for m in inc}
syms = set(per_gb["native"]) | set(per_gb["eqds"])
delta = sorted(syms, key=lambda k: per_gb["eqds"].get(k, 0) - per_gb["native"].get(k, 0),
               reverse=True)
for k in delta[:2 * topn]:
    a, b = per_gb["native"].get(k, 0), per_gb["eqds"].get(k, 0)
    print(f"| {k} | {a:.0f} | {b:.0f} | {b - a:+.0f} |")
EOF
cat "$OUT/profile.md"
