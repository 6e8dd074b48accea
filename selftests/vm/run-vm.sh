#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the Debian test kernel under qemu with the host's root filesystem shared
# read-only (tmpfs overlay on top), run one command as root in the current
# directory, and exit with its exit code (255: no result: the guest crashed,
# hung past the timeout, or qemu failed).
#
#   run-vm.sh [-k KERNEL] [-t TIMEOUT_S] [-m MEM_MB] [-s SMP] [-o OUTDIR] [-q] [--] CMD [ARGS...]
#
# KERNEL is an installed Debian kernel (its ABI name, 6.12.117+deb12-amd64)
# or a series whose test kernel scripts/test-kernel.sh names (6.1, 6.12);
# default: the default test kernel. The selftests load EQDS_KO, default
# kmod/eqds.ko (built for the default test kernel): with another kernel,
# set EQDS_KO to a module built for it (scripts/check.sh does).
#
# The guest may leave artifacts in /run/vm/out (on the host: the run directory
# printed at the end). Environment: EQDS_VM_ACCEL=tcg|kvm (default: kvm when
# /dev/kvm works, else tcg), EQDS_VM_APPEND (extra kernel arguments),
# EQDS_VM_DIR (cache and run directory, default build/vm), EQDS_VM_LOCK
# (lock file serialising guests, default /tmp/eqds-vm.lock), EQDS_VM_TCG_THREAD
# (multi or single, default multi), EQDS_VM_TCG_INT3=0 (no tcg_int3.ko), EQDS_VM_KERNEL
# (boot this uncompressed vmlinux instead, one with virtio-9p and overlayfs
# built in, such as the debug kernel of scripts/debug-kernel.sh). Other
# EQDS_* variables are passed on to the command in the guest.
set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
top=$(cd "$here/../.." && pwd)
timeout_s=1800 mem=2048 smp=2 quiet=0 outdir= kernel_arg=
while getopts "k:t:m:s:o:q" o; do
	case $o in
	k) kernel_arg=$OPTARG ;;
	t) timeout_s=$OPTARG ;;
	m) mem=$OPTARG ;;
	s) smp=$OPTARG ;;
	o) outdir=$OPTARG ;;
	q) quiet=1 ;;
	*) sed -n '3,20p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n '3,20p' "$0" >&2; exit 2; }

if [ -n "$kernel_arg" ] && [ -r "/boot/vmlinuz-$kernel_arg" ]; then
	kver=$kernel_arg
else
	kver=$("$top/scripts/test-kernel.sh" $kernel_arg) || exit 2
fi
vmdir=${EQDS_VM_DIR:-$top/build/vm}
ko=${EQDS_KO:-$top/kmod/eqds.ko}
guest=$kver
# A vmlinux of a kernel build tree names its release beside it.
[ -n "${EQDS_VM_KERNEL:-}" ] &&
	guest=$(cat "$(dirname "$EQDS_VM_KERNEL")/include/config/kernel.release" 2> /dev/null ||
		echo "$EQDS_VM_KERNEL")
if [ -f "$ko" ] && magic=$(modinfo -F vermagic "$ko" 2> /dev/null) &&
   [ "${magic%% *}" != "$guest" ]; then
	echo "run-vm: warning: $ko is built for ${magic%% *}, the guest runs $guest (EQDS_KO)" >&2
fi
mkdir -p "$vmdir/runs"

# Booting the uncompressed vmlinux (PVH) skips the BIOS and the in-guest xz
# decompression, both slow under emulation: about 6 s per boot.
bz=/boot/vmlinuz-$kver
kernel=$vmdir/vmlinux-$kver
if [ ! -s "$kernel" ] || [ "$bz" -nt "$kernel" ]; then
	off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$bz" | head -1 | cut -d: -f1)
	if [ -n "$off" ] && tail -c +$((off + 1)) "$bz" | xz -dc --single-stream > "$kernel.tmp" 2>/dev/null; then
		mv "$kernel.tmp" "$kernel"
	else
		rm -f "$kernel.tmp"
		kernel=$bz
	fi
fi
initrd=$vmdir/initramfs-$kver.cpio.gz
if [ ! -s "$initrd" ] || [ "$here/init" -nt "$initrd" ] || [ "$here/stage2.sh" -nt "$initrd" ]; then
	"$here/build-initramfs.sh" "$kver" "$initrd" || exit 2
fi
if [ -n "${EQDS_VM_KERNEL:-}" ]; then
	kernel=$EQDS_VM_KERNEL
	[ -s "$kernel" ] || { echo "run-vm: no kernel image $kernel" >&2; exit 2; }
	# Everything the initramfs would load is built in: it holds no module.
	initrd=$vmdir/initramfs-builtin.cpio.gz
	if [ ! -s "$initrd" ] || [ "$here/init" -nt "$initrd" ] || [ "$here/stage2.sh" -nt "$initrd" ]; then
		"$here/build-initramfs.sh" builtin "$initrd" || exit 2
	fi
fi

if [ -n "$outdir" ]; then
	# A fixed directory (-o) stays correct when other VMs run meanwhile.
	rm -rf "$outdir"
	mkdir -p "$outdir"
	out=$(cd "$outdir" && pwd)
else
	ls -dt "$vmdir"/runs/run.* 2>/dev/null | tail -n +20 | xargs -r rm -rf
	out=$(mktemp -d "$vmdir/runs/run.XXXXXX")
	ln -sfn "$out" "$vmdir/runs/last"
fi
pwd > "$out/cwd"
# The guest does not inherit the environment: pass EQDS_* settings on.
{
	for v in $(compgen -e | grep '^EQDS_' | grep -v '^EQDS_VM_'); do
		printf 'export %s=%q\n' "$v" "${!v}"
	done
	printf 'exec'
	printf ' %q' "$@"
	printf '\n'
} > "$out/cmd.sh"

accel=${EQDS_VM_ACCEL:-}
if [ -z "$accel" ]; then
	accel=tcg
	# PVM-style /dev/kvm exists here but cannot run a stock kernel; only
	# trust KVM when the vendor extension is really there.
	if [ -w /dev/kvm ] && grep -qE '\b(vmx|svm)\b' /proc/cpuinfo; then
		accel=kvm
	fi
fi
case $accel in
kvm) acc=(-accel kvm -cpu host) ;;
# ERMS makes the guest copy with rep movsb, which TCG runs slowly.
*) acc=(-accel tcg,thread=${EQDS_VM_TCG_THREAD:-multi} -cpu max,-erms,-fsrm) ;;
esac

# Multi-threaded TCG runs stale int3s of patched kernel text: the guest
# loads tcg_int3.ko (stage2.sh), which absorbs them (tcg-int3/tcg_int3.c,
# Documentation/testing.rst). Built per guest kernel from its build tree,
# again when its sources change; EQDS_VM_TCG_INT3=0 leaves it out.
if [ "$accel" = tcg ] && [ "${EQDS_VM_TCG_THREAD:-multi}" = multi ] &&
   [ "${EQDS_VM_TCG_INT3:-1}" != 0 ]; then
	kbuild=/lib/modules/$guest/build
	[ -n "${EQDS_VM_KERNEL:-}" ] && kbuild=$(dirname "$EQDS_VM_KERNEL")
	ti=$vmdir/tcg-int3-$guest
	if [ ! -s "$ti/tcg_int3.ko" ] || ! cmp -s "$here/tcg-int3/tcg_int3.c" "$ti/tcg_int3.c" ||
	   ! cmp -s "$here/tcg-int3/Kbuild" "$ti/Kbuild"; then
		rm -rf "$ti"
		mkdir -p "$ti"
		cp "$here"/tcg-int3/{Kbuild,tcg_int3.c} "$ti/"
		make -C "$kbuild" M="$ti" modules > "$ti/build.log" 2>&1 ||
			echo "run-vm: warning: tcg_int3.ko did not build for $guest ($ti/build.log)" >&2
	fi
	[ -s "$ti/tcg_int3.ko" ] && cp "$ti/tcg_int3.ko" "$out/tcg_int3.ko"
fi

qemu=(qemu-system-x86_64 "${acc[@]}" -smp "$smp" -m "$mem" -M pc
	-nodefaults -no-user-config -display none -no-reboot -serial stdio
	-kernel "$kernel" -initrd "$initrd"
	-append "console=ttyS0 panic=-1 oops=panic loglevel=4 ${EQDS_VM_APPEND:-}"
	-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap
	-device virtio-9p-pci,fsdev=root,mount_tag=/dev/root
	-fsdev local,id=out,path="$out",security_model=none
	-device virtio-9p-pci,fsdev=out,mount_tag=out)
# One guest at a time: two emulated guests on a small machine starve each
# other's timers and the timing-sensitive tests fail for no reason of theirs.
exec 9> "${EQDS_VM_LOCK:-/tmp/eqds-vm.lock}"
if ! flock -n 9; then
	echo "run-vm: waiting for another guest to finish" >&2
	flock 9
fi
t0=$(date +%s)
if [ "$quiet" = 1 ]; then
	timeout -k 5 "$timeout_s" "${qemu[@]}" < /dev/null > "$out/console.log" 2>&1
else
	timeout -k 5 "$timeout_s" "${qemu[@]}" < /dev/null 2>&1 | tee "$out/console.log"
fi
qrc=${PIPESTATUS[0]}
rc=255
[ -s "$out/rc" ] && rc=$(cat "$out/rc")
[ "$qrc" = 124 ] && echo "run-vm: timed out after ${timeout_s}s" >&2
echo "run-vm: exit $rc, $(($(date +%s) - t0))s, $accel, output in $out" >&2
exit "$rc"
