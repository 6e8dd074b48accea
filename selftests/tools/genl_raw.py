#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send hand-built (possibly malformed) eqds generic netlink requests.

Used by selftests to check that the kernel rejects bad input with an extack
message. test_netlink.sh and test_policy.sh send every other request with the
kernel's ynl client reading the YNL spec (tools/ynl) and use this only for
what such a client cannot encode: an attribute of the wrong width, a type the
spec does not have, a nest without NLA_F_NESTED.
Attribute numbers come from uapi/linux/eqds.h (parsed at run time so they
never drift).

  genl_raw.py CMD ATTR...     ATTR is TYPE:KIND:VALUE, KIND one of
                              u8 u16 u32 u64 str hex nest:(...) rawnest:(...)
Prints "errno=N msg=TEXT" for the kernel's ack and exits 0 if the kernel
answered at all.
"""
import os
import re
import socket
import struct
import sys

NETLINK_GENERIC = 16
NLM_F_REQUEST, NLM_F_ACK = 1, 4
NLMSG_ERROR = 2
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 3, 1, 2
NETLINK_EXT_ACK, SOL_NETLINK = 11, 270
NLMSGERR_ATTR_MSG = 1
NLA_F_NESTED = 0x8000
NLM_F_ACK_TLVS = 0x200
NLM_F_CAPPED = 0x100

HDR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../uapi/linux/eqds.h")


def uapi_enums():
    """Map every EQDS_* enumerator in the uapi header to its value."""
    names = {}
    text = open(HDR).read()
    for body in re.findall(r"enum \w+ \{(.*?)\};", text, re.S):
        val = -1
        for line in body.splitlines():
            m = re.match(r"\s*(\w+)(?:\s*=\s*(\d+))?,", line)
            if m:
                val = int(m.group(2)) if m.group(2) else val + 1
                names[m.group(1)] = val
    return names


def attr(atype, payload):
    length = 4 + len(payload)
    return struct.pack("HH", length, atype) + payload + b"\0" * ((4 - length % 4) % 4)


def encode(spec, names):
    """TYPE:KIND:VALUE; TYPE is a number or an EQDS_* name; nest:(a,b)."""
    atype, kind, value = spec.split(":", 2)
    atype = int(names.get(atype, atype) if not atype.isdigit() else atype)
    if kind in ("nest", "rawnest"):
        # rawnest: without NLA_F_NESTED, to reach a policy's own check
        inner = split_top(value[1:-1]) if value.startswith("(") else []
        flag = NLA_F_NESTED if kind == "nest" else 0
        return attr(atype | flag, b"".join(encode(s, names) for s in inner))
    fmt = {"u8": "B", "u16": "H", "u32": "I", "u64": "Q"}
    if kind in fmt:
        return attr(atype, struct.pack(fmt[kind], int(value, 0)))
    if kind == "str":
        return attr(atype, value.encode() + b"\0")
    if kind == "hex":
        return attr(atype, bytes.fromhex(value))
    raise SystemExit("bad kind " + kind)


def split_top(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur:
        out.append(cur)
    return out


def request(sock, family, cmd, payload, seq):
    genl = struct.pack("BBH", cmd, 1, 0)
    msg = genl + payload
    nlh = struct.pack("IHHII", 16 + len(msg), family, NLM_F_REQUEST | NLM_F_ACK, seq, 0)
    sock.send(nlh + msg)
    while True:
        data = sock.recv(65536)
        off = 0
        while off < len(data):
            length, mtype, flags, rseq, _ = struct.unpack_from("IHHII", data, off)
            if mtype == NLMSG_ERROR and rseq != seq:
                off += (length + 3) & ~3    # the ack of an earlier request
                continue
            if mtype == NLMSG_ERROR:
                err = -struct.unpack_from("i", data, off + 16)[0]
                return err, extack_msg(data[off:off + length], flags), None
            if rseq == seq and mtype == family:
                reply = data[off:off + length]
                off += (length + 3) & ~3
                if family == GENL_ID_CTRL:
                    return 0, "", reply
                continue
            off += (length + 3) & ~3


def extack_msg(msg, flags):
    if not flags & NLM_F_ACK_TLVS:
        return ""
    # nlmsghdr(16) + error(4) + original header (16), + payload unless capped
    orig_len = struct.unpack_from("I", msg, 20)[0]
    off = 20 + (16 if flags & NLM_F_CAPPED else (orig_len + 3) & ~3)
    while off + 4 <= len(msg):
        alen, atype = struct.unpack_from("HH", msg, off)
        if alen < 4:
            break
        if atype == NLMSGERR_ATTR_MSG:
            return msg[off + 4:off + alen].rstrip(b"\0").decode()
        off += (alen + 3) & ~3
    return ""


def family_id(sock, name):
    err, _, reply = request(sock, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                            attr(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"), 1)
    if err:
        raise SystemExit("family %s: errno %d" % (name, err))
    off = 20
    while off < len(reply):
        alen, atype = struct.unpack_from("HH", reply, off)
        if atype == CTRL_ATTR_FAMILY_ID:
            return struct.unpack_from("H", reply, off + 4)[0]
        off += (alen + 3) & ~3
    raise SystemExit("no family id")


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    names = uapi_enums()
    cmd = sys.argv[1]
    cmd = int(names.get(cmd, cmd) if not cmd.isdigit() else cmd)
    payload = b"".join(encode(s, names) for s in sys.argv[2:])
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    sock.bind((0, 0))
    fam = family_id(sock, "eqds")
    err, msg, _ = request(sock, fam, cmd, payload, 2)
    print("errno=%d msg=%s" % (err, msg))


if __name__ == "__main__":
    main()
