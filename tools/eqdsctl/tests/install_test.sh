#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
# cmake --install of the eqdsctl component into a scratch prefix: the tool,
# its man page and its bash completion land where they are looked for.
# Usage: install_test.sh CMAKE BUILD_DIR
set -u
CMAKE=${1:?usage: $0 CMAKE BUILD_DIR}
BUILD=${2:?usage: $0 CMAKE BUILD_DIR}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

"$CMAKE" --install "$BUILD" --prefix "$tmp/usr" --component eqdsctl > "$tmp/log" 2>&1 ||
	{ echo "FAIL: cmake --install"; cat "$tmp/log"; exit 1; }
for f in sbin/eqdsctl share/man/man8/eqdsctl.8 share/bash-completion/completions/eqdsctl; do
	if [ -s "$tmp/usr/$f" ]; then
		echo "ok: installs $f"
	else
		echo "FAIL: $f not installed"
		fail=1
	fi
done
[ -x "$tmp/usr/sbin/eqdsctl" ] || { echo "FAIL: sbin/eqdsctl not executable"; fail=1; }
exit $fail
