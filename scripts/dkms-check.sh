#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DKMS as a real host uses it, on this machine (root): register a copy of
# the tree under a test version, then
#  - dkms build for every test kernel (scripts/test-kernel.sh -a) succeeds;
#  - dkms build for a kernel outside 6.1..6.12 is skipped (exit 77), not
#    failed, and dkms autoinstall for it (what a kernel's postinst runs)
#    succeeds without building anything;
# and remove it again. One line per check: "dkms: ... ok" or "... FAILED".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
ver=0.0.0check
src=/usr/src/eqds-$ver
rc=0

if [ "$(id -u)" != 0 ] || ! command -v dkms > /dev/null; then
	echo "dkms: skipped: needs root and dkms (make deps)"
	exit 0
fi
cleanup() {
	dkms remove "eqds/$ver" --all > /dev/null 2>&1
	rm -rf "$src" "/var/lib/dkms/eqds/$ver"
	rmdir /var/lib/dkms/eqds 2> /dev/null
}
result() {	# DESCRIPTION STATUS LOG
	if [ "$2" = 0 ]; then
		echo "dkms: $1 ok"
	else
		tail -15 "$3" 2> /dev/null
		echo "dkms: $1 FAILED"
		rc=1
	fi
}
trap cleanup EXIT
cleanup
log=$(mktemp)

# The sources as dkms-install.sh copies them, with the test version.
mkdir -p "$src"
(cd "$top" && git ls-files -co --exclude-standard -z dkms.conf kmod uapi scripts |
	xargs -0 cp --parents -t "$src")
sed -i "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION=\"$ver\"/" "$src/dkms.conf"
dkms add "eqds/$ver" > "$log" 2>&1
result "add eqds/$ver" $? "$log"

for kver in $("$top/scripts/test-kernel.sh" -a); do
	dkms build "eqds/$ver" -k "$kver" > "$log" 2>&1
	st=$?
	ko=/var/lib/dkms/eqds/$ver/$kver/x86_64/module/eqds.ko
	[ "$st" = 0 ] && { [ -f "$ko" ] || [ -f "$ko.xz" ]; } || st=1
	[ "$st" = 0 ] || cat "/var/lib/dkms/eqds/$ver/build/make.log" >> "$log" 2> /dev/null
	result "build for $kver" "$st" "$log"
done

for kver in 5.10.0-fake 6.13.0-fake; do
	dkms build "eqds/$ver" -k "$kver" > "$log" 2>&1
	st=$?
	echo "(dkms build exited $st; 77 is a skip)" >> "$log"
	[ "$st" = 77 ] && ! [ -d "/var/lib/dkms/eqds/$ver/$kver/x86_64/module" ]
	result "build for $kver skipped" $? "$log"
done

# autoinstall acts on every registered module: only when eqds is alone.
if [ "$(dkms status | grep -vc "^eqds/$ver")" = 0 ]; then
	dkms autoinstall --kernelver 6.13.0-fake > "$log" 2>&1
	st=$?
	echo "(dkms autoinstall exited $st)" >> "$log"
	[ "$st" = 0 ] && ! [ -d "/var/lib/dkms/eqds/$ver/6.13.0-fake" ]
	result "autoinstall for 6.13.0-fake skips eqds" $? "$log"
else
	echo "dkms: autoinstall not tried: other modules are registered"
fi
rm -f "$log"
exit $rc
