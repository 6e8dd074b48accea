#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hostile EQDS packet generator for the selftests.

Sends broken and forged EQDS packets (IPv4 outer headers, spoofed sources,
raw socket) at a receiver and prints, as JSON, what each of the receiver's
counters must have counted for them: every packet it sends belongs to a
class whose fate the receiver's design decides (see test_hostile.sh).

  eqds_hostile.py barrage --dst ADDR --port N --peers CIDR --outside CIDR
                          --legit ADDR [--count N] [--seed N] [--pps N]
  eqds_hostile.py pulls --dst ADDR --port N --src ADDR [--epoch E]
                        --count N [--seed N] [--pps N]
  eqds_hostile.py syns --dst ADDR --port N --src ADDR --count N [--pps N]
                      [--stop-file PATH]
  eqds_hostile.py sniff --src ADDR --port N [--timeout S]
  eqds_hostile.py flood --dst ADDR --port N --peers CIDR --outside CIDR
                        --count N [--pps N]

Only the standard library: Debian's python3 without scapy.
"""
import argparse
import ipaddress
import json
import os
import random
import socket
import struct
import sys
import time

VERSION = 1
DATA, CTRL = 1, 2
SYN, ACK, NACK, PULL, RTS, FIN, RST, SACK = 1, 2, 4, 8, 16, 32, 64, 128
TCPSEQ = ACK			# data: the header goes on with tcp_seq, tcp_mss
NP_NONE, NP_IPV4, NP_IPV6 = 0, 4, 6
DATA_HLEN, CTRL_HLEN = 16, 28
MAX_SEGS = 64
QUANTUM = 24			# 1536 bytes, in 64-byte units, as eqds pulls
U32 = 0xffffffff


def isn(epoch):
    return (epoch * 2654435761) & U32


def common(typ, flags, np, epoch, path=0, version=VERSION):
    return struct.pack("!BBBBI", (version << 4) | typ, flags, path, np, epoch)


def data_hdr(flags, np, epoch, seq, pull_target=0, segs=1, **kw):
    return common(DATA, flags, np, epoch, **kw) + struct.pack("!IHH", seq & U32,
                                                             pull_target, segs)


def ctrl_hdr(flags, epoch, ack=0, pull_no=0, busy=0, quantum=0, sack=0, **kw):
    return common(CTRL, flags, 0, epoch, **kw) + struct.pack(
        "!IIHHQ", ack & U32, pull_no & U32, busy, quantum, sack)


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def ipv4(src, dst, payload, proto=1, ident=0, frag=0x4000, ihl=5, version=4,
         tot_len=None, good_csum=True):
    opts = b"\x01" * ((ihl - 5) * 4) if ihl > 5 else b""
    hlen = max(ihl, 5) * 4
    tl = hlen + len(payload) if tot_len is None else tot_len
    h = struct.pack("!BBHHHBBH4s4s", (version << 4) | (ihl & 15), 0, tl, ident,
                    frag, 64, proto, 0, socket.inet_aton(src), socket.inet_aton(dst)) + opts
    c = csum(h) if good_csum else (csum(h) ^ 0x5a5a) or 1
    return h[:10] + struct.pack("!H", c) + h[12:] + payload


def icmp_echo_reply(ident=0xe9d5, seq=1, size=16):
    body = bytes(size)
    h = struct.pack("!BBHHH", 0, 0, 0, ident, seq) + body
    return h[:2] + struct.pack("!H", csum(h)) + h[4:]


def inner4(src, dst, **kw):
    """A whole, valid inner IPv4 packet: an ICMP echo reply, which the
    receiving stack consumes without answering."""
    return ipv4(src, dst, icmp_echo_reply(), **kw)


class Sender:
    """Raw IPv4 socket: we write the IP header (the kernel fills in the
    header checksum, and the ID when it is 0, so data packets whose ID
    matters never use seq with low 16 bits 0)."""

    def __init__(self, dst, port, pps):
        self.dst, self.port = dst, port
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
        self.gap = 1.0 / pps if pps else 0
        self.sent = 0

    def send(self, src, payload, ident=None, path=0):
        sport = 0xd000 | (path & 0xff)
        ulen = 8 + len(payload)
        pseudo = struct.pack("!4s4sBBH", socket.inet_aton(src),
                             socket.inet_aton(self.dst), 0, 17, ulen)
        udp = struct.pack("!HHHH", sport, self.port, ulen, 0) + payload
        c = csum(pseudo + udp) or 0xffff
        udp = udp[:6] + struct.pack("!H", c) + udp[8:]
        if ident is None:
            ident = random.randrange(1, 0x10000)
        pkt = ipv4(src, self.dst, udp, proto=17, ident=ident)
        self.sock.sendto(pkt, (self.dst, 0))
        self.sent += 1
        # Paced in small bursts: a veth backlog overflow would lose packets
        # that nobody counts, and the accounting would not add up.
        if self.gap and self.sent % 20 == 0:
            time.sleep(self.gap * 20)


def rand_addr(net, used):
    n = ipaddress.ip_network(net)
    while True:
        a = str(n.network_address + random.randrange(16, n.num_addresses - 1))
        if a not in used:
            used.add(a)
            return a


def rand_epoch():
    return random.randrange(1, U32 + 1)


def far_seq(epoch):
    """A seq outside any reorder window of a fresh tunnel: more than 1024
    ahead of its ISN or more than 1024 behind it; low 16 bits nonzero."""
    while True:
        off = random.randrange(1024, (1 << 31) - 1024)
        seq = (isn(epoch) + (off if random.random() < 0.5 else -off)) & U32
        if seq & 0xffff:
            return seq


def start_seq(epoch):
    """A fresh epoch whose ISN has nonzero low 16 bits (see Sender)."""
    while isn(epoch) & 0xffff == 0:
        epoch = rand_epoch()
    return epoch, isn(epoch)


def malformed():
    """(payload, class) for headers the decoder must reject."""
    e = rand_epoch()
    ok_inner = bytes(20)
    choices = [
        ("short", lambda: bytes(random.randrange(256) for _ in range(random.randrange(8)))),
        ("version", lambda: data_hdr(SYN, NP_IPV4, e, 1,
                                     version=random.choice([0, 2, 3, 15])) + ok_inner),
        ("type", lambda: bytes([(VERSION << 4) | random.choice([0, 3, 7, 15])]) +
         bytes(random.randrange(256) for _ in range(27))),
        ("data_short", lambda: data_hdr(SYN, NP_IPV4, e, 1)[:random.randrange(8, 16)]),
        ("data_flags", lambda: data_hdr(random.choice([PULL, RST, SACK]) |
                                        random.choice([0, SYN]), NP_IPV4, e, 1) + ok_inner),
        ("data_ext", lambda: data_hdr(TCPSEQ | random.choice([0, SYN]), NP_IPV4, e, 1) +
         struct.pack("!IHH", 1, *random.choice([(0, 0), (1428, 1)])) + ok_inner),
        ("data_flag_combo", lambda: data_hdr(RTS | FIN, NP_NONE, e, 1, segs=0)),
        ("data_proto", lambda: data_hdr(SYN, random.choice([1, 5, 17, 41, 0xfc]), e, 1) +
         ok_inner),
        ("data_empty", lambda: data_hdr(random.choice([0, SYN]), NP_NONE, e, 1, segs=0)),
        ("data_stray", lambda: data_hdr(SYN | RTS, NP_NONE, e, 1, segs=0) + b"x"),
        ("data_payload", lambda: data_hdr(SYN, NP_IPV4, e, 1) + bytes(random.randrange(20))),
        ("data_segs", lambda: data_hdr(SYN, NP_IPV4, e, 1,
                                       segs=random.choice([0, 65, 0xffff])) + ok_inner),
        ("ctrl_short", lambda: ctrl_hdr(ACK, e, 1)[:random.randrange(8, 28)]),
        ("ctrl_long", lambda: ctrl_hdr(ACK, e, 1) + b"\0" * random.randrange(1, 40)),
        ("ctrl_proto", lambda: bytearray(ctrl_hdr(ACK, e, 1))[:3] + bytes([4]) +
         ctrl_hdr(ACK, e, 1)[4:]),
        ("ctrl_no_flags", lambda: ctrl_hdr(0, e)),
        ("ctrl_rst_combo", lambda: ctrl_hdr(RST | ACK, e, 1)),
        ("ctrl_rts_combo", lambda: ctrl_hdr(RTS | PULL, e, 0, 1, quantum=QUANTUM)),
        # (NACK alone is legal: its ack field names the missing seq.)
        ("ctrl_need_ack", lambda: ctrl_hdr(random.choice([SYN, SACK, SYN | NACK]), e)),
        ("ctrl_fin_combo", lambda: ctrl_hdr(FIN | PULL, e, 0, 1, quantum=QUANTUM)),
        ("ctrl_quantum", lambda: ctrl_hdr(PULL, e, 0, 5, quantum=0)),
        ("ctrl_reserved", lambda: ctrl_hdr(ACK, e, 1, pull_no=7)),
        ("ctrl_huge_numbers_bad", lambda: ctrl_hdr(ACK, e, U32, pull_no=U32, sack=5)),
        ("random", random_garbage),
    ]
    name, make = random.choice(choices)
    return bytes(make()), name


def random_garbage():
    b = bytearray(random.randrange(256) for _ in range(random.randrange(1, 120)))
    b[0] = (random.choice([v for v in range(16) if v != VERSION]) << 4) | (b[0] & 15)
    return bytes(b)


def bad_inner(src, dst, outside):
    """(inner packet, class) that the inner checks must reject."""
    kinds = [
        ("inner_version", lambda: inner4(src, dst, version=6)),
        ("inner_ihl", lambda: inner4(src, dst, ihl=random.randrange(0, 5))),
        ("inner_csum", lambda: inner4(src, dst, good_csum=False)),
        ("inner_len_long", lambda: inner4(src, dst, tot_len=200 + random.randrange(1000))),
        ("inner_len_short", lambda: inner4(src, dst, tot_len=random.randrange(0, 20))),
        ("inner_fragment", lambda: inner4(src, dst, frag=random.choice([0x2000, 0x0010]))),
        ("inner_src_spoofed", lambda: inner4(outside, dst)),
        ("inner_dst_other", lambda: inner4(src, "10.77.0.1")),
    ]
    name, make = random.choice(kinds)
    return make(), name


def barrage(a):
    snd = Sender(a.dst, a.port, a.pps)
    used = {a.dst, a.legit}
    expect = {}
    classes = {}
    created = set()		# fresh sources that made the receiver create a tunnel
    t0 = time.time()

    def old_epoch(src, epoch):
        """Sometimes, at once (before the new tunnel can be reaped as half
        open), an older epoch with SYN for the tunnel just made: not taken,
        and the first such SYN of a tunnel is challenged (core/epoch.h)."""
        if random.random() < 0.4:
            return
        while True:
            old, seq = start_seq((epoch - random.randrange(1, 1 << 30)) & U32 or 1)
            if 0 < (epoch - old) & U32 < 1 << 31:
                break
        snd.send(src, data_hdr(SYN, NP_IPV4, old, seq) + inner4(src, a.dst), ident=seq & 0xffff)
        count("syn_old_epoch", "drop_epoch", "rx_drops", "challenges_sent")

    def count(cls, *counters):
        classes[cls] = classes.get(cls, 0) + 1
        for c in counters:
            expect[c] = expect.get(c, 0) + 1

    for _ in range(a.count):
        r = random.random()
        if r < 0.40:
            payload, cls = malformed()
            src = rand_addr(random.choice([a.peers, a.outside]), set())
            snd.send(src, payload)
            # Decoding comes first: malformed is malformed, whoever sent it.
            count(cls, "drop_decode", "rx_drops")
        elif r < 0.50:
            # Valid packets from hosts that are not peers: no state, no answer.
            src = rand_addr(a.outside, used)
            epoch, seq = start_seq(rand_epoch())
            if random.random() < 0.5:
                snd.send(src, data_hdr(SYN, NP_IPV4, epoch, seq, 8) + inner4(src, a.dst),
                         ident=seq & 0xffff)
            else:
                snd.send(src, ctrl_hdr(SYN | ACK | PULL, epoch, 0, 1, quantum=QUANTUM))
            count("not_a_peer", "drop_peer", "rx_drops")
        elif r < 0.60:
            src = rand_addr(a.peers, used)
            inner, cls = bad_inner(src, a.dst, rand_addr(a.outside, set()))
            epoch, seq = start_seq(rand_epoch())
            snd.send(src, data_hdr(SYN, NP_IPV4, epoch, seq) + inner, ident=seq & 0xffff)
            count(cls, "drop_inner", "rx_drops")
        elif r < 0.68:
            # Valid data without SYN for a tunnel the receiver does not know:
            # dropped, and an RST tells the (spoofed) sender to restart.
            src = rand_addr(a.peers, used)
            epoch, seq = start_seq(rand_epoch())
            snd.send(src, data_hdr(0, NP_IPV4, epoch, seq) + inner4(src, a.dst),
                     ident=seq & 0xffff)
            count("unknown_tunnel", "drop_unknown", "rx_drops", "rsts_sent")
        elif r < 0.74:
            # The legitimate sender's address, another epoch, no SYN: the
            # receiver's tunnel for it is untouched; the RST that goes back
            # is for an epoch the sender does not have.
            epoch, seq = start_seq(rand_epoch())
            snd.send(a.legit, data_hdr(0, NP_IPV4, epoch, seq) + inner4(a.legit, a.dst),
                     ident=seq & 0xffff)
            count("legit_addr_other_epoch", "drop_unknown", "rx_drops", "rsts_sent")
        elif r < 0.80:
            # Control packets with the legitimate peer's address and a guessed
            # epoch: pulls, acks, NACKs, RSTs for the receiver's own sending
            # tunnel (it sends TCP's acks back): all stale.
            flags = random.choice([SYN | ACK | PULL, ACK, ACK | NACK, RST, ACK | SACK | PULL])
            pk = dict(ack=random.randrange(U32 + 1)) if flags & ACK else {}
            if flags & PULL:
                pk.update(pull_no=random.randrange(U32 + 1), quantum=random.randrange(1, 0x10000))
            if flags & SACK:
                pk.update(sack=random.randrange(1, 1 << 64))
            snd.send(a.legit, ctrl_hdr(flags, rand_epoch(), **pk))
            count("ctrl_legit_addr_guessed_epoch", "drop_stale")
        elif r < 0.84:
            # Control packets from peers the receiver sends nothing to.
            src = rand_addr(a.peers, used)
            snd.send(src, ctrl_hdr(SYN | ACK | PULL, rand_epoch(), 1, 1, quantum=QUANTUM))
            count("ctrl_no_tunnel", "drop_stale")
        elif r < 0.90:
            # A SYN from a new peer whose seq is far outside the window:
            # the tunnel is created (SYN), the packet dropped.
            src = rand_addr(a.peers, used)
            epoch, _ = start_seq(rand_epoch())
            seq = far_seq(epoch)
            snd.send(src, data_hdr(SYN, NP_IPV4, epoch, seq) + inner4(src, a.dst),
                     ident=seq & 0xffff)
            created.add(src)
            count("syn_seq_far", "drop_window", "rx_drops", "tunnels_created")
            old_epoch(src, epoch)
        elif r < 0.95:
            # A piece of a SYN (one of its two segments) whose outer IP ID
            # puts it outside its packet. A whole packet is numbered by its
            # header whatever its ID (a rewritten ID, wire-format.rst). Or
            # one numbered by its TCP seq (TCPSEQ) that has no TCP header.
            src = rand_addr(a.peers, used)
            epoch, seq = start_seq(rand_epoch())
            if random.random() < 0.5:
                hdr = data_hdr(SYN, NP_IPV4, epoch, seq, segs=2)
            else:
                hdr = data_hdr(SYN | TCPSEQ, NP_IPV4, epoch, seq, segs=2) + \
                    struct.pack("!IHH", random.randrange(U32 + 1), 1448, 0)
            snd.send(src, hdr + inner4(src, a.dst),
                     ident=(seq + random.randrange(2, 0x8000)) & 0xffff)
            created.add(src)	# its epoch is never set: the packet is refused first
            count("syn_bad_segment", "drop_segs", "rx_drops", "tunnels_created")
        else:
            # A valid first packet from a new peer: accepted, as the design
            # must (a spoofed peer address looks like the peer). It creates a
            # tunnel, and its inner ICMP echo reply is delivered.
            src = rand_addr(a.peers, used)
            epoch, seq = start_seq(rand_epoch())
            snd.send(src, data_hdr(SYN, NP_IPV4, epoch, seq) + inner4(src, a.dst),
                     ident=seq & 0xffff)
            created.add(src)
            count("accepted_new_peer", "tunnels_created", "rx_packets")
            old_epoch(src, epoch)
    json.dump({"sent": snd.sent, "expect": expect, "classes": classes,
               "tunnels": len(created), "secs": round(time.time() - t0, 1)},
              sys.stdout, sort_keys=True)
    print()


def pulls(a):
    """Forged pulls at a sender, spoofing its receiver's address."""
    snd = Sender(a.dst, a.port, a.pps)
    now_us = int(time.time() * 1e6) & U32
    n = a.from_pull
    t0 = time.time()
    for i in range(a.count):
        if a.epoch is None:
            # Off path: guess the epoch (the sender's microsecond clock
            # around now) and the pull number.
            epoch = (now_us - random.randrange(0, 60_000_000)) & U32 or 1
            pull_no = random.choice([i + 1, random.randrange(U32 + 1)])
        else:
            # On path, epoch known: pull numbers far ahead of anything real.
            epoch = a.epoch
            n = (n + 100_000 + random.randrange(1 << 20)) & U32
            pull_no = n
        snd.send(a.src, ctrl_hdr(SYN | ACK | PULL, epoch, 0, pull_no,
                                 quantum=random.choice([QUANTUM, 0xffff])))
    json.dump({"sent": snd.sent, "secs": round(time.time() - t0, 1)}, sys.stdout)
    print()


def syns(a):
    """Forged SYN data packets from --src (the address of a sender whose
    tunnel the receiver follows), off path: the epoch is guessed from the
    clock, newer than any the sender has used (nine in ten) or older, as a
    restarted sender's would be. Once, such a packet reset the tunnel."""
    snd = Sender(a.dst, a.port, a.pps)
    t0 = time.time()
    newer = 0
    for i in range(a.count):
        if a.stop_file and i % 100 == 0 and os.path.exists(a.stop_file):
            break
        now_us = int(time.time() * 1e6)
        if random.random() < 0.9:
            epoch = (now_us + random.randrange(1, 1 << 31)) & U32 or 1
            newer += 1
        else:
            epoch = (now_us - random.randrange(1 << 20, 1 << 31)) & U32 or 1
        epoch, seq = start_seq(epoch)
        snd.send(a.src, data_hdr(SYN, NP_IPV4, epoch, seq, pull_target=0xffff) +
                 inner4(a.src, a.dst), ident=seq & 0xffff, path=random.randrange(256))
    json.dump({"sent": snd.sent, "newer": newer, "secs": round(time.time() - t0, 1)},
              sys.stdout)
    print()


def flood_seq(where):
    """An epoch and the seq of a new tunnel's first packet: its ISN ("isn",
    delivered), one ahead of it ("ahead", held for the hole), one behind it
    ("behind", a duplicate: nothing before the ISN was sent) or far outside
    the window ("far"); low 16 bits nonzero (see Sender)."""
    while True:
        epoch, seq = start_seq(rand_epoch())
        if where == "far":
            seq = far_seq(epoch)
        else:
            seq = (seq + {"isn": 0, "ahead": 1, "behind": -1}[where]) & U32
        if seq & 0xffff:
            return epoch, seq


def flood(a):
    """One SYN data packet (an RTS-sized demand, a valid inner packet) from
    each of --count spoofed sources, alternating between --peers and
    --outside: the fast path of Sender, with a zero (absent) UDP checksum.
    --seq places the packets' seq (flood_seq())."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    nets = [ipaddress.ip_network(a.peers), ipaddress.ip_network(a.outside)]
    dst = socket.inet_aton(a.dst)
    epoch, seq = flood_seq(a.seq)
    eqds = data_hdr(SYN, NP_IPV4, epoch, seq, pull_target=0xffff)
    inner = inner4("0.0.0.0", a.dst)
    ulen = 8 + len(eqds) + len(inner)
    udp = struct.pack("!HHHH", 0xd000, a.port, ulen, 0) + eqds
    sent = {"peers": 0, "outside": 0}
    t0 = time.time()
    for i in range(a.count):
        net = nets[i % 2]
        src = struct.pack("!I", int(net.network_address) + 16 + (i // 2) % (net.num_addresses - 32))
        # The inner source is the outer one; its header checksum follows.
        ih = inner[:10] + b"\0\0" + src + inner[16:20]
        ih = ih[:10] + struct.pack("!H", csum(ih)) + ih[12:]
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + ulen, seq & 0xffff, 0x4000, 64,
                         17, 0, src, dst)
        sock.sendto(ip + udp + ih + inner[20:], (a.dst, 0))
        sent["peers" if i % 2 == 0 else "outside"] += 1
        if a.pps and i % 50 == 49:
            ahead = (i + 1) / a.pps - (time.time() - t0)
            if ahead > 0:
                time.sleep(ahead)
    sent["secs"] = round(time.time() - t0, 1)
    json.dump(sent, sys.stdout)
    print()


def sniff(a):
    """Print the epoch of the first EQDS data packet from --src seen on the
    namespace's links (what an on-path attacker learns)."""
    s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(0x0800))
    s.settimeout(a.timeout)
    src = socket.inet_aton(a.src)
    while True:
        b = s.recv(2048)
        ihl = (b[0] & 15) * 4
        if b[9] != 17 or b[12:16] != src or len(b) < ihl + 8 + DATA_HLEN:
            continue
        u = b[ihl:]
        if struct.unpack("!H", u[2:4])[0] != a.port or u[8] != (VERSION << 4 | DATA):
            continue
        print(struct.unpack("!I", u[12:16])[0])
        return


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["barrage", "pulls", "syns", "sniff", "flood"])
    p.add_argument("--dst")
    p.add_argument("--timeout", type=float, default=10)
    p.add_argument("--port", type=int, default=6666)
    p.add_argument("--peers", help="CIDR of the receiver's peers to spoof")
    p.add_argument("--outside", help="CIDR outside the receiver's peers")
    p.add_argument("--legit", help="the legitimate sender's address")
    p.add_argument("--src", help="pulls: the receiver's address to spoof")
    p.add_argument("--epoch", type=int, help="pulls: the tunnel's epoch (on path)")
    p.add_argument("--from-pull", type=int, default=0)
    p.add_argument("--stop-file", help="syns: stop once this file exists")
    p.add_argument("--count", type=int, default=5000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pps", type=int, default=5000)
    p.add_argument("--seq", choices=["isn", "ahead", "behind", "far"], default="isn",
                   help="flood: where the first packet's seq lies")
    a = p.parse_args()
    random.seed(a.seed)
    {"barrage": barrage, "pulls": pulls, "syns": syns, "sniff": sniff,
     "flood": flood}[a.mode](a)


if __name__ == "__main__":
    main()
