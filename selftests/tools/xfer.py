#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Bulk TCP transfer with an end-to-end SHA-256, for integrity tests.

  xfer.py serve ADDR PORT          accept one connection, print "<bytes> <sha256>"
  xfer.py send ADDR PORT BYTES     send BYTES of pseudo-random data, print the same

The data is a random 1 MiB block with its first 8 bytes replaced by the block
number, so a lost, duplicated or misplaced segment changes the digest.
"""
import hashlib
import os
import socket
import struct
import sys

BLOCK = 1 << 20


def serve(addr, port):
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    with socket.socket(fam, socket.SOCK_STREAM) as ls:
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind((addr, port))
        ls.listen(1)
        ls.settimeout(120)
        conn, _ = ls.accept()
        conn.settimeout(120)
        h, n = hashlib.sha256(), 0
        buf = bytearray(BLOCK)
        while True:
            got = conn.recv_into(buf)
            if not got:
                break
            h.update(memoryview(buf)[:got])
            n += got
        print(n, h.hexdigest(), flush=True)


def send(addr, port, total):
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    base = bytearray(os.urandom(BLOCK))
    h, n, i = hashlib.sha256(), 0, 0
    with socket.create_connection((addr, port), timeout=120) as s:
        while n < total:
            struct.pack_into("!Q", base, 0, i)
            chunk = memoryview(base)[:min(BLOCK, total - n)]
            s.sendall(chunk)
            h.update(chunk)
            n += len(chunk)
            i += 1
        s.shutdown(socket.SHUT_WR)
        s.recv(1)
    print(n, h.hexdigest(), flush=True)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "serve":
        serve(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) >= 5 and sys.argv[1] == "send":
        send(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit(__doc__)
