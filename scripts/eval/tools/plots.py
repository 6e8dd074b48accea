#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""PNG plots of an evaluation run: one figure of ours per scenario, and one
"paper vs ours" figure per scenario on a scale that does not depend on link
speed (fraction of capacity, native/EQDS ratios, shares), since our links
are 100 Mbit/s emulated ones and the paper's 25 Gb/s. Needs matplotlib
(python3-matplotlib); report.py leaves the plots out without it."""
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics  # noqa: E402
import paper  # noqa: E402

COLOR = {"native": "tab:red", "eqds": "tab:blue"}
STYLE = {"shallow": "-", "deep": "--"}


def _save(fig, outdir, name):
    fig.tight_layout()
    path = os.path.join(outdir, name)
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return name


def _cdf(ax, xs, **kw):
    xs = sorted(xs)
    if xs:
        ax.plot(xs, [(i + 1) / len(xs) for i in range(len(xs))], **kw)


def _versus(outdir, name, title, ylabel, labels, paper_vals, ours_vals, log=False):
    """Paper and ours side by side, per label (e.g. native, EQDS)."""
    fig, ax = plt.subplots(figsize=(4.2, 3.2))
    w = 0.38
    xs = range(len(labels))
    ax.bar([x - w / 2 for x in xs], paper_vals, w, label="paper", color="tab:gray")
    ax.bar([x + w / 2 for x in xs], [v if v is not None else 0 for v in ours_vals], w,
           label="this run", color="tab:green")
    ax.set_xticks(list(xs), labels)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    if log:
        ax.set_yscale("log")
    ax.legend(fontsize=8)
    return _save(fig, outdir, name)


def incast(recs, outdir):
    inc = metrics.pairs(recs, "incast", lambda r: (r["buffer"], r["n"]))
    if not inc:
        return {}
    bufs = sorted({b for b, _ in inc})
    fig, axs = plt.subplots(2, 2, figsize=(9, 6.5))
    for ax, buf in zip(axs[0], bufs[:2]):
        for (b, n), m in sorted(inc.items()):
            if b != buf:
                continue
            for mode, r in m.items():
                x = r["flows_mbit"]
                fair = sum(x) / len(x) if sum(x) else 1
                _cdf(ax, [v / fair for v in x], color=COLOR[mode], alpha=0.4 + 0.6 * n / max(k[1] for k in inc),
                     label="%s N=%d" % (mode, n))
        ax.set_xlabel("flow goodput / fair share")
        ax.set_ylabel("CDF of flows")
        ax.set_title("%s buffer (%s packets)" % (buf, next(r["buf_pkts"] for (b, _), m in inc.items()
                                                          if b == buf for r in m.values())), fontsize=9)
        ax.legend(fontsize=7)
    for buf in bufs:
        for mode in ("native", "eqds"):
            pts = sorted((n, m[mode]["m"]) for (b, n), m in inc.items() if b == buf and mode in m)
            axs[1][0].plot([n for n, _ in pts], [d["jain"] for _, d in pts], STYLE.get(buf, ":"),
                           marker="o", color=COLOR[mode], label="%s, %s" % (mode, buf))
            axs[1][1].plot([n for n, _ in pts], [d["ping_busy_med"] or 0 for _, d in pts], STYLE.get(buf, ":"),
                           marker="o", color=COLOR[mode], label="%s, %s" % (mode, buf))
    axs[1][0].axhline(metrics.JAIN_MIN, color="k", lw=0.5)
    axs[1][0].set_xscale("log", base=2)
    axs[1][0].set_xlabel("senders N")
    axs[1][0].set_ylabel("Jain's index")
    axs[1][0].legend(fontsize=7)
    axs[1][1].set_xscale("log", base=2)
    axs[1][1].set_yscale("log")
    axs[1][1].set_xlabel("senders N")
    axs[1][1].set_ylabel("ping RTT to receiver under incast, median ms")
    axs[1][1].legend(fontsize=7)
    out = {"ours": _save(fig, outdir, "incast.png")}
    # The paper's ping increase against ours (largest N, deep buffer when there).
    key = max(inc, key=lambda k: (k[0] == "deep", k[1]))
    m = inc[key]
    ours = []
    for mode in ("native", "eqds"):
        d = m.get(mode, {}).get("m") or {}
        i, b = d.get("ping_idle_med"), d.get("ping_busy_med")
        ours.append(max(1.0, (b - i) * 1000) if i is not None and b is not None else None)
    p = paper.NORM["ping_increase_us"]
    out["paper"] = _versus(outdir, "incast-paper.png",
                           "ping RTT increase under incast (us)\npaper: EC2, 850 senders; ours: N=%d, %s" % (key[1], key[0]),
                           "us (log)", ["native", "EQDS"], [p["native"], p["eqds"]], ours, log=True)
    return out


def udp(recs, outdir):
    m = metrics.pairs(recs, "udp", lambda r: 0).get(0)
    if not m:
        return {}
    fig, ax = plt.subplots(figsize=(4.5, 3.2))
    modes = [k for k in ("native", "eqds") if k in m]
    for i, mode in enumerate(modes):
        r = m[mode]
        bottom = 0
        for j, (v, k) in enumerate(zip(r["flows_mbit"], r["kinds"])):
            ax.bar(i, v, bottom=bottom, color="tab:orange" if k == "udp" else "C%d" % (j % 4 + 0),
                   edgecolor="k", lw=0.3, label=(k.upper() + " flow") if i == 0 and (k == "udp" or j == 0) else None)
            bottom += v
    ax.set_xticks(range(len(modes)), modes)
    ax.set_ylabel("goodput, Mbit/s (stacked per flow)")
    ax.legend(fontsize=8)
    out = {"ours": _save(fig, outdir, "udp.png")}
    p = paper.NORM["udp_share"]
    out["paper"] = _versus(outdir, "udp-paper.png", "UDP blaster's share of the receiver link",
                           "share", ["native", "EQDS"], [p["native"], p["eqds"]],
                           [m[k]["m"]["udp_share"] if k in m else None for k in ("native", "eqds")])
    return out


def ccmix(recs, outdir):
    cc = metrics.pairs(recs, "ccmix", lambda r: r["cc"])
    if not cc:
        return {}
    names = sorted(cc)
    fig, axs = plt.subplots(1, 2, figsize=(9, 3.4))
    w = 0.2
    for i, name in enumerate(names):
        for j, mode in enumerate(("native", "eqds")):
            d = cc[name].get(mode, {}).get("m")
            if not d:
                continue
            x = i + (j - 0.5) * 2 * w
            axs[0].bar(x - w / 2, d["cubic_mbit"], w, color=COLOR[mode], alpha=0.5, edgecolor="k", lw=0.3)
            axs[0].bar(x + w / 2, d["other_mbit"], w, color=COLOR[mode], edgecolor="k", lw=0.3)
            for k, who in enumerate(("cubic", "other")):
                q = d.get("qdelay_%s_ms" % who)
                axs[1].bar(x + (k - 0.5) * w, q or 0, w, color=COLOR[mode], alpha=0.5 if who == "cubic" else 1,
                           edgecolor="k", lw=0.3)
    for ax in axs:
        ax.set_xticks(range(len(names)), ["cubic vs\n" + n for n in names], fontsize=8)
    axs[0].set_ylabel("Mbit/s (pale: cubic, solid: other)")
    axs[0].set_title("red: native, blue: EQDS", fontsize=9)
    axs[1].set_ylabel("ping RTT above idle, ms (queueing)")
    axs[1].set_title("EQDS: the sender's EQIF queue; native: the switch queue", fontsize=9)
    out = {"ours": _save(fig, outdir, "ccmix.png")}
    # Paper: fair shares over EQDS (0.5 each); ours: the other CC's share.
    ours = [cc[n]["eqds"]["m"]["other_mbit"] / max(1e-9, cc[n]["eqds"]["m"]["other_mbit"] + cc[n]["eqds"]["m"]["cubic_mbit"])
            if "eqds" in cc[n] else None for n in names]
    out["paper"] = _versus(outdir, "ccmix-paper.png", "share of the non-Cubic flow over EQDS\n"
                           "(paper: fair, 0.5, Vegas excepted)", "share", names, [0.5] * len(names), ours)
    return out


def perm(recs, outdir):
    pm = metrics.pairs(recs, "perm", lambda r: r["seed"])
    if not pm:
        return {}
    fig, axs = plt.subplots(1, 2, figsize=(9, 3.4))
    seeds = sorted(pm)
    w = 0.8 / (2 * len(seeds))
    k = 0
    for seed in seeds:
        for mode in ("native", "eqds"):
            r = pm[seed].get(mode)
            if not r:
                continue
            x = r["flows_mbit"]
            axs[0].bar([i + (k - len(seeds) + 0.5) * w for i in range(len(x))], x, w, color=COLOR[mode],
                       alpha=0.5 + 0.5 * (seeds.index(seed) == 0), label="%s seed %s" % (mode, seed))
            sh = r["m"]["spine_shares"]
            axs[1].bar([i + (k - len(seeds) + 0.5) * w for i in range(len(sh))], sh, w, color=COLOR[mode],
                       alpha=0.5 + 0.5 * (seeds.index(seed) == 0))
            k += 1
    cap = next(iter(pm.values()))
    cap = next(iter(cap.values()))["rate_mbit"]
    axs[0].axhline(cap, color="k", lw=0.5)
    axs[0].set_xlabel("sending host")
    axs[0].set_ylabel("goodput, Mbit/s (line: link)")
    axs[0].legend(fontsize=7)
    axs[1].set_xlabel("spine")
    axs[1].set_ylabel("share of the fabric's bytes")
    out = {"ours": _save(fig, outdir, "perm.png")}
    ours = []
    for mode in ("native", "eqds"):
        v = [pm[s][mode]["m"]["avg_frac"] for s in seeds if mode in pm[s]]
        ours.append(sum(v) / len(v) if v else None)
    p = paper.NORM["perm_frac"]
    out["paper"] = _versus(outdir, "perm-paper.png", "permutation: average per-host goodput\n"
                           "as a fraction of the link", "fraction of link", ["native", "EQDS"],
                           [p["native"], p["eqds"]], ours)
    return out


def fct(recs, outdir):
    m = metrics.pairs(recs, "fct", lambda r: 0).get(0)
    if not m:
        return {}
    fig, ax = plt.subplots(figsize=(4.5, 3.2))
    for mode, r in m.items():
        _cdf(ax, r["fct_ms"], color=COLOR[mode], label=mode)
    ax.set_xscale("log")
    ax.set_xlabel("1 MB flow completion time, ms")
    ax.set_ylabel("CDF")
    ax.legend(fontsize=8)
    out = {"ours": _save(fig, outdir, "fct.png")}
    ours = [None, None]
    if "native" in m and "eqds" in m:
        n, e = m["native"]["m"], m["eqds"]["m"]
        ours = [n["med"] / e["med"] if e["med"] else None, n["p95"] / e["p95"] if e["p95"] else None]
    p = paper.NORM["fct_ratio"]
    out["paper"] = _versus(outdir, "fct-paper.png", "FCT native / FCT EQDS (above 1: EQDS faster)",
                           "ratio", ["median", "p95"], [p["median"], p["p95"]], ours)
    return out


def rpc(recs, outdir):
    rp = metrics.pairs(recs, "rpc", lambda r: r["buffer"])
    if not rp:
        return {}
    fig, ax = plt.subplots(figsize=(4.8, 3.3))
    for buf, m in sorted(rp.items()):
        for mode, r in m.items():
            _cdf(ax, r["lat_busy_ms"] or [], color=COLOR[mode], ls=STYLE.get(buf, ":"),
                 label="%s, %s buffer" % (mode, buf))
    ax.set_xscale("log")
    ax.set_xlabel("request latency under incast, ms")
    ax.set_ylabel("CDF")
    ax.legend(fontsize=7)
    out = {"ours": _save(fig, outdir, "rpc.png")}
    labels, ours = [], []
    for buf, m in sorted(rp.items()):
        labels.append(buf)
        n, e = (m.get(k, {}).get("m") or {} for k in ("native", "eqds"))
        ours.append(n["busy_med"] / e["busy_med"] if n.get("busy_med") and e.get("busy_med") else None)
    out["paper"] = _versus(outdir, "rpc-paper.png", "median latency native / EQDS under incast\n"
                           "(paper: memcached, 20-30x)", "ratio (log)", labels,
                           [paper.NORM["rpc_ratio"]] * len(labels), ours, log=True)
    return out


ALL = {"incast": incast, "udp": udp, "ccmix": ccmix, "perm": perm, "fct": fct, "rpc": rpc}


def draw(recs, outdir):
    """{scenario: {"ours": file, "paper": file}}, files relative to outdir."""
    os.makedirs(outdir, exist_ok=True)
    out = {}
    for name, f in ALL.items():
        try:
            out[name] = f(recs, outdir)
        except Exception as e:  # one broken plot must not lose the report
            print("plots: %s: %s" % (name, e), file=sys.stderr)
            out[name] = {}
    return out
