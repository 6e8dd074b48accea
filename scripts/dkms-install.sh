#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Register eqds with DKMS so a real host rebuilds the module on kernel upgrades.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
dst=/usr/src/eqds-$ver
rm -rf "$dst"
mkdir -p "$dst"
cp -r "$top/dkms.conf" "$top/kmod" "$top/uapi" "$top/scripts" "$dst/"
make -C "$dst/kmod" clean KDIR="/lib/modules/$(uname -r)/build" > /dev/null 2>&1 || true
dkms remove "eqds/$ver" --all > /dev/null 2>&1 || true
dkms add "eqds/$ver"
dkms install "eqds/$ver"
