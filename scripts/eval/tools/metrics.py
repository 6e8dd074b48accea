#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Figures derived from the raw run records (results.jsonl), and the
issue's acceptance criteria evaluated on them. Shared by summary.py (the
table printed at the end of a run), report.py (Markdown and plots) and the
smoke test's assertions, so that all three judge a run the same way."""
import json
import math
import statistics

# Acceptance thresholds (issue 5). Named so the report can print them.
JAIN_MIN = 0.95            # incast fairness with eqds, both buffers
DROP_PCT_MAX = 0.5         # "near zero" bottleneck drops with eqds, % of packets
PING_MULT_MAX = 5.0        # eqds ping under incast: a small multiple of idle
PING_VS_NATIVE_MAX = 0.1   # ... and far below native (deep buffer): < 1/10
FAIR_TOL = 0.20            # UDP blaster and each CC pair: within 20% of fair


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def pct(xs, q):
    """The q-quantile (0..1) by nearest rank; None for no data."""
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return None
    return xs[min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))]


def jain(xs):
    s, q = sum(xs), sum(x * x for x in xs)
    return s * s / (len(xs) * q) if q else 0.0


def worst_dev(xs):
    """The flow furthest from the fair share, as a fraction of it."""
    fair = sum(xs) / len(xs) if xs else 0
    return max(abs(x - fair) / fair for x in xs) if fair else 1.0


def incast(r):
    x = r["flows_mbit"]
    sent = r["packets"] + r["drops"]
    idle, busy = r.get("ping_idle_ms") or [], r.get("ping_busy_ms") or []
    lost = r.get("ping_busy_sent", 0) - len(busy)
    return {
        "total_mbit": sum(x), "jain": jain(x), "min_share": min(x) / (sum(x) / len(x)) if sum(x) else 0,
        "drop_pct": 100.0 * r["drops"] / sent if sent else 0.0, "drops": r["drops"],
        "retx": r.get("retx", 0), "q_avg": statistics.mean(r["qlen"]) if r.get("qlen") else None,
        "q_max": max(r["qlen"]) if r.get("qlen") else None,
        "ping_idle_med": pct(idle, .5), "ping_busy_med": pct(busy, .5),
        "ping_busy_p99": pct(busy, .99), "ping_lost": max(0, lost), "cpu": r.get("cpu_busy"),
    }


def udp(r):
    x, kinds = r["flows_mbit"], r["kinds"]
    total = sum(x)
    u = sum(v for v, k in zip(x, kinds) if k == "udp")
    return {"total_mbit": total, "udp_mbit": u, "tcp_mbit": [v for v, k in zip(x, kinds) if k == "tcp"],
            "udp_share": u / total if total else 0, "fair_share": 1 / len(x),
            "drops": r.get("drops", 0), "cpu": r.get("cpu_busy")}


def ccmix(r):
    x = r["flows_mbit"]
    sent = r.get("packets", 0) + r.get("drops", 0)
    out = {"cubic_mbit": x[0], "other_mbit": x[1], "jain": jain(x), "worst_dev": worst_dev(x),
           "drops": r.get("drops"), "drop_pct": 100.0 * r["drops"] / sent if sent else None,
           "cpu": r.get("cpu_busy")}
    for who in ("cubic", "other"):
        idle, busy = pct(r.get("ping_idle_%s_ms" % who) or [], .5), pct(r.get("ping_busy_%s_ms" % who) or [], .5)
        out["qdelay_%s_ms" % who] = busy - idle if idle is not None and busy is not None else None
    return out


def perm(r):
    x = r["flows_mbit"]
    sb = r.get("spine_bytes") or []
    return {"avg_mbit": statistics.mean(x), "min_mbit": min(x), "capacity": r["rate_mbit"],
            "avg_frac": statistics.mean(x) / r["rate_mbit"], "retx": r.get("retx", 0),
            "reorder_events": r.get("reorder_events", 0),
            "spine_shares": [b / sum(sb) for b in sb] if sum(sb) else [], "cpu": r.get("cpu_busy")}


def fct(r):
    x = r.get("fct_ms") or []
    return {"count": len(x), "med": pct(x, .5), "p95": pct(x, .95), "p99": pct(x, .99), "cpu": r.get("cpu_busy")}


def rpc(r):
    idle, busy = r.get("lat_idle_ms") or [], r.get("lat_busy_ms") or []
    return {"idle_med": pct(idle, .5), "busy_med": pct(busy, .5), "busy_p99": pct(busy, .99),
            "calls": len(busy), "cpu": r.get("cpu_busy")}


DERIVE = {"incast": incast, "udp": udp, "ccmix": ccmix, "perm": perm, "fct": fct, "rpc": rpc,
          "spines": perm}


def derive(records):
    """Each record with its derived figures under "m"."""
    out = []
    for r in records:
        f = DERIVE.get(r["scenario"])
        if f:
            try:
                r = dict(r, m=f(r))
            except (KeyError, ValueError, ZeroDivisionError, TypeError, IndexError) as e:
                r = dict(r, m=None, error=str(e))
        out.append(r)
    return out


def pairs(records, scenario, key):
    """{key(r): {mode: record}} for one scenario's records."""
    out = {}
    for r in records:
        if r["scenario"] == scenario and r.get("m"):
            out.setdefault(key(r), {})[r["mode"]] = r
    return out


def acceptance(records):
    """The issue's acceptance criteria: a list of (criterion, met, detail).
    met is None when the run has no data for it."""
    res = []
    inc = pairs(records, "incast", lambda r: (r["buffer"], r["n"]))
    for (buf, n), m in sorted(inc.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        e, nat = m.get("eqds"), m.get("native")
        if not e:
            continue
        em = e["m"]
        res.append(("incast N=%d %s: eqds Jain >= %.2f" % (n, buf, JAIN_MIN), em["jain"] >= JAIN_MIN,
                    "%.3f (native %s)" % (em["jain"], "%.3f" % nat["m"]["jain"] if nat else "-")))
        res.append(("incast N=%d %s: eqds drops < %.1f%%" % (n, buf, DROP_PCT_MAX), em["drop_pct"] < DROP_PCT_MAX,
                    "%.2f%% (%d packets; native %s)" % (em["drop_pct"], em["drops"],
                                                       "%.2f%%" % nat["m"]["drop_pct"] if nat else "-")))
        i, b = em["ping_idle_med"], em["ping_busy_med"]
        if i and b is not None:
            res.append(("incast N=%d %s: eqds ping under incast <= %gx idle" % (n, buf, PING_MULT_MAX),
                        b <= PING_MULT_MAX * i, "median %.2f ms, idle %.2f ms" % (b, i)))
        if buf == "deep" and nat and b is not None and nat["m"]["ping_busy_med"]:
            nb = nat["m"]["ping_busy_med"]
            res.append(("incast N=%d deep: eqds ping < %g x native" % (n, PING_VS_NATIVE_MAX),
                        b < PING_VS_NATIVE_MAX * nb, "%.2f ms vs native %.2f ms" % (b, nb)))
    for _, m in pairs(records, "udp", lambda r: 0).items():
        if "eqds" in m:
            um = m["eqds"]["m"]
            res.append(("UDP blaster held to a fair share with eqds (within %d%%)" % (FAIR_TOL * 100),
                        um["udp_share"] <= um["fair_share"] * (1 + FAIR_TOL),
                        "UDP %.0f%% of the link, fair %.0f%% (native %s)" % (
                            100 * um["udp_share"], 100 * um["fair_share"],
                            "%.0f%%" % (100 * m["native"]["m"]["udp_share"]) if "native" in m else "-")))
    for cc, m in sorted(pairs(records, "ccmix", lambda r: r["cc"]).items()):
        if "eqds" in m:
            cm = m["eqds"]["m"]
            res.append(("cubic vs %s within %d%% of fair with eqds" % (cc, FAIR_TOL * 100),
                        cm["worst_dev"] <= FAIR_TOL,
                        "%.1f / %.1f Mbit/s, worst %.0f%% off (native %s)" % (
                            cm["cubic_mbit"], cm["other_mbit"], 100 * cm["worst_dev"],
                            "%.0f%% off" % (100 * m["native"]["m"]["worst_dev"]) if "native" in m else "-")))
    return res
