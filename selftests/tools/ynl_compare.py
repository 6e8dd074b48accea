#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare what the kernel's generic YNL client decodes with eqdsctl's JSON.

  ynl_compare.py instance EQDSCTL-SHOW-JSON EQDSCTL-POLICY-JSON
  ynl_compare.py set SENT-JSON EQDSCTL-SHOW-JSON EQDSCTL-POLICY-JSON
  ynl_compare.py tunnels do|dump REQUEST-JSON EQDSCTL-TUNNELS-JSON (eqdsctl -j -s)
  ynl_compare.py some-tunnels do|dump REQUEST-JSON EQDSCTL-TUNNELS-JSON
  ynl_compare.py events YNL-JSON EQDSCTL-MONITOR-FILE (eqdsctl -j monitor)

instance and the tunnels make their get-instance (do and dump) and get-tunnel
requests here, with the kernel's ynl library (tools/ynl/lib) reading
uapi/eqds.yaml: names and types come from the spec alone. events compares the
output of tools/ynl/cli.py --subscribe tunnels --output-json. Every attribute
the client decoded must agree with eqdsctl (which decodes with
uapi/linux/eqds.h), and the spec's attributes must all be there: for
instance, every attribute of get-instance's reply; for tunnels, every tunnel
attribute but del-reason (events only) and pad, over the tunnels of both sides
(not for some-tunnels); for events, each of the spec's events and del-reason.
set compares the attributes of a set-instance request with eqdsctl's view.
Prints what it compared, or each difference; exits 1 on any difference.
"""
import functools
import ipaddress
import json
import os
import sys

import yaml

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..")
SPEC = os.path.join(TOP, "uapi/eqds.yaml")
diffs = []
compared = 0


@functools.cache
def spec():
    with open(SPEC) as f:
        return yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def attr_names(s, set_name):
    for a in s["attribute-sets"]:
        if a["name"] == set_name:
            return [x["name"] for x in a["attributes"] if x["type"] != "pad"]
    raise SystemExit("no attribute set " + set_name)


def same(what, got, want):
    global compared
    compared += 1
    if got != want:
        diffs.append("%s: ynl %r, eqdsctl %r" % (what, got, want))


def ynl_family():
    sys.path.insert(0, os.path.join(TOP, "tools/ynl"))
    from lib import YnlFamily
    return YnlFamily(SPEC, "")	# the schema is scripts/ynl-check.py's job


def addr(family, value):
    raw = value if isinstance(value, bytes) else bytes.fromhex(value)
    if (family, len(raw)) not in ((2, 4), (10, 16)):
        diffs.append("address %s of family %d" % (raw.hex(), family))
    return str(ipaddress.ip_address(raw))


def prefixes(array):
    """An indexed-array of prefix nests, as eqdsctl prints them; checks the
    kernel's numbering (1, 2, ...)."""
    out = []
    for i, elem in enumerate(array, 1):
        if "family" in elem:
            p = elem	# as sent, unnumbered
        else:
            (index, p), = elem.items()
            same("element %d's index" % i, int(index), i)
        out.append((p, "%s/%d" % (addr(p["family"], p["addr"]), p["prefixlen"])))
    return out


def policy(rules, bound, ctl):
    got = [{"prefix": pfx, "weight": r["weight"], "prio": r["prio"], "rate_mbit": r["rate"]}
           for r, pfx in prefixes(rules)]
    same("policy", got, ctl["policy"])
    b = {"pull_rate_mbit": bound.get("pull-rate", 0), "max_weight": bound.get("max-weight", 0),
         "min_prio": bound.get("min-prio", 0)}
    same("bound", b, ctl["bound"])


SELECTORS = {"priority", "mark", "mark-mask"}	# the ll class's only


def classes(nests, show, reply):
    """The class nests (multi-attr), each attribute against eqdsctl's
    classes.<id>; a reply has one nest per class with all its attributes."""
    for n in nests:
        cid = n.get("id")
        ctl = show["classes"].get(cid, {})
        for a, v in n.items():
            if a != "id":
                same("class %s %s" % (cid, a), v, ctl.get(a.replace("-", "_"), "absent"))
        if reply:
            want = set(attr_names(spec(), "class")) - (set() if cid == "ll" else SELECTORS)
            same("class %s attributes" % cid, sorted(n), sorted(want))
    if reply:
        same("classes of the reply", [n.get("id") for n in nests], list(show["classes"]))


def instance(y, show, pol, reply=True):
    if isinstance(y, list):	# a dump: the one instance
        same("messages of the dump", len(y), 1)
        y = y[0]
    for op in spec()["operations"]["list"]:
        if op["name"] == "get-instance":
            spec_reply = op["do"]["reply"]["attributes"]
    missing = sorted(set(spec_reply) - set(y))
    if reply and missing:
        diffs.append("get-instance reply lacks %s" % missing)
    ctl_of = {
        "version": show["version"], "port": show["port"], "mode": show["mode"],
        "pull-rate": show["pull_rate_mbit"], "headroom": show["headroom"],
        "window": show["window"],
        "idle-timeout": show["idle_timeout_ms"], "queued-limit": show["queued_limit_kb"],
    }
    for k, v in y.items():
        if k == "dests":
            same("dests", [p for _, p in prefixes(v)], show["dests"])
        elif k == "stats":
            same("stats", {n.replace("-", "_"): c for n, c in v.items()}, show["stats"])
        elif k == "policy":
            policy(v, y.get("bound", {}), pol)
        elif k == "bound":
            pass    # with policy
        elif k == "class":
            classes(v, show, reply)
        elif k in ctl_of:
            same(k, v, ctl_of[k])
        else:
            diffs.append("attribute %s: not compared" % k)
    want = set(attr_names(spec(), "stats"))
    if reply and set(y.get("stats", {})) != want:
        diffs.append("stats: spec's %s, reply's %s" % (sorted(want - set(y["stats"])),
                                                      sorted(set(y["stats"]) - want)))


VOLATILE = {"idle-ms", "heard-ms"}	# time passes between the two reads


def tunnel(t, c, seen, seen_stats):
    name = "tunnel %s %s" % (t["dir"], t["id"])
    for k, v in t.items():
        seen.add(k)
        if k == "family":
            continue
        if k in ("peer", "local"):
            same("%s %s" % (name, k), addr(t["family"], v), c.get(k, "absent"))
        elif k == "stats":
            seen_stats.update(v)
            same(name + " stats", {n.replace("-", "_"): x for n, x in v.items()},
                 c.get("stats", "absent"))
        elif k == "active":
            same(name + " active", bool(v), c.get("active", "absent"))
        elif k in VOLATILE:
            same(name + " has " + k, True, k.replace("-", "_") in c)
        else:
            same("%s %s" % (name, k), v, c.get(k.replace("-", "_"), "absent"))


def tunnels(y, ctl, whole=True):
    if isinstance(y, dict):	# a do: one message
        y = [y]
    by_key = {(c["dir"], c["id"]): c for c in ctl}
    seen, seen_stats = set(), set()
    got = []
    for msg in y:
        for t in msg["tunnel"]:
            got.append((t["dir"], t["id"]))
            if (t["dir"], t["id"]) in by_key:
                tunnel(t, by_key[(t["dir"], t["id"])], seen, seen_stats)
    same("tunnels (dir, id)", sorted(got), sorted(by_key))
    if not whole:
        return
    s = spec()
    want = set(attr_names(s, "tunnel")) - {"del-reason"}
    if seen != want:
        diffs.append("tunnel attributes not seen: %s" % sorted(want - seen))
    if seen_stats != set(attr_names(s, "tunnel-stats")):
        diffs.append("tunnel counters not seen: %s"
                     % sorted(set(attr_names(s, "tunnel-stats")) - seen_stats))


def events(y, lines):
    ctl = [json.loads(line) for line in lines if line.startswith("{")]
    same("number of events", len(y), len(ctl))
    kinds = {"tunnel-new": "new", "tunnel-del": "del", "tunnel-restart": "restart",
             "policy-changed": "policy"}
    for e, c in zip(y, ctl):
        same("event", kinds.get(e["name"], e["name"]), c["event"])
        if kinds.get(e["name"]) != c["event"]:
            continue
        if e["name"] == "policy-changed":
            policy(e["msg"]["policy"], e["msg"].get("bound", {}), c)
            continue
        t, = e["msg"]["tunnel"]
        got = {"dir": t["dir"], "id": t["id"], "peer": addr(t["family"], t["peer"]),
               "epoch": t["epoch"]}
        if "del-reason" in t:
            got["reason"] = t["del-reason"]
        same(e["name"], got, {k: v for k, v in c.items() if k != "event"})
    names = {e["name"] for e in y}
    if names != set(kinds):
        diffs.append("events not seen: %s" % sorted(set(kinds) - names))
    if not any("del-reason" in e["msg"].get("tunnel", [{}])[0] for e in y):
        diffs.append("no del-reason seen")


def main():
    kind, args = sys.argv[1], sys.argv[2:]
    if kind == "instance":
        ynl = ynl_family()
        show, pol = json.loads(args[0]), json.loads(args[1])
        instance(ynl.do("get-instance", {}), show, pol)
        instance(ynl.dump("get-instance", {}), show, pol)
    elif kind == "set":
        instance(json.loads(args[0]), json.loads(args[1]), json.loads(args[2]), False)
    elif kind in ("tunnels", "some-tunnels"):
        ynl = ynl_family()
        req = json.loads(args[1])
        y = ynl.do("get-tunnel", req) if args[0] == "do" else ynl.dump("get-tunnel", req)
        tunnels(y, json.loads(args[2]), kind == "tunnels")
    elif kind == "events":
        with open(args[1]) as f:
            events(json.loads(args[0]), f.read().splitlines())
    else:
        raise SystemExit(__doc__)
    for d in diffs:
        print(d)
    print("%d values compared, %d differ" % (compared, len(diffs)))
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
