#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build eqds.ko for an installed kernel and print the module's path:
#   build-module.sh [-s] KVER
# -s: under sparse too (C=2). W=1 always; the build log is on stderr.
#
# The default test kernel's module is built in kmod/, where make, make
# vmtest and the demo find it. Another kernel's is built in a copy of the
# sources, $BUILD/kmod-KVER/kmod (Kbuild builds an external module in its
# source directory, and neither 6.1 nor 6.12 has MO=): two kernels never
# overwrite each other's objects. KDIR overrides /lib/modules/KVER/build.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
target=modules
if [ "${1:-}" = -s ]; then
	target=sparse
	shift
fi
[ $# = 1 ] || { sed -n '3,5p' "$0" >&2; exit 2; }
kver=$1
kdir=${KDIR:-/lib/modules/$kver/build}
cd "$top"
if [ "$kver" = "$(scripts/test-kernel.sh 2> /dev/null)" ]; then
	src=$top/kmod
else
	copy=$top/${BUILD:-build}/kmod-$kver
	mkdir -p "$copy"
	# Only sources (tracked or new, not ignored): the copy keeps its objects.
	git ls-files -co --exclude-standard -z kmod uapi |
		xargs -0 cp --parents -p -u -t "$copy"
	ln -sfn "$top/scripts" "$copy/scripts"
	src=$copy/kmod
fi
if [ "$target" = sparse ]; then
	make -C "$src" KDIR="$kdir" clean >&2
fi
make -C "$src" KDIR="$kdir" "$target" >&2
echo "$src/eqds.ko"
