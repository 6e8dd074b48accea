#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The paper's figures for each scenario (Olteanu et al., "An edge-queued
datagram service for all datacenter traffic", NSDI 2022), as our brief
(shared/brief/eqds.md section 5) restates them. TEXT goes into the report's
"paper" column; NORM holds the few that compare on a scale independent of
link speed, drawn beside ours in the plots."""

TEXT = {
    "incast": "850 senders, 15-packet bottleneck buffer, 100-packet EQIF queues: near-perfect "
              "(fair-queueing-like) sharing; ping to the busy receiver +21 us with EQDS vs "
              "55 us -> 9 ms (x163) natively on EC2; testbed +36 us vs +500 us",
    "udp": "natively the UDP blaster takes nearly all of 25 Gb/s; with EQDS the receiver shares "
           "fairly with the 4 TCP flows",
    "ccmix": "Cubic vs BBR, DCTCP, Reno, Vegas, ... share fairly over EQDS (Vegas the exception); "
             "EQIF queueing delay at line rate 243 us (BBR), 435 us (DCTCP), 1315 us (Cubic)",
    "perm": "TCP over EQDS with spraying: 22 Gb/s average (24 max) on 25 Gb/s links; native TCP "
            "12-14 Gb/s (ECMP flow collisions)",
    "fct": "1 MB closed-loop downloads: median FCT 2.4x and p95 2x better with EQDS; RTS mode "
           "about half the baseline's FCT",
    "rpc": "memcached on a server under incast: request latency 20-30x lower with EQDS",
    "spines": "not in the paper (issue 17): the paper sprays evenly and leaves bad paths to "
              "future work; htsim's EQDS and UEC skip the paths whose packets were lost or marked",
}

# Scale-free figures: fraction of link capacity (perm), native/EQDS ratios
# (fct, rpc, incast ping increase), UDP's share of the link.
NORM = {
    "perm_frac": {"native": 13 / 25, "eqds": 22 / 25},
    "fct_ratio": {"median": 2.4, "p95": 2.0},
    "rpc_ratio": 25.0,
    "ping_increase_us": {"native": 9000 - 55, "eqds": 21},
    "udp_share": {"native": 0.95, "eqds": 0.20},
}
