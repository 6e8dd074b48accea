#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Add split BTF to an out-of-tree module: module-btf.sh MODULE.ko KDIR
#
# Kbuild makes a module's BTF only when vmlinux is in the kernel build
# directory, and Debian's headers package has none ("Skipping BTF
# generation ... due to unavailability of vmlinux"). Any file holding the
# same kernel's BTF serves as the base, which is what Kbuild's own step
# (scripts/Makefile.modfinal) does with vmlinux:
#  - /sys/kernel/btf/vmlinux when building for the running kernel;
#  - else the kernel image's vmlinux (which keeps its .BTF section), unpacked
#    from /boot/vmlinuz-KVER into build/btf/.
# Needs pahole (Debian package dwarves) 1.22 or later. resolve_btfids is not
# run: the module declares no BTF ID sets. Without pahole or a base, the
# module is left without BTF and this says why; the build does not fail.
set -uo pipefail
ko=$1 kdir=$2
top=$(cd "$(dirname "$0")/.." && pwd)

skip() { echo "  BTF [M] $ko: skipped: $*" >&2; exit 0; }

command -v pahole > /dev/null || skip "no pahole (apt install dwarves)"
[ -f "$ko" ] || skip "no module"
if readelf -S "$ko" 2> /dev/null | grep -q ' \.BTF '; then
	exit 0	# already has it (the module was not relinked)
fi
# UTS_RELEASE, not include/config/kernel.release: Debian's headers hold the
# upstream version there (6.1.192), the package's name (6.1.0-57-amd64) here.
kver=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
	"$kdir/include/generated/utsrelease.h" 2> /dev/null)
[ -n "$kver" ] || skip "no UTS_RELEASE in $kdir"

base=
if [ "$(uname -r)" = "$kver" ] && [ -r /sys/kernel/btf/vmlinux ]; then
	base=/sys/kernel/btf/vmlinux
else
	base=$top/build/btf/vmlinux-$kver
	bz=/boot/vmlinuz-$kver
	if [ ! -s "$base" ] && [ -r "$bz" ]; then
		mkdir -p "$(dirname "$base")"
		off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$bz" | head -1 | cut -d: -f1)
		if [ -n "$off" ]; then
			# xz stops at the end of the stream: tail's SIGPIPE is no error.
			tail -c +$((off + 1)) "$bz" | xz -dc --single-stream > "$base.tmp" 2> /dev/null
			[ "${PIPESTATUS[1]}" = 0 ] && mv "$base.tmp" "$base"
		fi
		rm -f "$base.tmp"
	fi
	[ -s "$base" ] || skip "no BTF of kernel $kver (neither running nor in $bz)"
fi
# The flags Kbuild passes for pahole 1.22+ (scripts/pahole-flags.sh).
if LLVM_OBJCOPY=objcopy pahole -J --btf_gen_floats -j --btf_base "$base" "$ko"; then
	echo "  BTF [M] $ko (base $base)"
else
	skip "pahole failed"
fi
