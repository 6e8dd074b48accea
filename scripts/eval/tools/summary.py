#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The summary table printed at the end of an evaluation run: one line per
scenario case with native and EQDS side by side, then the issue's
acceptance criteria as met or not. Usage: summary.py results.jsonl"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics  # noqa: E402


def f(x, p=1):
    return "-" if x is None else "%.*f" % (p, x)


def rows(recs):
    """(scenario, case, figure, native, eqds) per line of the table."""
    out = []
    for (buf, n), m in sorted(metrics.pairs(recs, "incast", lambda r: (r["buffer"], r["n"])).items()):
        nm, em = (m[k]["m"] if k in m else {} for k in ("native", "eqds"))
        case = "N=%d, %s buffer" % (n, buf)
        out.append(("incast", case, "Jain's index", f(nm.get("jain"), 3), f(em.get("jain"), 3)))
        out.append(("incast", case, "total goodput Mbit/s", f(nm.get("total_mbit")), f(em.get("total_mbit"))))
        out.append(("incast", case, "bottleneck drops %", f(nm.get("drop_pct"), 2), f(em.get("drop_pct"), 2)))
        out.append(("incast", case, "ping median idle / busy ms",
                    "%s / %s" % (f(nm.get("ping_idle_med"), 2), f(nm.get("ping_busy_med"), 2)),
                    "%s / %s" % (f(em.get("ping_idle_med"), 2), f(em.get("ping_busy_med"), 2))))
    for _, m in metrics.pairs(recs, "udp", lambda r: 0).items():
        nm, em = (m[k]["m"] if k in m else {} for k in ("native", "eqds"))
        out.append(("udp", "4 TCP + 1 UDP", "total goodput Mbit/s", f(nm.get("total_mbit")), f(em.get("total_mbit"))))
        out.append(("udp", "4 TCP + 1 UDP", "UDP share of the link %",
                    f(100 * nm["udp_share"], 0) if nm else "-", f(100 * em["udp_share"], 0) if em else "-"))
    for cc, m in sorted(metrics.pairs(recs, "ccmix", lambda r: r["cc"]).items()):
        nm, em = (m[k]["m"] if k in m else {} for k in ("native", "eqds"))
        g = lambda d: "%s / %s" % (f(d.get("cubic_mbit")), f(d.get("other_mbit"))) if d else "-"
        out.append(("ccmix", "cubic vs " + cc, "Mbit/s cubic / other", g(nm), g(em)))
        out.append(("ccmix", "cubic vs " + cc, "bottleneck drops %",
                    f(nm.get("drop_pct"), 2), f(em.get("drop_pct"), 2)))
    for seed, m in sorted(metrics.pairs(recs, "perm", lambda r: r["seed"]).items()):
        nm, em = (m[k]["m"] if k in m else {} for k in ("native", "eqds"))
        g = lambda d: "%s / %s" % (f(d.get("avg_mbit")), f(d.get("min_mbit"))) if d else "-"
        out.append(("perm", "seed %s" % seed, "Mbit/s per host avg / min", g(nm), g(em)))
    for fault, m in sorted(metrics.pairs(recs, "spines", lambda r: r["fault"]).items(), reverse=True):
        nm, em = (m[k]["m"] if k in m else {} for k in ("native", "eqds"))
        g = lambda d: "%s / %s" % (f(d.get("avg_mbit")), f(d.get("min_mbit"))) if d else "-"
        case = {"slow": "one spine at 1/5 rate", "failed": "one spine failed"}.get(fault, fault)
        out.append(("spines", case, "Mbit/s per host avg / min", g(nm), g(em)))
        out.append(("spines", case, "TCP retransmissions", f(nm.get("retx"), 0), f(em.get("retx"), 0)))
    for _, m in metrics.pairs(recs, "fct", lambda r: 0).items():
        nm, em = (m[k]["m"] if k in m else {} for k in ("native", "eqds"))
        g = lambda d: "%s / %s / %s" % (f(d.get("med")), f(d.get("p95")), f(d.get("p99"))) if d else "-"
        out.append(("fct", "1 MB downloads", "FCT ms p50 / p95 / p99", g(nm), g(em)))
    for buf, m in sorted(metrics.pairs(recs, "rpc", lambda r: r["buffer"]).items()):
        nm, em = (m[k]["m"] if k in m else {} for k in ("native", "eqds"))
        g = lambda d: "%s / %s / %s" % (f(d.get("idle_med"), 2), f(d.get("busy_med"), 2),
                                        f(d.get("busy_p99"), 2)) if d else "-"
        out.append(("rpc", "%s buffer" % buf, "latency ms idle p50 / busy p50 / p99", g(nm), g(em)))
    return out


def table(recs):
    lines = ["| scenario | case | figure | native | EQDS |", "| --- | --- | --- | ---: | ---: |"]
    lines += ["| %s |" % " | ".join(r) for r in rows(recs)]
    lines += ["", "| acceptance criterion | met | figures |", "| --- | --- | --- |"]
    for crit, met, detail in metrics.acceptance(recs):
        lines.append("| %s | %s | %s |" % (crit, {True: "yes", False: "**no**", None: "-"}[met], detail))
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(metrics.derive(metrics.load(sys.argv[1]))))
