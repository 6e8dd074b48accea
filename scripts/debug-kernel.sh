#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (once) the debug kernel of `make check`'s debug stage from Debian's
# linux-source-6.12 and scripts/debug-kernel/debug.config (with --kasan, or
# EQDS_DEBUG_KASAN=1, kasan.config too), and print the directory holding it.
# That directory is a complete kernel build tree (O= output): vmlinux,
# .config, Module.symvers and what `make M=` needs to build eqds.ko against it.
#
#   debug-kernel.sh [-n] [--kasan]   -n: print the directory only if built
#
# The cache lives outside the checkout (EQDS_KERNEL_CACHE, default
# /var/cache/eqds, else ~/.cache/eqds when that is not writable), keyed by the
# source package's version and the hash of the fragments, so a second
# `make check` on the machine reuses it and a changed fragment builds anew.
# The build runs at nice 19 with JOBS (default 2) jobs; its log is
# kernel-KEY.log next to the tree. Needs linux-source-6.12, libelf-dev and
# dwarves (pahole, for BTF): scripts/deps.sh installs them.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
series=6.12
tarball=/usr/src/linux-source-$series.tar.xz
only_cached=0
frags=("$top/scripts/debug-kernel/debug.config")
[ "${EQDS_DEBUG_KASAN:-0}" != 0 ] && frags+=("$top/scripts/debug-kernel/kasan.config")
for arg; do
	case $arg in
	-n) only_cached=1 ;;
	--kasan) frags+=("$top/scripts/debug-kernel/kasan.config") ;;
	*) echo "usage: debug-kernel.sh [-n] [--kasan]" >&2; exit 2 ;;
	esac
done
mapfile -t frags < <(printf '%s\n' "${frags[@]}" | awk '!seen[$0]++')

pkgver=$(dpkg-query -W -f '${Version}' "linux-source-$series" 2> /dev/null || true)
if [ -z "$pkgver" ] || [ ! -r "$tarball" ]; then
	echo "debug-kernel: linux-source-$series is not installed (make deps)" >&2
	exit 1
fi
cache=${EQDS_KERNEL_CACHE:-}
if [ -z "$cache" ]; then
	cache=/var/cache/eqds
	mkdir -p "$cache" 2> /dev/null && [ -w "$cache" ] || cache=${XDG_CACHE_HOME:-$HOME/.cache}/eqds
fi
mkdir -p "$cache"
# The key: the source's version and the fragment, with the recipe's version
# (bump it when a change here changes what is built).
recipe=2
hash=$({ echo "recipe $recipe"; cat "${frags[@]}"; } | sha256sum | cut -c1-12)
key=$series-$pkgver-$hash
kdir=$cache/kernel-$key
src=$cache/src-$series-$pkgver

if [ -f "$kdir/.eqds-built" ]; then
	echo "$kdir"
	exit 0
fi
[ "$only_cached" = 0 ] || exit 1

log=$cache/kernel-$key.log
exec 8> "$cache/.build.lock"
flock 8
if [ -f "$kdir/.eqds-built" ]; then	# built by another caller meanwhile
	echo "$kdir"
	exit 0
fi
echo "debug-kernel: building $key in $kdir (log: $log); the first build takes long" >&2
t0=$(date +%s)
build() {
	if [ ! -f "$src/.eqds-unpacked" ]; then
		rm -rf "$src"
		mkdir -p "$src"
		tar -xf "$tarball" -C "$src" --strip-components=1
		touch "$src/.eqds-unpacked"
	fi
	mkdir -p "$kdir"
	mk=(nice -n 19 make -C "$src" O="$kdir" ARCH=x86_64 -j"${JOBS:-2}")
	# Reproducible: no host name, user or time in the image.
	export KBUILD_BUILD_USER=eqds KBUILD_BUILD_HOST=debug-kernel
	export KBUILD_BUILD_TIMESTAMP="$pkgver"
	"${mk[@]}" allnoconfig
	(cd "$kdir" && "$src/scripts/kconfig/merge_config.sh" -m .config "${frags[@]}")
	"${mk[@]}" olddefconfig
	# Every option the fragment sets must have survived: a dependency missing
	# from it silently drops an option otherwise.
	missing=0
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) grep -qxF "$line" "$kdir/.config" || { echo "not in .config: $line"; missing=1; } ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }; opt=${opt%% *}
			! grep -q "^$opt=" "$kdir/.config" || { echo "set in .config: $line"; missing=1; } ;;
		esac
	done < <(cat "${frags[@]}")
	if [ "$missing" != 0 ]; then
		echo "debug-kernel: the fragment does not apply"
		return 1
	fi
	"${mk[@]}" vmlinux modules_prepare
	# Built-in only: an empty module set gives the Module.symvers M= builds need.
	"${mk[@]}" modules
	touch "$kdir/.eqds-built"
}
set +e
(set -e; build) > "$log" 2>&1
rc=$?
set -e
if [ "$rc" != 0 ]; then
	tail -30 "$log" >&2
	echo "debug-kernel: build FAILED (log: $log)" >&2
	exit 1
fi
echo "debug-kernel: built in $(($(date +%s) - t0)) s" | tee -a "$log" >&2
echo "$kdir"
