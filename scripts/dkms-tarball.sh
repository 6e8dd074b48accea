#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dkms-tarball.sh DEBDIR KVER: DKMS builds the eqds-dkms package of DEBDIR
# (make deb) for kernel KVER on this machine, in trees of its own under
# DEBDIR (nothing is registered with the host's DKMS), and packs source and
# module with `dkms mktarball` as DEBDIR/eqds-VERSION.dkms.tar.gz: the
# prebuilt archive that the package's postinst loads instead of building
# when it finds it in /usr/share/eqds-dkms (Debian's dkms common.postinst,
# its TARBALL_ROOT). selftests/test_packages.sh hands it to the VM so that
# DKMS's build of the same source with the same headers is not done a
# second time under emulation, where it takes 7 to 13 minutes.
set -euo pipefail
debdir=$1 kver=$2
deb=$(ls "$debdir"/eqds-dkms_*_all.deb | tail -1)
ver=$(dpkg-deb -f "$deb" Version)
ver=${ver%-*}
work=$debdir/dkms-tarball
rm -rf "$work" "$debdir/eqds-$ver.dkms.tar.gz"
mkdir -p "$work/root" "$work/dkms"
dpkg-deb -x "$deb" "$work/root"
trees=(--dkmstree "$work/dkms" --sourcetree "$work/root/usr/src")
dkms add -m eqds -v "$ver" "${trees[@]}" > "$work/log" 2>&1 &&
	dkms build -m eqds -v "$ver" -k "$kver" "${trees[@]}" >> "$work/log" 2>&1 &&
	dkms mktarball -m eqds -v "$ver" -k "$kver" "${trees[@]}" >> "$work/log" 2>&1 || {
	tail -30 "$work/log"
	cat "$work/dkms/eqds/$ver/build/make.log" 2> /dev/null | tail -30
	exit 1
}
mv "$work/dkms/eqds/$ver/tarball/"*.dkms.tar.gz "$debdir/eqds-$ver.dkms.tar.gz"
rm -rf "$work"
echo "$debdir/eqds-$ver.dkms.tar.gz"
