#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn an evaluation run's records into its report.

  report.py RESULTS.jsonl OUT.md [PLOTDIR]

Writes OUT.md (Markdown: setup, summary table, acceptance, then per
scenario the paper's figure beside ours), PLOTDIR (default: OUT.md's name
without .md) with the PNG plots, and beside OUT.md a CSV of every per-run
figure (OUT.csv) and the records with their derived figures (OUT.json)."""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics  # noqa: E402
import paper  # noqa: E402
import summary  # noqa: E402

try:
    import plots
except ImportError:  # no matplotlib: the report without plots
    plots = None

CPU_BOUND = 95  # VM CPU busy % from which a run is flagged as emulator-bound

TITLES = {
    "incast": "1. Incast N:1",
    "udp": "2. Unresponsive UDP against 4 TCP flows",
    "ccmix": "3. Congestion-control mix",
    "perm": "4. Permutation over a multipath fabric",
    "fct": "5. Closed-loop 1 MB downloads",
    "rpc": "6. Request/response latency under incast",
    "spines": "7. A slow spine and a failed spine",
}

SETUP = {
    "incast": "N senders, one TCP flow each (iperf3) to one receiver through a switch port of "
              "{star_mbit} Mbit/s (tbf) with a shallow and a deep buffer; pings every 50 ms from a "
              "bystander host not in the incast. Goodput per flow counted at the receiver over a common "
              "{secs} s window.",
    "udp": "s1..s4 TCP, s5 iperf3 -u at {star_mbit} Mbit/s (1400-byte datagrams), one receiver, "
           "shallow buffer.",
    "ccmix": "two senders, Cubic against each other CC, one receiver, {star_mbit} Mbit/s, 100-packet "
             "buffer; each sender pings the receiver during the run (RTT above idle = queueing delay).",
    "perm": "8 hosts on 2 leaves, 4 spines (spine delays {spine_delays}), every link {fabric_mbit} Mbit/s: "
            "full bisection; each host sends one TCP flow to a host on the other leaf.",
    "fct": "the permutation's fabric; every host keeps one 1 MB download from a random other host "
           "outstanding for {secs} s.",
    "rpc": "a bystander calls an RPC server on the receiver (64 B request, 1 KB response, every 10 ms) "
           "idle, then during a 16:1 incast to the same receiver (both buffers).",
    "spines": "the permutation's fabric and traffic, every spine queue marking CE above 1 ms (fq_codel), "
              "ECN-capable TCP; spine 4 at a fifth of {fabric_mbit} Mbit/s, then (rebuilt) spine 2 "
              "dropping everything from a second before the {secs} s measurement.",
}


def flat(r):
    """One CSV row: the record's scalars and derived figures."""
    row = {k: v for k, v in r.items() if not isinstance(v, (list, dict))}
    for k, v in (r.get("m") or {}).items():
        if not isinstance(v, (list, dict)):
            row["m_" + k] = v
    return row


def write_csv(recs, path):
    rows = [flat(r) for r in recs if r["scenario"] != "meta"]
    keys = []
    for row in rows:
        keys += [k for k in row if k not in keys]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)


def setup_text(meta):
    return [
        "Run: commit `%s`, kernel %s, %s vCPUs, %s; mode `%s`, measurement window %s s per run, "
        "seed %s." % (meta.get("commit"), meta.get("kernel"), meta.get("cpus"),
                      "qemu TCG" if meta.get("accel") == "vm" else meta.get("accel"),
                      meta.get("mode"), meta.get("secs"), meta.get("seed")),
        "",
        "Star bottleneck %s Mbit/s, buffers %s; fabric links %s Mbit/s; incast sizes %s; congestion "
        "controls available: %s." % (meta.get("star_mbit"), meta.get("bufs"), meta.get("fabric_mbit"),
                                    meta.get("incast_n"), meta.get("ccs")),
    ]


def late_shares(recs, name):
    """Per EQDS run of a scenario: the pull credit its hosts' pacers lost to
    late timers (pacer_late_bytes), as a share of that plus the data they
    received (rx_bytes), which approximates the credit they granted. The
    counters are cumulative per namespace, so each run's part is the
    difference from the scenario's previous EQDS run (a namespace built
    anew starts from zero)."""
    prev, out = {}, []
    for r in recs:
        if r["scenario"] != name or r.get("mode") != "eqds" or not isinstance(r.get("eqds"), dict):
            continue
        late = rx = 0
        for host, c in r["eqds"].items():
            if not isinstance(c, dict) or "pacer_late_bytes" not in c:
                continue
            p = prev.get(host, {})
            if c.get("rx_bytes", 0) < p.get("rx_bytes", 0):
                p = {}
            late += c["pacer_late_bytes"] - p.get("pacer_late_bytes", 0)
            rx += c.get("rx_bytes", 0) - p.get("rx_bytes", 0)
            prev[host] = c
        if late + rx > 0:
            out.append(100.0 * late / (late + rx))
    return out


def section(name, recs, figs, meta):
    lines = ["## " + TITLES[name], "", SETUP[name].format(**{k: meta.get(k) for k in
                                                         ("star_mbit", "secs", "spine_delays", "fabric_mbit")}), ""]
    f = figs.get(name) or {}
    left = "**Paper:** " + paper.TEXT[name]
    if f.get("paper"):
        left += "<br>![paper vs ours](%s)" % f["paper"]
    right = "![this run](%s)" % f["ours"] if f.get("ours") else "(no plot)"
    lines += ["| the paper's figure | this run |", "| --- | --- |", "| %s | %s |" % (left, right), ""]
    rows = [r for r in summary.rows(recs) if r[0] == name]
    if rows:
        lines += ["| case | figure | native | EQDS |", "| --- | --- | ---: | ---: |"]
        lines += ["| %s |" % " | ".join(r[1:]) for r in rows]
        lines.append("")
    cpu = [r["m"]["cpu"] for r in recs if r["scenario"] == name and r.get("m") and r["m"].get("cpu") is not None]
    if cpu:
        lines += ["VM CPU busy during the measurement: %d%% to %d%% (near 100%% would mean the emulator "
                  "set the pace)." % (min(cpu), max(cpu)), ""]
        bound = [r for r in recs if r["scenario"] == name and r.get("m") and (r["m"].get("cpu") or 0) >= CPU_BOUND]
        if bound:
            lines += ["**Emulator-bound:** %d of %d runs had the VM's CPUs %d%% or more busy; their "
                      "throughput is the emulator's, not the network's." % (len(bound), len(cpu), CPU_BOUND), ""]
    late = late_shares(recs, name)
    if late:
        lines += ["EQDS pull credit lost to late pacer timers (`pacer_late_bytes`, as a share of the credit "
                  "due, approximately): %.0f%% to %.0f%% per run." % (min(late), max(late)), ""]
    return lines


def report(recs, md_path, plotdir):
    meta = next((r for r in recs if r["scenario"] == "meta"), {})
    rel = os.path.relpath(plotdir, os.path.dirname(os.path.abspath(md_path)))
    figs = {}
    if plots:
        drawn = plots.draw(recs, plotdir)
        figs = {k: {kk: os.path.join(rel, vv) for kk, vv in v.items()} for k, v in drawn.items()}
    out = ["# eqds on emulated hosts: the paper's scenarios, native Linux against EQDS", "",
           "Generated by `make eval` (`scripts/eval/`); see Documentation/evaluation/emulation.md for "
           "how to read it.", ""]
    out += setup_text(meta) + ["", "## Summary", "", summary.table(recs), ""]
    missed = [(c, d) for c, met, d in metrics.acceptance(recs) if met is False]
    if missed:
        out += ["Acceptance criteria this run does not meet:", ""]
        out += ["* %s: %s" % (c, d) for c, d in missed] + [""]
    present = [n for n in TITLES if any(r["scenario"] == n for r in recs)]
    for name in present:
        out += section(name, recs, figs, meta)
    with open(md_path, "w") as f:
        f.write("\n".join(out) + "\n")
    base = os.path.splitext(md_path)[0]
    write_csv(recs, base + ".csv")
    with open(base + ".json", "w") as f:
        json.dump(recs, f, indent=1)


if __name__ == "__main__":
    results, md = sys.argv[1], sys.argv[2]
    pdir = sys.argv[3] if len(sys.argv) > 3 else os.path.splitext(md)[0]
    report(metrics.derive(metrics.load(results)), md, pdir)
    print("report: %s" % md)
