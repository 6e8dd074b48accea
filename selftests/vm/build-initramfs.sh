#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the test VM's initramfs: busybox plus the modules needed to mount the
# host's root over virtio-9p with a tmpfs overlay on top.
#   build-initramfs.sh KVER OUT
# KVER "builtin": no modules (a kernel that has them built in).
set -euo pipefail
kver=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
busybox=$(command -v busybox || true)
if [ -z "$busybox" ] || ! file -L "$busybox" 2>/dev/null | grep -q 'statically linked'; then
	busybox=/bin/busybox
fi
[ -x "$busybox" ] || { echo "build-initramfs: busybox-static is missing (make deps)" >&2; exit 1; }

d=$(mktemp -d "${TMPDIR:-/tmp}/eqds-initramfs.XXXXXX")
trap 'rm -rf "$d"' EXIT
mkdir -p "$d"/{bin,dev,proc,sys,newroot,lower,ovl,mods}
cp "$busybox" "$d/bin/busybox"
ln -s busybox "$d/bin/sh"
# Dependency order from modprobe; "builtin" lines need nothing.
: > "$d/mods/order"
mods=(virtio_pci 9pnet_virtio 9p overlay)
[ "$kver" = builtin ] && mods=()
for m in "${mods[@]}"; do
	modprobe -S "$kver" --show-depends "$m" | while read -r kind path _; do
		[ "$kind" = insmod ] || continue
		b=$(basename "$path")
		grep -qx "$b" "$d/mods/order" && continue
		cp "$path" "$d/mods/$b"
		echo "$b" >> "$d/mods/order"
	done
done
install -m 755 "$here/init" "$d/init"
install -m 755 "$here/stage2.sh" "$d/stage2.sh"
(cd "$d" && find . -print0 | cpio --null -o -H newc --quiet | gzip -1) > "$out.tmp"
mv "$out.tmp" "$out"
