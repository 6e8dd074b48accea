#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the YNL spec of the eqds family (make check's static stage).

  ynl-check.py [--spec uapi/eqds.yaml] [--header uapi/linux/eqds.h] [--schema FILE]

1. The spec validates against the kernel's JSON schema of its protocol
   (tools/ynl/genetlink-legacy.yaml, from Linux 6.12), with Debian's
   python3-jsonschema; every violation is printed with its place.
2. The header declares exactly the names and values that the kernel's
   generator (tools/ynl/ynl-gen-c.py, --mode uapi) derives from the spec:
   every enumerator and #define, each with its value, and the same enums.
   The header is hand-written because it documents the attribute tree,
   which the generator drops; it may add only the *_UNSPEC = 0 entries.
Exits 1 with one line per difference.
"""
import argparse
import os
import re
import runpy
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
YNL = os.path.join(TOP, "tools", "ynl")
sys.path.insert(0, YNL)

try:
    import jsonschema
    import yaml
except ImportError as e:
    sys.exit("ynl-check: %s: install python3-yaml and python3-jsonschema (make deps)" % e)


def rel(path):
    return os.path.relpath(path, TOP)


def validate(spec_path, schema_path=None):
    """Print every schema violation of the spec; return how many."""
    with open(spec_path) as f:
        spec = yaml.safe_load(f)
    proto = spec.get("protocol", "genetlink")
    schema_path = schema_path or os.path.join(YNL, proto + ".yaml")
    if not os.path.exists(schema_path):
        print("%s: protocol '%s': no schema %s in the tree (only genetlink-legacy is carried)"
              % (rel(spec_path), proto, rel(schema_path)))
        return 1
    with open(schema_path) as f:
        schema = yaml.safe_load(f)
    validator = jsonschema.Draft7Validator(schema)
    errors = sorted(validator.iter_errors(spec), key=lambda e: list(map(str, e.absolute_path)))
    for e in errors:
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        print("%s: %s: %s (schema %s)" % (rel(spec_path), where, e.message, rel(schema_path)))
    return len(errors)


def generate_uapi(spec_path, out_path):
    """The uapi header ynl-gen-c.py makes from the spec.

    Its main() insists on the kernel tree's layout and licence, so the
    generator's own Family and render_uapi() are called directly, on a copy of
    the spec placed where the library looks for the schema (../SCHEMA.yaml).
    """
    gen = runpy.run_path(os.path.join(YNL, "ynl-gen-c.py"), run_name="ynl_gen_c")
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, "specs"))
        copy = os.path.join(tmp, "specs", os.path.basename(spec_path))
        shutil.copy(spec_path, copy)
        shutil.copy(os.path.join(YNL, "genetlink-legacy.yaml"), tmp)
        family = gen["Family"](copy, [])
        cw = gen["CodeWriter"](gen["BaseNlLib"](), out_path)
        gen["render_uapi"](family, cw)
        cw.close_out_file()


def c_symbols(header):
    """(values, enums) of a header: every EQDS_* or __EQDS_* macro and
    enumerator with its value (int or string), and each enum's members."""
    pre = subprocess.run(["gcc", "-E", "-P", "-x", "c", header], check=True,
                         capture_output=True, text=True).stdout
    macros = subprocess.run(["gcc", "-E", "-dM", "-x", "c", header], check=True,
                            capture_output=True, text=True).stdout
    values, enums = {}, {}

    def evaluate(expr, what):
        expr = expr.strip()
        if re.fullmatch(r'"[^"]*"', expr):
            return expr[1:-1]
        if not re.fullmatch(r"[\w\s()+-]+", expr):
            sys.exit("ynl-check: %s: cannot evaluate %s = %s" % (rel(header), what, expr))
        try:
            return eval(expr, {"__builtins__": {}}, dict(values))  # noqa: S307
        except NameError as e:
            sys.exit("ynl-check: %s: %s = %s: %s" % (rel(header), what, expr, e))

    for tag, body in re.findall(r"enum\s+(\w+)\s*\{(.*?)\}\s*;", pre, re.S):
        val, members = -1, []
        for item in (i.strip() for i in body.split(",")):
            if not item:
                continue
            name, _, expr = item.partition("=")
            name = name.strip()
            val = evaluate(expr, name) if expr else val + 1
            values[name] = val
            members.append(name)
        enums[tag] = members
    for m in re.finditer(r"^#define\s+(_*EQDS_\w+)\s+(.*)$", macros, re.M):
        values[m.group(1)] = evaluate(m.group(2), m.group(1))
    return values, enums


def compare(header, generated):
    got, got_enums = c_symbols(header)
    want, want_enums = c_symbols(generated)
    diffs = []
    h = rel(header)
    for name in sorted(want):
        if name not in got:
            diffs.append("%s: %s missing (the spec gives %r)" % (h, name, want[name]))
        elif got[name] != want[name]:
            diffs.append("%s: %s is %r, the spec gives %r" % (h, name, got[name], want[name]))
    for name in sorted(got):
        if name not in want and not (name.endswith("_UNSPEC") and got[name] == 0):
            diffs.append("%s: %s = %r is not in the spec" % (h, name, got[name]))
    for tag in sorted(set(want_enums) | set(got_enums)):
        if tag not in got_enums:
            diffs.append("%s: enum %s missing" % (h, tag))
        elif tag not in want_enums:
            diffs.append("%s: enum %s is not in the spec" % (h, tag))
        else:
            extra = set(got_enums[tag]) - set(want_enums[tag])
            extra = {n for n in extra if not n.endswith("_UNSPEC")}
            # Where the generator puts FOO_MAX in the enum, a #define will do.
            moved = set(want_enums[tag]) - set(got_enums[tag])
            if extra or {n for n in moved if n not in got}:
                diffs.append("%s: enum %s has %s, the spec %s" % (
                    h, tag, sorted(extra) or "-", sorted(moved) or "-"))
    return diffs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default=os.path.join(TOP, "uapi", "eqds.yaml"))
    ap.add_argument("--header", default=os.path.join(TOP, "uapi", "linux", "eqds.h"))
    ap.add_argument("--schema", help="another schema than the protocol's in tools/ynl/")
    a = ap.parse_args()

    if validate(a.spec, a.schema):
        print("ynl-check: %s does not validate against the kernel's schema: fix the spec"
              % rel(a.spec))
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        generated = os.path.join(tmp, "eqds-generated.h")
        try:
            generate_uapi(a.spec, generated)
        except Exception as e:  # noqa: BLE001 (any failure of the library is the spec's)
            print("ynl-check: the kernel's YNL library cannot load %s: %s: %s"
                  % (rel(a.spec), type(e).__name__, e))
            return 1
        diffs = compare(a.header, generated)
    for d in diffs:
        print(d)
    if diffs:
        print("ynl-check: %s and %s disagree: the header must declare what "
              "ynl-gen-c.py generates from the spec" % (rel(a.header), rel(a.spec)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
