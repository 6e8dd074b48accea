#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# Writes the seed corpora under corpus/<target without fuzz_>/ (the names
# scripts/fuzz.sh and CMakeLists.txt expect). The packets are built here
# with struct.pack straight from uapi/linux/eqds_wire.h, independently of
# wire.c, so the seeds also cross-check the encoder's byte layout (the
# replay test decodes and re-encodes each one). Run from anywhere; commit
# the output.
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

SYN, ACK, NACK, PULL, RTS, FIN, RST, SACK = 1, 2, 4, 8, 16, 32, 64, 128
NONE, IPV4, IPV6 = 0, 4, 6
DATA, CTRL = 1, 2


def common(typ, flags, path, np, epoch):
    return struct.pack(">BBBBI", 1 << 4 | typ, flags, path, np, epoch)


def data(flags, np, seq, pt, segs, payload, path=3, epoch=0x5eed0001):
    return (common(DATA, flags, path, np, epoch) +
            struct.pack(">IHH", seq, pt, segs) + payload)


def ctrl(flags, ack=0, pull=0, busy=0, quantum=0, sack=0, path=3,
         epoch=0x5eed0001):
    return (common(CTRL, flags, path, 0, epoch) +
            struct.pack(">IIHHQ", ack, pull, busy, quantum, sack))


ipv4 = bytes([0x45, 0, 0, 20, 0, 0, 0x40, 0, 64, 6, 0, 0,
              10, 0, 0, 1, 10, 0, 0, 2])
ipv6 = bytes([0x60, 0, 0, 0, 0, 0, 6, 64]) + bytes(32)

decode_seeds = {
    "data_ipv4": data(0, IPV4, 1000, 4, 1, ipv4),
    "data_ipv4_syn_gso": data(SYN, IPV4, 0xfffffff0, 150, 45, ipv4),
    "data_ipv6_fin": data(FIN, IPV6, 7, 0, 1, ipv6),
    "data_rts_probe": data(SYN | RTS, NONE, 0x12345678, 10, 0, b""),
    "data_fin": data(FIN, NONE, 99, 0, 0, b""),
    "ctrl_ack_pull": ctrl(ACK | PULL, ack=1001, pull=5, busy=40, quantum=64),
    "ctrl_sack_nack": ctrl(ACK | NACK | SACK | PULL, ack=0xffffffff,
                           pull=0, quantum=64, sack=0x8000000000000005),
    "ctrl_synack": ctrl(SYN | ACK, ack=0x12345678),
    "ctrl_rst": ctrl(RST, busy=100),
    "ctrl_rts": ctrl(RTS),
    "ctrl_fin_ack": ctrl(FIN | ACK, ack=42),
}


def cfg(window, quantum, initial, start, max_ahead):
    # Layout read by fuzz_credit.cc: window >> 4 (3 bytes), quantum >> 6
    # (2), initial >> 4 (3), start pull number (4), max_ahead (2).
    return (struct.pack(">I", window >> 4)[1:] +
            struct.pack(">H", quantum >> 6) +
            struct.pack(">I", initial >> 4)[1:] +
            struct.pack(">IH", start, max_ahead))


def op_gen():
    return bytes([0])


def op_deliver(i):
    return bytes([1]) + struct.pack(">H", i)


def op_drop(i):
    return bytes([2]) + struct.pack(">H", i)


def op_forge_near(delta, quantum):
    return bytes([3]) + struct.pack(">hH", delta, quantum >> 6)


def op_forge_any(no, quantum):
    return bytes([4]) + struct.pack(">I", no) + struct.pack(">I", quantum)[1:]


def op_take(n):
    return bytes([5]) + struct.pack(">I", n)[1:]


def op_target(queued):
    return bytes([6, 1]) + struct.pack(">I", queued)[1:]


W, Q = 150 * 4096, 4096
credit_seeds = {
    "in_order": cfg(W, Q, 0, 0, 150) + op_target(40 * 1500) +
    op_gen() * 4 + op_deliver(0) * 4 + op_take(1500) * 3,
    "lost_and_reordered_at_wrap": cfg(W, Q, 0, 0xfffffffd, 150) +
    op_target(1 << 20) + op_gen() * 8 + op_drop(0) + op_deliver(3) +
    op_deliver(0) + op_drop(2) + op_deliver(1) + op_take(9000),
    "forged_jump": cfg(W, Q, 0, 7, 150) + op_forge_any(0x70000000, Q) +
    op_take(W) + op_gen() + op_deliver(0) + op_forge_near(-5, Q),
    "burst_window_full": cfg(10 * Q, Q, 10 * Q, 0, 10) + op_gen() * 3 +
    op_deliver(2) + op_take(1) + op_deliver(0) + op_target(0),
    "small_quantum": cfg(W, 64, 0, 0x7ffffff0, 150) +
    op_forge_near(300, 64) + op_target(1 << 16) + op_take(100),
}


def rx_cfg(epoch, timeout, now=1000):
    # Layout read by fuzz_rx.cc: epoch (4 bytes), timeout - 1 (2), start
    # time (4).
    return struct.pack(">IHI", epoch, timeout - 1, now)


def epoch_for_isn(isn):
    # eqds_isn(epoch) = epoch * 2654435761 mod 2^32; invert it.
    return isn * pow(2654435761, -1, 1 << 32) % (1 << 32)


def rx_near(delta, segs):
    return bytes([0]) + struct.pack(">hB", delta, segs - 1)


def rx_bad_segs(delta, segs):
    return bytes([1]) + struct.pack(">hB", delta, 0x80 | segs)


def rx_in_order(segs):
    return bytes([2, segs - 1])


def rx_any(seq, segs):
    return bytes([3]) + struct.pack(">IB", seq, segs)


def rx_release():
    return bytes([4])


def rx_wait(ns):
    return bytes([5]) + struct.pack(">H", ns)


def rx_timer(ticks):
    return bytes([6, ticks])


def rx_back(ns):
    return bytes([7, ns])


rx_seeds = {
    "in_order": rx_cfg(1, 100) + rx_in_order(1) * 8 + rx_in_order(4) * 4 +
    rx_release(),
    "reorder": rx_cfg(7, 100) + rx_near(2, 1) + rx_near(1, 1) +
    rx_near(0, 1) + rx_release() + rx_near(5, 3) + rx_near(3, 2) +
    rx_release(),
    "timeout_then_late": rx_cfg(0x1234, 50) + rx_near(1, 1) +
    rx_near(4, 2) + rx_timer(16) + rx_near(-2, 1) + rx_near(-2, 1) +
    rx_wait(49) + rx_release() + rx_wait(1) + rx_release() +
    rx_near(-3, 1),
    "wrap": rx_cfg(epoch_for_isn(0xfffffff0), 100) + rx_in_order(8) +
    rx_near(9, 2) + rx_near(3, 4) + rx_in_order(3) + rx_release() +
    rx_near(1, 64) + rx_timer(20),
    "edges": rx_cfg(3, 1000) + rx_near(511, 1) + rx_near(510, 3) +
    rx_bad_segs(1, 0) + rx_any(0, 65) + rx_near(-1, 1) +
    rx_in_order(1) + rx_near(-513, 1) + rx_back(200) + rx_release(),
    # A clock read older than the last (another CPU's) rearms the wait
    # early: the hole before isn + 3 goes after 80 of the 100 ns.
    "time_back": rx_cfg(5, 100) + rx_near(1, 1) + rx_wait(10) +
    rx_near(3, 1) + rx_back(20) + rx_in_order(1) + rx_release() +
    rx_wait(100) + rx_release(),
    "gso_dups": rx_cfg(99, 200) + rx_near(4, 5) + rx_near(6, 1) +
    rx_near(2, 3) + rx_near(4, 5) + rx_in_order(2) + rx_release() +
    rx_near(-5, 2),
}


# fuzz_txq.cc: a header (window in quanta - 1, epoch, burst, now, path),
# then operations, each an op byte and a time step (one byte here).
def txq_cfg(window=31, epoch=0x5eed0001, burst=0, now=1000, path=7):
    return struct.pack(">BIBIB", window, epoch, burst, now, path)


def txq_offer(cls, bytes_, segs=1, limit=40, ecn_min=0, ecn_max=0):
    op = cls << 3 | (0x10 if segs > 1 else 0)
    out = struct.pack(">BB", op, 1)
    if segs > 1:
        out += struct.pack(">B", segs - 1)
    return out + struct.pack(">HBBB", bytes_ - 1, limit - 1, ecn_min, ecn_max)


def txq_pump(fail=0, rtx_fails=b""):
    return struct.pack(">BBB", 2, 1, fail) + rtx_fails


def txq_ctrl(flags, ack_delta=0, pull_delta=0, sack=0, old_epoch=0,
             clock=0x5eed1000):
    how = 1 if old_epoch else 0
    out = struct.pack(">BBBB", 4, 1, how, flags)
    if old_epoch:
        out += struct.pack(">B", old_epoch)
    return out + struct.pack(">BBBQI", ack_delta, pull_delta, 0, sack, clock)


def txq_timer():
    return struct.pack(">BB", 6, 1)


def txq_wait(ns):
    return struct.pack(">BBI", 7, 1, ns)


txq_seeds = {
    "classes": txq_cfg() + txq_offer(0, 1500) * 3 + txq_offer(1, 200) +
    txq_offer(1, 3000, segs=3) + txq_ctrl(PULL, pull_delta=2) + txq_pump() +
    txq_ctrl(PULL, pull_delta=4) + txq_pump(),
    "nack_sack": txq_cfg() + txq_offer(0, 1500) * 8 +
    txq_ctrl(PULL, pull_delta=12) + txq_pump() +
    txq_ctrl(ACK | NACK | SACK, ack_delta=1, sack=0x0a) +
    txq_ctrl(ACK | NACK | SACK, ack_delta=1, sack=0x0a) +
    txq_ctrl(PULL, pull_delta=3) + txq_pump(fail=1, rtx_fails=b"\x01\x00") +
    txq_ctrl(ACK, ack_delta=8) + txq_pump(),
    "restart": txq_cfg() + txq_offer(1, 100) + txq_offer(0, 1500) * 4 +
    txq_offer(0, 9000, segs=6) + txq_ctrl(PULL, pull_delta=20) + txq_pump() +
    txq_ctrl(ACK, ack_delta=2) + txq_ctrl(RST) + txq_pump(fail=2) + txq_pump() +
    txq_ctrl(PULL, pull_delta=30) + txq_pump(),
    "gso_growth": txq_cfg(window=199) + txq_offer(0, 40000, segs=30) * 12 +
    txq_ctrl(PULL, pull_delta=60) + txq_pump() +
    txq_ctrl(ACK, ack_delta=45) + txq_ctrl(PULL, pull_delta=60) +
    txq_pump(fail=4) + txq_ctrl(ACK | NACK, ack_delta=60) + txq_pump(),
    "timeout_rts_stale": txq_cfg() + txq_offer(0, 1500) * 2 + txq_pump() +
    txq_wait(20000000) + txq_timer() + txq_pump() +
    txq_ctrl(ACK | PULL, old_epoch=3) + txq_pump() +
    txq_ctrl(PULL, pull_delta=1) + txq_pump() + txq_wait(20000000) +
    txq_timer() + txq_pump(),
}


def rxq_cfg(epoch, timeout, ack_every=16, nack_burst=8, ack_delay=1000):
    # Layout read by fuzz_rxq.cc: epoch (4 bytes), timeout - 1 (3), ack
    # every - 1 (1), NACK burst - 1 (1), ACK delay - 1 (2), the other
    # epoch's distance - 1 (1).
    return (struct.pack(">I", epoch) + (timeout - 1).to_bytes(3, "big") +
            struct.pack(">BBHB", ack_every - 1, nack_burst - 1,
                        ack_delay - 1, 0))


def rxq_op(op, delta=0, segs=1, target=4):
    # Every op is followed by a seq distance from rcv_nxt, a seg count and
    # a pull target, used or not.
    return struct.pack(">BhBB", op, delta, segs, target)


def rxq_data(delta, segs=1, syn=False, rtx=False):
    return rxq_op(0 | (0x10 if syn else 0) | (0x20 if rtx else 0), delta, segs)


def rxq_in_order(segs=1, syn=False):
    return rxq_op(2 | (0x10 if syn else 0), 0, segs)


def rxq_other(syn, rts=False, delta=0):
    return rxq_op(3 | 0x40 | (0x10 if syn else 0) | (0x20 if rts else 0), delta)


def rxq_timer():
    return rxq_op(4)


def rxq_wait(ns):
    return rxq_op(5) + struct.pack(">H", ns)


def rxq_fin(other=False):
    return rxq_op(6 | (0x10 if other else 0))


def rxq_next_epoch():
    return rxq_op(7)


rxq_seeds = {
    "begin_in_order": rxq_cfg(1, 100000) + rxq_in_order(1, syn=True) +
    rxq_in_order(1) * 20 + rxq_wait(2000) + rxq_timer(),
    "holes_nacks": rxq_cfg(7, 50000, nack_burst=2) +
    rxq_in_order(1, syn=True) + rxq_data(2) + rxq_data(4) + rxq_data(6) +
    rxq_data(8) + rxq_timer() * 4 + rxq_data(1, rtx=True) + rxq_timer() * 6,
    "give_up_late": rxq_cfg(0x1234, 300, ack_every=1) +
    rxq_in_order(1, syn=True) + rxq_data(3, 2) + rxq_timer() * 3 +
    rxq_data(-2) + rxq_data(-2),
    "wrap": rxq_cfg(epoch_for_isn(0xfffffffa), 20000) +
    rxq_in_order(1, syn=True) + rxq_data(3) + rxq_data(9, 2) + rxq_data(1) +
    rxq_data(3) + rxq_in_order(2) + rxq_timer() * 4,
    "epochs": rxq_cfg(9, 10000) + rxq_in_order(1, syn=True) + rxq_data(2) +
    rxq_other(True) + rxq_other(False) + rxq_fin() + rxq_next_epoch() +
    rxq_in_order(1, syn=True) + rxq_other(True, rts=True) + rxq_timer(),
}


def write(target, seeds):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    for name, blob in seeds.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(blob)


write("decode", decode_seeds)
write("credit", credit_seeds)
write("rx", rx_seeds)
write("txq", txq_seeds)
write("rxq", rxq_seeds)
