#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Register eqds with DKMS so a real host rebuilds the module on kernel upgrades.
# Kernels outside 6.1..6.12 are skipped, not failed (dkms.conf).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
dst=/usr/src/eqds-$ver
dkms remove "eqds/$ver" --all > /dev/null 2>&1 || true
rm -rf "$dst"
mkdir -p "$dst"
# The sources only: objects and probes of an earlier build are for another kernel.
if git -C "$top" rev-parse --git-dir > /dev/null 2>&1; then
	(cd "$top" && git ls-files -co --exclude-standard -z dkms.conf kmod uapi scripts |
		xargs -0 cp --parents -t "$dst")
else
	cp -r "$top/dkms.conf" "$top/kmod" "$top/uapi" "$top/scripts" "$dst/"
	make -C "$dst/kmod" clean KDIR="/lib/modules/$(uname -r)/build" > /dev/null 2>&1 || true
fi
dkms add "eqds/$ver"
rc=0
dkms install "eqds/$ver" || rc=$?
if [ "$rc" = 77 ]; then
	echo "dkms-install: kernel $(uname -r) is outside 6.1..6.12: registered, not built" >&2
	rc=0
fi
exit $rc
