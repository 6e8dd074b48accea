#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The smoke test's assertions on a short evaluation run: only properties
that hold by a wide margin whatever the machine's speed (no timings, no
thresholds tuned to one run). Prints "ok|DESCRIPTION" or
"fail|DESCRIPTION|WHY" per check. Usage: smoke_check.py results.jsonl"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics  # noqa: E402

JAIN_FLOOR = 0.90          # eqds incast with few senders: the 0.95, less slack for 4 s runs
DROP_PCT_FLOOR = 1.0       # eqds bottleneck drops, % of packets
UDP_SHARE_MAX = 1.5        # the UDP blaster's share over EQDS, in fair shares
UDP_SHARE_MIN = 0.25       # ... and at least this in both modes: it ran
PING_VS_NATIVE = 0.5       # deep buffer: eqds ping under incast below half of native's


def check(desc, cond, why=""):
    print("%s|%s|%s" % ("ok" if cond else "fail", desc, why))


def main(path):
    recs = metrics.derive(metrics.load(path))
    runs = [r for r in recs if r["scenario"] != "meta"]
    check("every run left a record with figures", runs and all(r.get("m") for r in runs),
          "; ".join("%s %s: %s" % (r["scenario"], r.get("mode"), r.get("error")) for r in runs if not r.get("m")))
    inc = metrics.pairs(recs, "incast", lambda r: (r["buffer"], r["n"]))
    check("incast ran natively and over eqds", inc and all(len(m) == 2 for m in inc.values()), str(list(inc)))
    for (buf, n), m in sorted(inc.items()):
        e, nat = m.get("eqds", {}).get("m"), m.get("native", {}).get("m")
        if not e:
            continue
        check("incast N=%d %s buffer: eqds Jain %.3f >= %.2f" % (n, buf, e["jain"], JAIN_FLOOR),
              e["jain"] >= JAIN_FLOOR, "flows %s" % m["eqds"]["flows_mbit"])
        check("incast N=%d %s buffer: eqds drops %.2f%% < %.1f%%" % (n, buf, e["drop_pct"], DROP_PCT_FLOOR),
              e["drop_pct"] < DROP_PCT_FLOOR, "%d drops" % e["drops"])
        if buf == "deep" and nat and nat["ping_busy_med"] and e["ping_busy_med"] is not None:
            check("incast N=%d deep buffer: eqds ping %.2f ms below half of native's %.2f ms" % (
                n, e["ping_busy_med"], nat["ping_busy_med"]),
                e["ping_busy_med"] < PING_VS_NATIVE * nat["ping_busy_med"])
    for _, m in metrics.pairs(recs, "udp", lambda r: 0).items():
        for mode in ("native", "eqds"):
            u = m.get(mode, {}).get("m")
            if u:
                check("udp: the blaster ran %s (%.0f%% of the link, at least %.2f fair shares)" % (
                    mode, 100 * u["udp_share"], UDP_SHARE_MIN),
                    u["udp_share"] >= UDP_SHARE_MIN * u["fair_share"], "flows %s" % m[mode]["flows_mbit"])
        u = m.get("eqds", {}).get("m")
        if u:
            check("udp: the blaster gets %.0f%% over eqds, at most %.1f fair shares (%.0f%%)" % (
                100 * u["udp_share"], UDP_SHARE_MAX, 100 * UDP_SHARE_MAX * u["fair_share"]),
                u["udp_share"] <= UDP_SHARE_MAX * u["fair_share"], "flows %s" % m["eqds"]["flows_mbit"])


if __name__ == "__main__":
    main(sys.argv[1])
