#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Request/response latency (a stand-in for the paper's memcached test).

  rpc.py serve ADDR PORT
      answer each 64-byte request with a 1024-byte response (a small
      memcached GET: short key in, one value out)
  rpc.py call ADDR PORT SECS [INTERVAL_MS]
      on one persistent connection (TCP_NODELAY), send a request every
      INTERVAL_MS (default 10), wait for the whole response, record the
      latency; print the latencies in ms as a JSON list
"""
import json
import socket
import sys
import time

REQ, RESP = 64, 1024


def recv_exactly(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("closed")
        buf += chunk
    return buf


def serve(addr, port):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((addr, port))
    srv.listen(4)
    while True:
        conn, _ = srv.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            while True:
                recv_exactly(conn, REQ)
                conn.sendall(b"v" * RESP)
        except (ConnectionError, OSError):
            conn.close()


def call(addr, port, secs, interval_ms):
    lat = []
    s = socket.create_connection((addr, port), timeout=10)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    end = time.monotonic() + secs
    while time.monotonic() < end:
        t0 = time.monotonic()
        try:
            s.sendall(b"k" * REQ)
            recv_exactly(s, RESP)
        except (ConnectionError, OSError):
            break
        ms = (time.monotonic() - t0) * 1000
        lat.append(round(ms, 3))
        time.sleep(max(0.0, interval_ms / 1000 - ms / 1000))
    print(json.dumps(lat))


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2], int(sys.argv[3]))
    else:
        call(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]),
             float(sys.argv[5]) if len(sys.argv) > 5 else 10.0)
