#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Docs drift: what the documentation says, checked against the code.

- eqdsctl's commands and subcommands (from tools/eqdsctl's keyword tables)
  each appear in the man page's synopsis, in README.md and in
  Documentation/eqdsctl.rst; no eqdsctl command line quoted in any of the
  docs names a command or subcommand the code does not have.
- Numbers the docs quote (CONSTANTS below) equal the #defines they stand
  for in uapi/ and kmod/.
- README's status paragraph names each shipped feature (FEATURES) and calls
  none of them a next step.
- Statements about the code (CLAIMS) hold: the number of generic netlink
  commands, a comment's description of what the glue does.

Prints one line per problem ("docs: FILE: ...") and exits 1 if there is any.
Usage: docs-drift.py [TOP]
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      os.path.join(os.path.dirname(__file__), '..'))
problems = []


def problem(path, msg):
    problems.append(f'docs: {path}: {msg}')


def read(path):
    with open(os.path.join(TOP, path), encoding='utf-8') as f:
        return f.read()


def flat(text):
    """text with every run of blanks as one space: a phrase may wrap."""
    return re.sub(r'\s+', ' ', text)


# ---- numbers: (doc, regex with one group, header, macro) ----

CONSTANTS = [
    ('README.md', r'`port` \(UDP port, default (\d+)\)', 'uapi/linux/eqds.h',
     'EQDS_DEFAULT_PORT'),
    ('Documentation/eqds.rst', r'``port`` \(ushort, default (\d+)\)', 'uapi/linux/eqds.h',
     'EQDS_DEFAULT_PORT'),
    ('Documentation/eqds.rst', r'``window`` (\d+) packets', 'uapi/linux/eqds.h',
     'EQDS_DEFAULT_WINDOW'),
    ('Documentation/eqds.rst', r'``queue_limit`` (\d+) packets', 'uapi/linux/eqds.h',
     'EQDS_DEFAULT_QUEUE_LIMIT'),
    ('Documentation/eqds.rst', r'``idle_timeout`` (\d+) ms', 'uapi/linux/eqds.h',
     'EQDS_DEFAULT_IDLE_TIMEOUT_MS'),
    ('Documentation/eqds.rst', r'At most (\d+) \(``EQDS_MAX_DESTS``\)', 'uapi/linux/eqds.h',
     'EQDS_MAX_DESTS'),
    ('Documentation/eqds.rst', r'at most (\d+) sequence numbers in flight',
     'kmod/core/tx.h', 'EQDS_TX_SLOTS'),
    ('Documentation/eqds.rst', r'at most (\d+) sequence numbers to retransmit',
     'kmod/core/txq.h', 'EQDS_TXQ_RTX_MAX'),
    ('Documentation/eqds.rst', r'plus (\d+) bytes of Ethernet framing', 'kmod/core/credit.h',
     'EQDS_FRAME_BYTES'),
    ('Documentation/eqds.rst', r'a (\d+)-byte EQDS data header', 'uapi/linux/eqds_wire.h',
     'EQDS_DATA_HLEN'),
    ('Documentation/eqds.rst', r'Ours is (\d+) bytes for data', 'uapi/linux/eqds_wire.h',
     'EQDS_DATA_HLEN'),
    ('Documentation/eqds.rst', r'Ours is \d+ bytes for data and (\d+) for control',
     'uapi/linux/eqds_wire.h', 'EQDS_CTRL_HLEN'),
    ('Documentation/eqds.rst', r'(\d+) for data with the ``TCPSEQ`` extension',
     'uapi/linux/eqds_wire.h', 'EQDS_DATA_EXT_HLEN'),
    ('Documentation/eqds.rst', r'more than (\d+) sequence numbers ahead', 'kmod/core/rx.h',
     'EQDS_RX_AHEAD'),
    ('Documentation/policy.rst', r'at most ``EQDS_MAX_POLICIES`` \((\d+)\)',
     'uapi/linux/eqds.h', 'EQDS_MAX_POLICIES'),
    ('Documentation/policy.rst', r'``EQDS_WEIGHT_MAX`` \((\d+)\)', 'uapi/linux/eqds.h',
     'EQDS_WEIGHT_MAX'),
    ('Documentation/policy.rst', r'``EQDS_PRIO_MAX`` \((\d+)\)', 'uapi/linux/eqds.h',
     'EQDS_PRIO_MAX'),
    ('Documentation/man/eqdsctl.8', r'UDP port EQDS listens on and sends to, \d+\.\.\d+ '
     r'\(default (\d+)\)', 'uapi/linux/eqds.h', 'EQDS_DEFAULT_PORT'),
    ('Documentation/man/eqdsctl.8', r'Credit window per tunnel, in packets, (\d+)\.\.',
     'uapi/linux/eqds.h', 'EQDS_WINDOW_MIN'),
    ('Documentation/man/eqdsctl.8', r'Credit window per tunnel, in packets, \d+\.\.(\d+)',
     'uapi/linux/eqds.h', 'EQDS_WINDOW_MAX'),
    ('Documentation/man/eqdsctl.8', r'Credit window per tunnel, in packets, \d+\.\.\d+ '
     r'\(default (\d+)\)', 'uapi/linux/eqds.h', 'EQDS_DEFAULT_WINDOW'),
    ('Documentation/man/eqdsctl.8', r'Per-destination queue at the sender, in packets, '
     r'\d+\.\.\d+ \(default (\d+)\)', 'uapi/linux/eqds.h', 'EQDS_DEFAULT_QUEUE_LIMIT'),
    ('Documentation/man/eqdsctl.8', r'in milliseconds, (\d+)\.\.', 'uapi/linux/eqds.h',
     'EQDS_IDLE_TIMEOUT_MIN'),
    ('Documentation/man/eqdsctl.8', r'in milliseconds, \d+\.\.(\d+)', 'uapi/linux/eqds.h',
     'EQDS_IDLE_TIMEOUT_MAX'),
    ('Documentation/man/eqdsctl.8', r'in milliseconds, \d+\.\.\d+ \(default (\d+);',
     'uapi/linux/eqds.h', 'EQDS_DEFAULT_IDLE_TIMEOUT_MS'),
    ('Documentation/man/eqdsctl.8', r'in KiB, \d+\.\.(\d+)', 'uapi/linux/eqds.h',
     'EQDS_QUEUED_LIMIT_KB_MAX'),
    ('Documentation/man/eqdsctl.8', r'in KiB, \d+\.\.\d+ \(default (\d+);',
     'uapi/linux/eqds.h', 'EQDS_DEFAULT_QUEUED_LIMIT_KB'),
    ('Documentation/man/eqdsctl.8', r'Per-destination low-latency queue, in packets, '
     r'\d+\.\.\d+ \(default (\d+)\)', 'uapi/linux/eqds.h', 'EQDS_DEFAULT_LL_QUEUE_LIMIT'),
]

_defines = {}


def defines(header):
    """The object-like #defines of a header: name -> value text."""
    if header not in _defines:
        text = re.sub(r'/\*.*?\*/', '', read(header), flags=re.S)
        text = re.sub(r'\\\n', ' ', text)
        _defines[header] = {m.group(1): m.group(2).strip() for m in
                            re.finditer(r'^#define\s+(\w+)[ \t]+(.+)$', text, re.M)}
    return _defines[header]


def macro_value(header, name):
    """The integer value of a macro: its literal, an arithmetic expression of
    literals and other macros of the header, or (uapi headers, which build in
    userspace) what the compiler makes of it."""
    text = defines(header).get(name)
    if text is None:
        return None
    expr = re.sub(r'\b(\d+)[uUlL]+\b', r'\1', text)
    expr = re.sub(r'\b(0x[0-9a-fA-F]+)[uUlL]+\b', r'\1', expr)
    for _ in range(8):
        names = set(re.findall(r'\b[A-Z_][A-Z0-9_]*\b', expr))
        if not names:
            break
        for n in names:
            v = macro_value(header, n)
            if v is None:
                break
            expr = re.sub(rf'\b{n}\b', str(v), expr)
        else:
            continue
        break
    if re.fullmatch(r'[0-9xa-fA-F ()+\-*/<>|&]+', expr):
        return int(eval(expr.replace('/', '//')))  # digits and operators only
    if header.startswith('uapi/'):
        return compiled_value(header, name)
    return None


def compiled_value(header, name):
    src = (f'#include <stdio.h>\n#include <stdint.h>\n#include <linux/types.h>\n'
           f'#include <{header[len("uapi/"):]}>\n'
           f'int main(void) {{ printf("%lld\\n", (long long)({name})); return 0; }}\n')
    with tempfile.TemporaryDirectory() as d:
        c, exe = os.path.join(d, 'v.c'), os.path.join(d, 'v')
        with open(c, 'w') as f:
            f.write(src)
        r = subprocess.run(['cc', '-I', os.path.join(TOP, 'uapi'), '-o', exe, c],
                           capture_output=True, text=True)
        if r.returncode:
            return None
        return int(subprocess.run([exe], capture_output=True, text=True).stdout)


def check_constants():
    for doc, regex, header, macro in CONSTANTS:
        want = macro_value(header, macro)
        if want is None:
            problem(doc, f'{macro} not found in {header} (update CONSTANTS in {__file__})')
            continue
        matches = list(re.finditer(regex, flat(read(doc))))
        if not matches:
            problem(doc, f'no text matches /{regex}/ ({macro}): reworded? update CONSTANTS')
        for m in matches:
            if int(m.group(1)) != want:
                problem(doc, f'says {m.group(1)} in "{m.group(0)}", but {macro} in {header} '
                        f'is {want}')


# ---- eqdsctl's commands ----

def keyword_table(path, anchor):
    """The Keyword table that follows anchor: its names, and its aliases
    (alias -> the name it stands for)."""
    text = read(path)
    i = text.find(anchor)
    if i < 0:
        problem(path, f'no "{anchor}": update {os.path.basename(__file__)}')
        return [], {}
    body = text[i:text.find('}}', i) + 2] if '{{' in text[i:i + 200] else \
        text[i:text.find('};', i)]
    entries = re.findall(r'\{"([^"]+)"(?:,\s*"([^"]+)")?\}', body)
    return [n for n, means in entries if not means], {n: m for n, m in entries if m}


def code_commands():
    """({command: (subcommands, other words it takes first, aliases)},
    the commands' aliases)."""
    ctl = 'tools/eqdsctl/'
    cmds, cmd_aliases = keyword_table(ctl + 'args.cc', 'Keyword> commands = {')
    setkw, _ = keyword_table(ctl + 'args.cc', 'Keyword> keywords = {')
    tun, tun_aliases = keyword_table(ctl + 'tunnel_args.cc', 'match_keyword(\n\t\t\t"tunnel"')
    mon, mon_aliases = keyword_table(ctl + 'tunnel_args.cc', 'match_keyword("monitor"')
    pol, pol_aliases = keyword_table(ctl + 'policy_args.cc', 'Keyword> subcommands = {')
    out = {c: ([], [], {}) for c in cmds}
    out['set'] = ([], setkw, {})
    out['tunnel'] = ([s for s in tun if s != 'help'], ['help', 'tx', 'rx'], tun_aliases)
    out['monitor'] = (mon, [], mon_aliases)
    out['policy'] = ([s for s in pol if s != 'help'], ['help'], pol_aliases)
    return out, cmd_aliases


def resolve(word, names, aliases, preferred=None):
    """The name word stands for, as eqdsctl reads it: a name or an alias, or
    a prefix of one only (the aliases of a name count as that name)."""
    if word in names:
        return word
    if word in aliases:
        return aliases[word]
    hits = sorted({aliases.get(n, n) for n in list(names) + list(aliases) if n.startswith(word)})
    if preferred in hits:
        return preferred
    return hits[0] if len(hits) == 1 else None


def command_lines(doc):
    """eqdsctl command lines the doc quotes: in literals (``...``, `...`),
    literal blocks, and the man page's SYNOPSIS and EXAMPLES."""
    text = read(doc)
    if doc.endswith('.8'):
        if not shutil.which('groff'):
            problem(doc, 'groff is needed to read it (apt-get install groff-base)')
            return []
        r = subprocess.run(['groff', '-man', '-Tascii', '-P-cbou', '-rLL=1000n'],
                           input=text, capture_output=True, text=True)
        out, keep = [], False
        for line in r.stdout.splitlines():
            if re.match(r'^[A-Z]', line):
                keep = line.strip() in ('SYNOPSIS', 'EXAMPLES')
            elif keep and line.strip().startswith(('eqdsctl', 'ip netns exec')):
                out.append(line[line.find('eqdsctl'):].strip())
        return out
    spans = re.findall(r'``([^`]+)``', text) if doc.endswith('.rst') else \
        re.findall(r'`([^`\n]+)`', text)
    block = False
    for line in text.splitlines():
        if doc.endswith('.md') and line.startswith('```'):
            block = not block
            continue
        if doc.endswith('.rst'):
            # A literal block follows "::", not a directive (".. list-table::").
            if line.rstrip().endswith('::') and not line.lstrip().startswith('..'):
                block = True
                continue
            if line and not line[0].isspace():
                block = False
        if block:
            spans.append(line.split('#')[0])
    return [s[s.find('eqdsctl'):] for s in spans if re.search(r'(^|\s)eqdsctl\s', s)]


def parse_command_line(line, commands, cmd_aliases):
    """(command, [words after it]) of one quoted command line, or None."""
    raw = line.split()[1:]
    i = 0
    while i < len(raw) and re.match(r'\[?(-|[A-Z]+\b)', raw[i]):
        i += 2 if raw[i] in ('-n', '--netns', '-b', '--batch', '-batch') else 1
    # Prose that names the tool ("eqdsctl (tools/eqdsctl, ...)") is no command line.
    if i >= len(raw) or not re.match(r'\[?[a-z]', raw[i]):
        return None
    words = re.findall(r'-{0,2}[A-Za-z][\w.-]*', ' '.join(raw[i:]))
    return resolve(words[0], list(commands), cmd_aliases, 'show') or words[0], words[1:]


def check_commands():
    commands, cmd_aliases = code_commands()
    pairs = {(c, s) for c, (subs, _, _) in commands.items() for s in subs}
    must_name = ['Documentation/man/eqdsctl.8', 'README.md', 'Documentation/eqdsctl.rst']
    docs = must_name + sorted(glob.glob('Documentation/*.rst', root_dir=TOP))
    for doc in dict.fromkeys(docs):
        seen_cmds, seen_pairs = set(), set()
        for line in command_lines(doc):
            parsed = parse_command_line(line, commands, cmd_aliases)
            if not parsed:
                continue
            cmd, rest = parsed
            if cmd not in commands:
                problem(doc, f'"{line}": eqdsctl has no command "{cmd}"')
                continue
            seen_cmds.add(cmd)
            subs, others, aliases = commands[cmd]
            for w in rest:
                s = resolve(w, subs, aliases)
                if s:
                    seen_pairs.add((cmd, s))
            first = rest[0] if rest else ''
            if (subs or cmd == 'set') and re.fullmatch(r'[a-z][a-z-]*', first) and \
                    not resolve(first, subs + others, aliases):
                problem(doc, f'"{line}": eqdsctl {cmd} has no "{first}"')
        if doc in must_name:
            for c in sorted(set(commands) - seen_cmds):
                problem(doc, f'does not show the command "eqdsctl {c}"')
            for c, s in sorted(pairs - seen_pairs):
                problem(doc, f'does not show the subcommand "eqdsctl {c} {s}"')


# ---- README's status, and statements about the code ----

# (feature, regex naming it in README's status, code that shows it shipped)
FEATURES = [
    ('sharing policies', r'sharing polic', ('uapi/linux/eqds.h', r'EQDS_A_POLICY\b')),
    ('EQIF classes', r'EQIF classes', ('uapi/linux/eqds.h', r'EQDS_CLASS_ID_LL\b')),
    ('per-namespace bound', r'bound', ('uapi/linux/eqds.h', r'EQDS_CMD_SET_BOUND\b')),
    ('save and restore', r'eqdsctl save', ('tools/eqdsctl/args.cc', r'\{"restore"\}')),
]
FUTURE = r'next step|not yet|planned|to come|will (?:add|come|be added)|TODO'


def check_readme_status():
    m = re.search(r'^Status: (.*?)\n\n', read('README.md'), re.S | re.M)
    if not m:
        problem('README.md', 'no "Status: ..." paragraph')
        return
    status = flat(m.group(1))
    sentences = re.split(r'(?<=[.;])\s+', status)
    for name, regex, (path, evidence) in FEATURES:
        if not re.search(evidence, read(path)):
            continue
        if not re.search(regex, status, re.I):
            problem('README.md', f'the status does not mention {name}, which has shipped')
        for s in sentences:
            if re.search(regex, s, re.I) and re.search(FUTURE, s, re.I):
                problem('README.md', f'the status calls {name} to come: "{s}"')


NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight']


def check_claims():
    ops = re.search(r'eqds_genl_ops\[\] = \{(.*?)\n\};', read('kmod/netlink.c'), re.S)
    cmds = re.findall(r'\.cmd\s*=\s*EQDS_CMD_(\w+)', ops.group(1)) if ops else []
    text = flat(read('Documentation/eqds.rst'))
    m = re.search(r'The family ``eqds`` \(``netlink.c``\) has (\w+) commands', text)
    if not m:
        problem('Documentation/eqds.rst', 'no "The family ``eqds`` (``netlink.c``) has N '
                'commands": reworded? update check_claims')
    elif m.group(1) not in NUMBER_WORDS or NUMBER_WORDS.index(m.group(1)) != len(cmds):
        problem('Documentation/eqds.rst', f'says the family has {m.group(1)} commands; '
                f'kmod/netlink.c has {len(cmds)}: {", ".join(cmds)}')
    else:
        for c in cmds:
            if f'``{c}``' not in text:
                problem('Documentation/eqds.rst', f'does not name the command ``{c}``')
    # What the glue keeps the held packets in: rx.h's comment against the glue.
    glue = ''.join(read(os.path.relpath(p, TOP)) for p in
                   sorted(glob.glob(os.path.join(TOP, 'kmod/*.c'))))
    rx = flat(read('kmod/core/rx.h'))
    ring = 'eqds_rx_held_slot(' in glue
    if re.search(r'glue keeps the held ones\s+in a ring', rx) and not ring:
        problem('kmod/core/rx.h', 'says the glue keeps held packets in a ring indexed by '
                'eqds_rx_held_slot(), which no kmod/*.c calls')
    if re.search(r'glue currently keeps the held ones in a list sorted by seq', rx) and \
            (ring or '__skb_queue_after(&t->held' not in read('kmod/rx_tunnel.c')):
        problem('kmod/core/rx.h', 'says the glue keeps held packets in a sorted list, but '
                'kmod/rx_tunnel.c no longer does (eqds_rx_held_slot() used, or no t->held)')


check_constants()
check_commands()
check_readme_status()
check_claims()
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
