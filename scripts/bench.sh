#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Native TCP against TCP over EQDS, side by side, in one boot of the test VM
# (`make bench`). Two hosts h1 (10.0.1.1) and h2 (10.0.1.2) on one veth link;
# native runs clear the EQDS destinations, EQDS runs set them.
#
#   1. single-flow throughput h1 -> h2 (iperf3), offloads on and off, and
#      with offloads on also TCP over EQDS with ECN negotiated;
#   2. CPU per GB moved: busy jiffies of the whole VM (/proc/stat; both hosts
#      share its CPUs) per GB received, and iperf3's own sender/receiver CPU;
#   3. pull pacing accuracy: h2's pull-rate set to N Mbit/s, goodput and
#      wire rate (h2's veth receive counters) against N;
#   4. tunnel setup latency: first ping RTT against the median of the next
#      ten, on fresh namespaces and after the tunnels' idle timeout expired.
#
# Prints progress, then a Markdown table, also written to /run/vm/out/bench.md
# (the run directory on the host; `make bench` copies it to build/bench.md).
# Runs as root in a throwaway VM: it loads and unloads eqds.
#
# Environment: EQDS_BENCH_SECS (iperf3 seconds, default 8), EQDS_BENCH_REPS
# (repetitions per throughput cell, default 2), EQDS_BENCH_RATES (pull rates
# in Mbit/s, default "50 100 200 500"), EQDS_BENCH_TRIALS (setup-latency
# trials, default 3), EQDS_BENCH_OUT (where to write the table),
# EQDS_BENCH_WINDOW (the credit window, packets, if not the default).
source "$(dirname "$0")/../selftests/lib.sh"

SECS=${EQDS_BENCH_SECS:-8}
REPS=${EQDS_BENCH_REPS:-2}
RATES=${EQDS_BENCH_RATES:-50 100 200 500}
TRIALS=${EQDS_BENCH_TRIALS:-3}
OUT=${EQDS_BENCH_OUT:-}
if [ -z "$OUT" ]; then
	if [ -d /run/vm/out ]; then OUT=/run/vm/out/bench.md; else OUT=$TOP/build/bench.md; fi
fi
TMP=$(mktemp -d /tmp/eqds-bench.XXXXXX)
RES=$TMP/results	# one line per measurement: key value
PY=python3
T0=$(date +%s)

cleanup() {
	ns_del_all
	eqds_unload 2> /dev/null
	if [ -d /run/vm/out ]; then cp "$RES" /run/vm/out/bench.results 2> /dev/null; fi
	rm -rf "$TMP"
}
trap cleanup EXIT

log() { printf '[%4ds] %s\n' $(($(date +%s) - T0)) "$*"; }
put() { echo "$1 $2" >> "$RES"; }
on() { local n=$1; shift; timeout 60 ip netns exec "$n" "$@"; }

# busy and total jiffies of the whole VM
cpu_jiffies() {
	awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t }' /proc/stat
}

# mode native|eqds: clear or set the destinations of both hosts
mode() {
	if [ "$1" = eqds ]; then
		if [ -n "${EQDS_BENCH_WINDOW:-}" ]; then
			ctl h1 set window "$EQDS_BENCH_WINDOW" &&
				ctl h2 set window "$EQDS_BENCH_WINDOW" || return 1
		fi
		ctl h1 set dests 10.0.1.2/32,fd00:1::2/128 &&
			ctl h2 set dests 10.0.1.1/32,fd00:1::1/128
	else
		ctl h1 set dests none && ctl h2 set dests none
	fi
}

offloads() {	# on|off
	on h1 ethtool -K v1 tso "$1" gso "$1" gro "$1" > /dev/null 2>&1
	on h2 ethtool -K v2 tso "$1" gso "$1" gro "$1" > /dev/null 2>&1
}

# tcp_info SECS PORT DST: after SECS, what limits the sending socket of the
# flow to PORT (the busiest one: iperf3 also has a control connection):
# its congestion window and RTT, and the shares of its busy time it was
# limited by the receiver's window or its send buffer, as ss shows them.
tcp_info() {
	sleep "$1"
	local dst=$3
	[ "${dst#*:}" != "$dst" ] && dst="[$dst]"	# IPv6
	on h1 ss -tinH dst "$dst" dport = :"$2" 2> /dev/null | $PY -c '
import re, sys
best = None
for line in sys.stdin.read().replace("\n\t", " ").splitlines():
    m = re.search(r"bytes_sent:(\d+)", line)
    if m and (best is None or int(m.group(1)) > best[0]):
        best = (int(m.group(1)), line)
if best:
    keys = ("rtt", "cwnd", "unacked", "busy", "rwnd_limited", "sndbuf_limited")
    got = dict(re.findall(r"\b(" + "|".join(keys) + r"):(\S+)", best[1]))
    print(" ".join(f"{k}:{got[k]}" for k in keys if k in got) +
          (" app_limited" if " app_limited" in best[1] else ""))'
	# Over EQDS, the sending tunnel: credit held and queue, four times
	# (m, the caller's mode: a native run still lists idle tunnels).
	case ${m:-} in native*) return ;; esac
	for _ in 1 2 3 4; do
		ctl h1 -j tunnel list tx 2> /dev/null
		sleep 0.2
	done | $PY -c '
import json, sys
def find(d, k):
    if isinstance(d, dict):
        if k in d:
            return d[k]
        for v in d.values():
            r = find(v, k)
            if r is not None:
                return r
    return None
text, dec, i = sys.stdin.read(), json.JSONDecoder(), 0
while True:
    while i < len(text) and text[i].isspace():
        i += 1
    try:
        ts, i = dec.raw_decode(text, i)
    except ValueError:
        break
    for t in ts if isinstance(ts, list) else []:
        print("  tunnel: " + " ".join(f"{k}:{find(t, k)}" for k in
              ("credit", "window", "queue_bytes", "inflight")))' | paste -sd ' ' -
}

# flow SECS [DST]: one iperf3 flow h1 -> h2 (DST: h2's address, IPv4 by
# default); prints
# "mbit bytes retransmits host_cpu% remote_cpu% busy_jiffies"
flow() {
	local secs=$1 dst=${2:-10.0.1.2} port=$((5201 + RANDOM % 1000)) j0 j1
	on h2 timeout $((secs + 30)) iperf3 -s -1 -p $port > /dev/null 2>&1 &
	wait_listen h2 $port
	read -r j0 _ <<< "$(cpu_jiffies)"
	tcp_info $((secs / 2)) $port "$dst" > "$TMP/tcp_info" &
	on h1 timeout $((secs + 25)) iperf3 -c "$dst" -p $port -t "$secs" -J > "$TMP/flow.json" 2> /dev/null
	read -r j1 _ <<< "$(cpu_jiffies)"
	wait
	$PY - "$TMP/flow.json" $((j1 - j0)) << 'EOF'
import json, sys
try:
    e = json.load(open(sys.argv[1]))["end"]
    c = e.get("cpu_utilization_percent", {})
    print("%.1f %d %d %.1f %.1f %s" % (e["sum_received"]["bits_per_second"] / 1e6,
          e["sum_received"]["bytes"], e["sum_sent"].get("retransmits", 0),
          c.get("host_total", 0), c.get("remote_total", 0), sys.argv[2]))
except Exception:
    print("0 0 0 0 0 %s" % sys.argv[2])
EOF
}

# counters_delta [KEY]: with KEY, log and record (as cnt.KEY.HOST) what moved
# in both hosts' EQDS counters since the previous call: the raw figures
# behind a surprising result. Without KEY, only take the snapshot.
counters_delta() {
	local h d
	for h in h1 h2; do
		ctl $h -j show > "$TMP/cnt.$h.new" 2> /dev/null || continue
		[ -s "$TMP/cnt.$h" ] || echo '{"stats": {}}' > "$TMP/cnt.$h"
		if [ -n "${1:-}" ]; then
			d=$($PY -c '
import json, sys
a, b = (json.load(open(f))["stats"] for f in sys.argv[1:3])
print(json.dumps({k: v - a.get(k, 0) for k, v in b.items()
                  if k != "tunnels" and v != a.get(k, 0)}, separators=(",", ":")))' \
				"$TMP/cnt.$h" "$TMP/cnt.$h.new")
			echo "         eqds counters, $h: $d"
			put "cnt.$1.$h" "$d"
		fi
		mv "$TMP/cnt.$h.new" "$TMP/cnt.$h"
	done
}

# ---- setup ----

log "eqds bench: kernel $(uname -r), $(nproc) CPUs, iperf3 ${SECS}s x $REPS"
# shellcheck disable=SC2046
modprobe -a $(modinfo -F depends "$EQDS_KO" | tr , ' ') 2> /dev/null	# as modprobe would
eqds_load || { echo "bench: cannot load $EQDS_KO"; exit 1; }
two_hosts || { echo "bench: cannot build the two hosts"; exit 1; }
on h1 ping -c 2 -W 2 -q 10.0.1.2 > /dev/null || { echo "bench: no ping"; exit 1; }
put kernel "$(uname -r)"
put commit "$(git -C "$TOP" describe --always --dirty 2> /dev/null || echo unknown)"
put cpus "$(nproc)"
put hz "$(getconf CLK_TCK)"
put secs "$SECS"

# ---- 1 + 2: throughput and CPU ----

# ecn on|off: whether TCP asks for ECN (the EQDS sender queue marks CE
# from half full instead of dropping ECN-capable packets)
ecn() {
	local v=2	# the kernel default: accept ECN, do not ask for it
	[ "$1" = on ] && v=1
	on h1 sysctl -qw net.ipv4.tcp_ecn=$v && on h2 sysctl -qw net.ipv4.tcp_ecn=$v
}

# eqds-ecn (offloads on only): TCP over EQDS with ECN negotiated;
# native-v6, eqds-v6 (offloads on only): the flow over IPv6
for off in on off; do
	offloads $off
	ms="native eqds"
	[ $off = on ] && ms="native eqds eqds-ecn native-v6 eqds-v6"
	for rep in $(seq "$REPS"); do
		for m in $ms; do
			dst=10.0.1.2
			[ "${m%-v6}" != "$m" ] && dst=fd00:1::2
			mode "${m%%-*}" || { echo "bench: eqdsctl failed"; exit 1; }
			[ $m = eqds-ecn ] && ecn on
			sleep 0.5
			counters_delta
			r=$(flow "$SECS" "$dst")
			log "throughput offloads=$off $m #$rep: $r"
			log "         tcp h1: $(cat "$TMP/tcp_info")"
			put "tcp.$off.$m.$rep" "$(tr -s '\n ' '  ' < "$TMP/tcp_info")"
			[ "${m%%-*}" = eqds ] && counters_delta "tput.$off.$m.$rep"
			[ $m = eqds-ecn ] && ecn off
			put "tput.$off.$m.$rep" "$r"
		done
	done
done
offloads on

# ---- 3: pull pacing ----

mode eqds
rxbytes() { on h2 cat /sys/class/net/v2/statistics/rx_bytes; }
for n in $RATES; do
	ctl h2 set pull-rate "$n"
	sleep 1.2		# the pacer picks the rate up within a second
	counters_delta
	port=$((6201 + RANDOM % 1000))
	on h2 timeout $((SECS + 30)) iperf3 -s -1 -p $port > /dev/null 2>&1 &
	wait_listen h2 $port
	on h1 timeout $((SECS + 25)) iperf3 -c 10.0.1.2 -p $port -t "$SECS" -J \
		> "$TMP/pace.json" 2> /dev/null &
	# the wire rate over the middle of the flow, away from start and end
	sleep 2
	b0=$(rxbytes) t0=$(date +%s.%N)
	sleep $((SECS - 4))
	b1=$(rxbytes) t1=$(date +%s.%N)
	wait
	good=$($PY -c 'import json,sys; print("%.1f" % (json.load(open(sys.argv[1]))["end"]["sum_received"]["bits_per_second"] / 1e6))' \
		"$TMP/pace.json" 2> /dev/null)
	wire=$(awk -v b0="$b0" -v b1="$b1" -v t0="$t0" -v t1="$t1" \
		'BEGIN { printf "%.1f", (b1 - b0) * 8 / (t1 - t0) / 1e6 }')
	log "pull-rate $n: goodput ${good:-0} Mbit/s, wire $wire Mbit/s"
	counters_delta "pace.$n"
	put "pace.$n" "${good:-0} $wire"
done
ctl h2 set pull-rate auto
ns_del_all

# ---- 4: tunnel setup latency ----

# pings NS ADDR: 11 pings; prints "first median_of_next_10" in ms
pings() {
	on "$1" ping -c 11 -i 0.05 -W 2 "$2" 2> /dev/null | $PY -c '
import re, statistics, sys
rtt = {int(s): float(t) for s, t in re.findall(r"icmp_seq=(\d+) .*time=([\d.]+)", sys.stdin.read())}
first = rtt.get(1)
rest = [v for k, v in rtt.items() if k > 1]
print("%s %s" % ("%.3f" % first if first is not None else "-",
                 "%.3f" % statistics.median(rest) if rest else "-"))'
}

for trial in $(seq "$TRIALS"); do
	for m in native eqds; do
		# fresh namespaces: the first ping pays ARP, and with EQDS the
		# creation of both tunnels (and the credit request) as well
		two_hosts > /dev/null 2>&1 || { echo "bench: two_hosts failed"; exit 1; }
		mode $m
		r=$(pings h1 10.0.1.2)
		log "setup, fresh namespaces, $m #$trial: first/median $r ms"
		put "setup.fresh.$m.$trial" "$r"
		ns_del_all
	done
done
# after the idle timeout: neighbours known, tunnels gone
two_hosts > /dev/null 2>&1 || { echo "bench: two_hosts failed"; exit 1; }
ctl h1 set idle-timeout 300 && ctl h2 set idle-timeout 300
for trial in $(seq "$TRIALS"); do
	for m in native eqds; do
		mode $m
		on h1 ping -c 2 -i 0.05 -W 2 -q 10.0.1.2 > /dev/null	# warm up ARP (and tunnels)
		sleep 1.5					# > idle timeout + reaper period
		left=$(stat h1 tunnels)
		r=$(pings h1 10.0.1.2)
		log "setup, after idle timeout, $m #$trial: first/median $r ms (tunnels before: $left)"
		put "setup.idle.$m.$trial" "$r"
	done
done
put "idle.reaped_h1" "$(stat h1 tunnels_reaped)"
ns_del_all
log "done"

# ---- the table ----

$PY - "$RES" "$OUT" << 'EOF'
import statistics, sys
res = {}
for line in open(sys.argv[1]):
    k, _, v = line.rstrip("\n").partition(" ")
    res[k] = v

def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None

def f(x, p=1):
    return "-" if x is None else f"{x:.{p}f}"

secs = int(res["secs"])
hz = int(res.get("hz", 100))
out = []
out.append(f"eqds bench: eqds {res.get('commit', '?')}, kernel {res['kernel']}, "
           f"{res['cpus']} vCPUs, iperf3 -t {secs}, two namespaces on one veth link\n")
out.append("### Single TCP flow h1 -> h2\n")
out.append("| offloads | path | Mbit/s (each run) | Mbit/s (median) | TCP retransmits (all runs) | "
           "VM CPU s/GB | iperf3 CPU % snd/rcv |")
out.append("| --- | --- | --- | ---: | ---: | ---: | ---: |")
tp = {}
LABEL = {"native": "native", "eqds": "EQDS", "eqds-ecn": "EQDS, TCP with ECN",
         "native-v6": "native, IPv6", "eqds-v6": "EQDS, IPv6"}
BASE = {"eqds": "native", "eqds-ecn": "native", "eqds-v6": "native-v6"}
for off in ("on", "off"):
    for m in LABEL:
        runs = []
        i = 1
        while f"tput.{off}.{m}.{i}" in res:
            runs.append([float(x) for x in res[f"tput.{off}.{m}.{i}"].split()])
            i += 1
        if not runs:
            continue
        mb = med([r[0] for r in runs])
        tp[(off, m)] = mb
        rtx = sum(int(r[2]) for r in runs)
        cpu_gb = med([(r[5] / hz) / (r[1] / 1e9) if r[1] else None for r in runs])
        hc = med([r[3] for r in runs])
        rc = med([r[4] for r in runs])
        out.append(f"| {off} | {LABEL[m]} | "
                   f"{' / '.join(f(r[0]) for r in runs)} | {f(mb)} | {rtx} | "
                   f"{f(cpu_gb, 2)} | {f(hc, 0)} / {f(rc, 0)} |")
import json
def cnt(prefix, host):
    tot = {}
    for k, v in res.items():
        if k.startswith(prefix) and k.endswith("." + host):
            for name, n in json.loads(v).items():
                tot[name] = tot.get(name, 0) + n
    return tot
out.append("")
for off, m in (("on", "eqds"), ("on", "eqds-ecn"), ("on", "eqds-v6"), ("off", "eqds")):
    b = BASE[m]
    if (off, b) in tp and (off, m) in tp and tp[(off, b)]:
        pre = f"cnt.tput.{off}.{m}."
        s, r = cnt(pre, "h1"), cnt(pre, "h2")
        out.append(f"* Offloads {off}, {LABEL[m]}: "
                   f"{100 * tp[(off, m)] / tp[(off, b)]:.0f}% of {LABEL[b]} throughput. "
                   f"EQDS counters over these runs: sender h1 queue-full drops "
                   f"{s.get('drop_queue_full', 0)}, credit refused {s.get('credit_refused', 0)}, "
                   f"retransmits {s.get('retransmits', 0)}, timeouts {s.get('timeouts', 0)}; "
                   f"receiver h2 pulls sent {r.get('pulls_sent', 0)}, reorder held "
                   f"{r.get('reorder_held', 0)}, skipped {r.get('reorder_skipped', 0)}, "
                   f"rx drops {r.get('rx_drops', 0)}.")
        pulls, rxb, rxp = r.get('pulls_sent', 0), r.get('rx_bytes', 0), r.get('rx_packets', 0)
        if pulls and rxb and rxp:
            out.append(f"  Pulls sent per 64 KB received {pulls / (rxb / 65536):.2f}, "
                       f"credit refused per pull sent {s.get('credit_refused', 0) / pulls:.1%}, "
                       f"h2 control packets per data packet {r.get('tx_ctrl', 0) / rxp:.2f}.")
for off, m in [(o, m) for o in ("on", "off") for m in LABEL]:
    i = 1
    while f"tcp.{off}.{m}.{i}" in res:
        out.append(f"* Offloads {off}, {LABEL[m]}, run {i}, h1's TCP socket and EQDS tunnel "
                   f"mid-flow: {res[f'tcp.{off}.{m}.{i}'].strip() or '-'}")
        i += 1
out.append("")
out.append("### Pull pacing: h2's pull-rate N, one bulk flow over EQDS\n")
out.append("| N (Mbit/s) | goodput (Mbit/s) | goodput / N | wire (Mbit/s) | wire / N |")
out.append("| ---: | ---: | ---: | ---: | ---: |")
for k in sorted((k for k in res if k.startswith("pace.")), key=lambda k: int(k[5:])):
    n = int(k[5:])
    g, w = (float(x) for x in res[k].split())
    out.append(f"| {n} | {f(g)} | {g / n:.2f} | {f(w)} | {w / n:.2f} |")
out.append("")
out.append("### Tunnel setup: first ping RTT against the median of the next 10 (ms)\n")
out.append("| case | path | first ping (each trial) | next 10 (median) | first - next |")
out.append("| --- | --- | --- | ---: | ---: |")
for case, label in (("fresh", "fresh namespaces"), ("idle", "after idle timeout")):
    for m in ("native", "eqds"):
        firsts, rests = [], []
        i = 1
        while f"setup.{case}.{m}.{i}" in res:
            a, b = res[f"setup.{case}.{m}.{i}"].split()
            firsts.append(None if a == "-" else float(a))
            rests.append(None if b == "-" else float(b))
            i += 1
        if not firsts:
            continue
        fm, rm = med(firsts), med(rests)
        out.append(f"| {label} | {'native' if m == 'native' else 'EQDS'} | "
                   f"{' / '.join(f(x, 2) for x in firsts)} | {f(rm, 2)} | "
                   f"{f(fm - rm, 2) if fm is not None and rm is not None else '-'} |")
text = "\n".join(out) + "\n"
print()
print(text)
open(sys.argv[2], "w").write(text)
EOF
rc=$?
echo "bench: table written to $OUT"
exit $rc
