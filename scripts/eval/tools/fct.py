#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Closed-loop downloads for the FCT scenario.

  fct.py serve ADDR PORT SIZE
      answer every connection with SIZE bytes, then close it
  fct.py fetch SEED SECS PORT PEER...
      until SECS have passed: pick a peer at random (seeded), connect,
      read until the server closes, and record the flow completion time
      (connect to last byte); print the FCTs in ms as a JSON list

One client per host keeps one download outstanding at a time, so the
offered load follows what the network delivers (closed loop).
"""
import json
import random
import socket
import sys
import threading
import time


def serve(addr, port, size):
    payload = b"x" * size
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((addr, port))
    srv.listen(64)

    def answer(conn):
        with conn:
            try:
                conn.sendall(payload)
            except OSError:
                pass

    while True:
        conn, _ = srv.accept()
        threading.Thread(target=answer, args=(conn,), daemon=True).start()


def fetch_one(peer, port):
    t0 = time.monotonic()
    got = 0
    with socket.create_connection((peer, port), timeout=30) as s:
        while True:
            chunk = s.recv(1 << 16)
            if not chunk:
                break
            got += len(chunk)
    return (time.monotonic() - t0) * 1000, got


def fetch(seed, secs, port, peers):
    rng = random.Random(seed)
    end = time.monotonic() + secs
    fcts = []
    while time.monotonic() < end:
        try:
            ms, got = fetch_one(rng.choice(peers), port)
        except OSError:
            continue
        if got:
            fcts.append(round(ms, 3))
    print(json.dumps(fcts))


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        fetch(int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5:])
