#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print one evaluation result record as a JSON line.

Arguments are KEY=VALUE (a number when it parses as one, else a string) or
KEY@KIND=ARG, which reads raw output so that the shell never parses it:

  KEY@iperf=F1,F2,...  iperf3 -J client outputs: KEY_mbit (received Mbit/s)
                       and KEY_retx (retransmits), one per file, in order;
                       a failed or missing run counts as 0 Mbit/s
  KEY@ping=FILE        ping output: KEY_ms, every RTT in milliseconds, and
                       KEY_sent, the number of echo requests sent
  KEY@lines=FILE       one number per line (a sampled queue)
  KEY@list=A B C       numbers separated by spaces
  KEY@json=TEXT        any JSON value (eqds counters, FCT lists)
  KEY@jsonfile=FILE    the same, read from a file
"""
import json
import re
import sys


def number(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def iperf_one(path):
    """Received Mbit/s and retransmits of one iperf3 -J client run."""
    try:
        end = json.load(open(path))["end"]
    except (OSError, ValueError, KeyError):
        return 0.0, 0
    # TCP: sum_received is the server's count. UDP (iperf3 3.12): sum is the
    # sender's view with the server's lost packets; prefer sum_received.
    recv = end.get("sum_received") or end.get("sum") or {}
    mbit = recv.get("bits_per_second", 0) / 1e6
    if "lost_percent" in recv and "sum_received" not in end:
        mbit *= 1 - recv["lost_percent"] / 100
    return round(mbit, 2), end.get("sum_sent", {}).get("retransmits", 0)


def ping_rtts(path):
    try:
        text = open(path).read()
    except OSError:
        return [], 0
    rtts = [float(t) for t in re.findall(r"time=([\d.]+) ms", text)]
    sent = re.search(r"(\d+) packets transmitted", text)
    return rtts, int(sent.group(1)) if sent else len(rtts)


def main(args):
    rec = {}
    for arg in args:
        key, _, val = arg.partition("=")
        key, _, kind = key.partition("@")
        if not kind:
            rec[key] = number(val)
        elif kind == "iperf":
            runs = [iperf_one(p) for p in val.split(",") if p]
            rec[key + "_mbit"] = [m for m, _ in runs]
            rec[key + "_retx"] = [r for _, r in runs]
        elif kind == "ping":
            rec[key + "_ms"], rec[key + "_sent"] = ping_rtts(val)
        elif kind == "lines":
            try:
                rec[key] = [number(x) for x in open(val).read().split()]
            except OSError:
                rec[key] = []
        elif kind == "list":
            rec[key] = [number(x) for x in val.split()]
        elif kind == "json":
            rec[key] = json.loads(val) if val else None
        elif kind == "jsonfile":
            try:
                rec[key] = json.load(open(val))
            except (OSError, ValueError):
                rec[key] = None
        else:
            sys.exit("record.py: unknown kind %r" % kind)
    print(json.dumps(rec, separators=(",", ":")))


if __name__ == "__main__":
    main(sys.argv[1:])
