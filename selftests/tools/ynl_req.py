#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""do requests through the kernel's generic YNL library reading uapi/eqds.yaml.

  ynl_req.py OP JSON [JSON...]

Sends each JSON (attribute names and values as the spec has them) as one
OP request, in one process (Python starts slowly under emulation), and prints
one line per request: "errno=N msg=EXTACK", errno 0 when it succeeded (the
form of genl_raw.py, which builds what a spec-driven client cannot).
"""
import json
import os
import sys

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..")
sys.path.insert(0, os.path.join(TOP, "tools/ynl"))
from lib import NlError, YnlFamily  # noqa: E402


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    # The schema validation is scripts/ynl-check.py's job.
    ynl = YnlFamily(os.path.join(TOP, "uapi/eqds.yaml"), "")
    for req in sys.argv[2:]:
        try:
            ynl.do(sys.argv[1], json.loads(req))
            print("errno=0 msg=")
        except NlError as e:
            print("errno=%d msg=%s" % (e.error, (e.nl_msg.extack or {}).get("msg", "")))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
