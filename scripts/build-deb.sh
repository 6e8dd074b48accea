#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages eqds-dkms and eqdsctl (debian/): build-deb.sh [OUT]
# (make deb; OUT defaults to build/deb). Builds in a copy of the sources
# (what git tracks, with uncommitted changes; without git, the tree less
# its build directories) under OUT, so nothing lands beside the checkout,
# with dpkg-buildpackage -us -uc -b, offline. OUT then holds the two .debs,
# the .buildinfo and the .changes. No -dbgsym package unless
# DEB_BUILD_OPTIONS asks for one (autodbgsym), so OUT/*.deb is what to
# install. With --lintian, lintian checks the result and any warning or
# error fails the build.
set -euo pipefail
lint=0
if [ "${1:-}" = --lintian ]; then
	lint=1
	shift
fi
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build/deb}
case $out in /*) ;; *) out=$PWD/$out ;; esac
ver=$(cd "$top" && dpkg-parsechangelog -S Version)
src=$out/eqds-$ver

rm -rf "$out"
mkdir -p "$src"
if git -C "$top" rev-parse --git-dir > /dev/null 2>&1; then
	# Less what is deleted in the tree but not yet in git.
	(cd "$top" && git ls-files -co --exclude-standard |
		while IFS= read -r f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		xargs -0 cp --parents -t "$src")
else
	tar -C "$top" --exclude='./build*' --exclude=./.git -cf - . | tar -C "$src" -xf -
fi

dbo=${DEB_BUILD_OPTIONS:-}
[[ $dbo == *autodbgsym* ]] || dbo="noautodbgsym $dbo"
(cd "$src" && DEB_BUILD_OPTIONS="$dbo" dpkg-buildpackage -us -uc -b -j"${JOBS:-2}") \
	> "$out/build.log" 2>&1 || {
	tail -40 "$out/build.log"
	echo "build-deb: dpkg-buildpackage failed: $out/build.log" >&2
	exit 1
}
rm -rf "$src"
ls "$out"/*.deb
if [ "$lint" = 1 ]; then
	lintian --display-info --fail-on error,warning "$out"/*.changes
fi
