#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
# Runs the eqdsctl binary for what needs no kernel module: help, version,
# usage errors and their exit codes, and "show" either working (module
# loaded) or failing with the documented message. Never changes anything.
# Usage: cli_test.sh PATH/TO/eqdsctl
set -u
EQDSCTL=${1:?usage: $0 PATH/TO/eqdsctl}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

# expect RC STDOUT-GREP STDERR-GREP ARGS...  (an empty pattern skips that check)
expect() {
	want_rc=$1 out_re=$2 err_re=$3
	shift 3
	"$EQDSCTL" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	ok=1
	[ "$rc" = "$want_rc" ] || ok=0
	[ -z "$out_re" ] || grep -qE -- "$out_re" "$tmp/out" || ok=0
	[ -z "$err_re" ] || grep -qE -- "$err_re" "$tmp/err" || ok=0
	if [ $ok = 1 ]; then
		echo "ok: eqdsctl $*"
	else
		echo "FAIL: eqdsctl $* (rc $rc, want $want_rc)"
		sed 's/^/  out: /' "$tmp/out"
		sed 's/^/  err: /' "$tmp/err"
		fail=1
	fi
}

expect 0 '^Usage: eqdsctl' '' help
expect 0 '^Usage: eqdsctl' '' --help
expect 0 '^Usage: eqdsctl' '' -h
expect 0 '^eqdsctl [0-9]+\.[0-9]+\.[0-9]+ ' '' --version
expect 1 '' "^eqdsctl: unknown command 'frobnicate'\$" frobnicate
expect 1 '' '^Usage: eqdsctl' frobnicate
expect 1 '' "^eqdsctl: unknown option '-x'\$" -x show
expect 1 '' "^eqdsctl: set: port: '0' is not in 1\.\.65535\$" set port 0
expect 1 '' "^eqdsctl: set: nothing to set\$" set
expect 1 '' "^eqdsctl: set: 'window' given twice\$" set window 1 window 2
expect 1 '' "^eqdsctl: set: mode: 'fast' is not rts or burst\$" set mode fast
expect 1 '' "^eqdsctl: set: dests: '10\.0\.0\.0/33': prefix length must be 0\.\.32\$" \
	set dests 10.0.0.0/33
expect 1 '' "unexpected argument '-j' \(options go before the command\)" show -j
expect 1 '' "^eqdsctl: tunnel show: which peer\?" tunnel show
expect 1 '' "^eqdsctl: tunnel show: '10\.0\.0\.0/8' is a prefix; a peer is one address\$" \
	tunnel show 10.0.0.0/8
expect 1 '' "^eqdsctl: tunnel list: 'both' is not tx or rx\$" tunnel list both
expect 1 '' "^eqdsctl: tunnel: unknown subcommand 'add' \(list or show\)\$" tunnel add
expect 1 '' "^eqdsctl: monitor: unexpected argument 'x'" monitor x
# ip -n's words for a namespace that does not exist; exit 1 (ip exits 255).
expect 1 '' '^eqdsctl: Cannot open network namespace "eqdsctl-no-such-ns": No such file or directory$' \
	-n eqdsctl-no-such-ns show
expect 1 '' "^eqdsctl: option '-n' needs a namespace name" -n

# A subcommand's help and usage errors print that subcommand's usage only.
# lacks FILE PATTERN: FILE has no line matching PATTERN
lacks() {
	if grep -qE -- "$2" "$tmp/$1"; then
		echo "FAIL: $1 of the last command has '$2'"
		fail=1
	fi
}
expect 0 '^Usage: eqdsctl \[-j\|-p\] policy ' '' policy help
lacks out 'eqdsctl set|tunnel list'
expect 0 '^Usage: eqdsctl \[-j\|-p\] policy ' '' help pol
expect 1 '' '^Usage: eqdsctl \[-j\|-p\] policy ' policy add
lacks err 'eqdsctl set|tunnel list'
expect 1 '' '^Usage: eqdsctl set ' set bogus 1
lacks err 'policy'

# -b FILE / -b -, as ip -b: one command per line, '#' comments and blank
# lines skipped, the first failure ends the batch with its line named, and
# -force goes on. help lines need no module.
printf '# a batch\n\nhelp set   # set only\nset port 0\nhelp policy\n' > "$tmp/batch"
expect 1 '^Usage: eqdsctl set ' "^eqdsctl: $tmp/batch:4: set: port: '0' is not in 1\.\.65535\$" \
	-b "$tmp/batch"
lacks out 'policy'
expect 1 'policy' "$tmp/batch:4: set: port" -force -b "$tmp/batch"
printf 'help set\nhelp tunnel\n' > "$tmp/ok"
expect 0 'tunnel' '' -b "$tmp/ok"
expect 1 '' "^eqdsctl: batch: cannot open $tmp/none: No such file or directory\$" -b "$tmp/none"
expect 1 '' "unexpected argument 'show' \(with -b, the commands are in the file\)" -b "$tmp/ok" show
if printf 'help bound\nbogus\n' | "$EQDSCTL" -b - >"$tmp/out" 2>"$tmp/err"; then rc=0; else rc=$?; fi
if [ $rc = 1 ] && grep -q '^Usage: eqdsctl bound' "$tmp/out" &&
	grep -qx "eqdsctl: <stdin>:2: unknown command 'bogus'" "$tmp/err"; then
	echo "ok: eqdsctl -b - (standard input)"
else
	echo "FAIL: eqdsctl -b - (rc $rc)"; sed 's/^/  /' "$tmp/out" "$tmp/err"; fail=1
fi
expect 0 '^Usage: eqdsctl ' '' -d help

# Output errors are reported, not ignored.
if [ -w /dev/full ]; then
	"$EQDSCTL" --help >/dev/full 2>"$tmp/err"
	rc=$?
	if [ $rc = 1 ] && grep -q 'cannot write' "$tmp/err"; then
		echo "ok: eqdsctl --help >/dev/full"
	else
		echo "FAIL: eqdsctl --help >/dev/full (rc $rc)"
		fail=1
	fi
fi

# show: works if the module is loaded, else fails with the documented message.
if "$EQDSCTL" show >"$tmp/out" 2>"$tmp/err"; then
	expect 0 '^eqds: version ' '' show
	expect 0 '^  port [0-9]+  mode (rts|burst)  pull-rate ' '' show
	expect 0 '^  tx: packets [0-9]+' '' -s show
	expect 0 '^\{"version":' '' -j show
	if command -v python3 >/dev/null; then
		"$EQDSCTL" -j -p show | python3 -c '
import json, sys
d = json.load(sys.stdin)
keys = ["version", "port", "mode", "pull_rate_mbit", "window", "queue_limit",
        "idle_timeout_ms", "dests", "stats"]
assert list(d) == keys, list(d)
assert d["mode"] in ("rts", "burst"), d["mode"]
need = {"tx_packets", "tx_bytes", "rx_packets", "rx_bytes", "pulls_sent",
        "pulls_rcvd", "tunnels", "rx_drops", "tx_drops"}
assert need <= set(d["stats"]), d["stats"]
assert all(isinstance(v, int) for v in d["stats"].values()), d["stats"]
assert all(isinstance(d[k], int) for k in keys[1:7] if k != "mode"), d
' && echo "ok: eqdsctl -j -p show is valid JSON with the documented keys" ||
			{ echo "FAIL: eqdsctl -j -p show"; fail=1; }
	fi
else
	# Exit 2: an error from the kernel's side, not the command line's.
	expect 2 '' "^eqdsctl: eqds module not loaded \(generic netlink family 'eqds' not found\)\$" show
	expect 2 '' "^eqdsctl: eqds module not loaded" -j
	expect 2 '' "^eqdsctl: eqds module not loaded" set window 10
	expect 2 '' "^eqdsctl: eqds module not loaded" policy del 10.0.0.0/8
	# In a batch, a line the kernel's side fails ends it, named, with exit 2.
	printf 'help set\n\nshow\nhelp policy\n' > "$tmp/batch"
	expect 2 '^Usage: eqdsctl set' "^eqdsctl: $tmp/batch:3: eqds module not loaded" \
		-b "$tmp/batch"
	lacks out 'policy'
	expect 2 'policy' "^eqdsctl: $tmp/batch:3: eqds module not loaded" -force -b "$tmp/batch"
	# -n with a path: entered (root), or refused by the kernel (not root).
	expect 2 '' "^eqdsctl: (eqds module not loaded|setting the network namespace)" \
		-n /proc/self/ns/net show
fi
exit $fail
