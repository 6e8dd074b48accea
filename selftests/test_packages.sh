#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages of `make deb` as an operator installs them: dpkg -i of
# eqds-dkms and eqdsctl has DKMS put eqds.ko in place for the running kernel
# (in eqds-dkms's postinst), modprobe loads that module from DKMS's place
# (updates/dkms), the packaged eqdsctl (/usr/sbin) configures two hosts and a
# transfer arrives intact; the man page, bash completion and systemd units
# are where they are looked for; dpkg -r takes the module out of DKMS and
# /lib/modules again. The guest's root is an overlay: what dpkg writes is
# gone at power-off. The .debs come from EQDS_DEB_DIR (default build/deb,
# what `make deb` writes): without them the test is skipped.
#
# DKMS's build of the module under emulation takes 7 to 13 minutes on the
# 2-core machine. When EQDS_DEB_DIR also holds eqds-VERSION.dkms.tar.gz for
# this kernel (scripts/dkms-tarball.sh: DKMS on the host built the same
# package for the same kernel, as `make check` does before this boot), the
# test puts it where the postinst looks for a prebuilt archive
# (/usr/share/eqds-dkms), and the postinst loads it (dkms ldtarball)
# instead of building: everything but the compiler's run is the operator's
# path. EQDS_PACKAGES_BUILD=1 builds in the guest all the same.
# timeout: 1500
source "$(dirname "$0")/lib.sh"
export DEBIAN_FRONTEND=noninteractive
DEBS=${EQDS_DEB_DIR:-$TOP/build/deb}
MB=${EQDS_PACKAGES_MB:-32}
kver=$(uname -r)
log=/tmp/packages.$$
hidden=()
cleanup() {
	local c
	ns_del_all
	for c in "${hidden[@]}"; do mv "/run/packages-hidden/${c##*/}" "$c"; done
	[ -n "${prebuilt:-}" ] && rm -f "$prebuilt" && rmdir /usr/share/eqds-dkms 2> /dev/null
	rm -f "$log"
}
trap cleanup EXIT

# dpkg -i and dpkg -r change the root: only on the VM's throw-away overlay.
if [ "$(findmnt -n -o FSTYPE /)" != overlay ]; then
	skip "packages" "installs packages: runs only in the test VM (its root an overlay)"
	exit 0
fi

dkms_deb=$(ls "$DEBS"/eqds-dkms_*_all.deb 2> /dev/null | tail -1)
ctl_deb=$(ls "$DEBS"/eqdsctl_*.deb 2> /dev/null | tail -1)
if [ -z "$dkms_deb" ] || [ -z "$ctl_deb" ]; then
	skip "packages" "no eqds-dkms and eqdsctl .debs in $DEBS (make deb builds them)"
	exit 0
fi
ver=$(dpkg-deb -f "$dkms_deb" Version)
ver=${ver%-*}
if [ -e "/var/lib/dkms/eqds/$ver" ] || dpkg -s eqds-dkms > /dev/null 2>&1; then
	skip "packages" "eqds $ver is already registered with DKMS or installed on this root"
	exit 0
fi
eqds_unload
EQDSCTL=/usr/sbin/eqdsctl

# dh-dkms's postinst builds for the running kernel and for the newest one
# with a config in /boot, here the other test kernel: as long again under
# emulation, and scripts/dkms-check.sh builds for both on the host. Until
# the end of the test, the guest shows only its own kernel.
mkdir -p /run/packages-hidden
for c in /boot/config-*; do
	[ "$c" = "/boot/config-$kver" ] && continue
	mv "$c" /run/packages-hidden/ && hidden+=("$c")
done
# man-db's trigger rebuilds the whole manual's index after each dpkg run, a
# minute or more of emulated reading over 9p; `man -w` finds the page without
# it. The file that enables the trigger is gone at power-off with the overlay.
rm -f /var/lib/man-db/auto-update
prebuilt=$DEBS/eqds-$ver.dkms.tar.gz
if [ "${EQDS_PACKAGES_BUILD:-0}" = 0 ] && [ -f "$prebuilt" ] &&
   tar -tzf "$prebuilt" | grep -q "^\./dkms_main_tree/$kver/"; then
	mkdir -p /usr/share/eqds-dkms
	cp "$prebuilt" /usr/share/eqds-dkms/
	prebuilt=/usr/share/eqds-dkms/${prebuilt##*/}
	echo "DKMS loads the host's build for $kver from $prebuilt"
else
	prebuilt=
	echo "DKMS builds eqds $ver for $kver in the guest"
fi
t0=$(date +%s)
dpkg -i "$dkms_deb" "$ctl_deb" > "$log" 2>&1
rc=$?
echo "dpkg -i (DKMS builds included): $(($(date +%s) - t0))s"
grep -E '^(Building|Done|Skipped|Loading tarball)' "$log"
if [ -n "$prebuilt" ]; then
	check "the postinst loaded the prebuilt archive" grep -q "^Loading tarball for eqds-$ver" "$log"
fi
if [ "$rc" = 0 ]; then
	ok "dpkg -i eqds-dkms eqdsctl ($ver)"
else
	fail "dpkg -i eqds-dkms eqdsctl" "exit $rc: $(tail -20 "$log")"
	tail -30 "/var/lib/dkms/eqds/$ver/build/make.log" 2> /dev/null
	exit 1
fi
# One `dkms status`: under emulation each takes about 30 s of DKMS's bash.
st=$(dkms status -m eqds -v "$ver" -k "$kver")
echo "dkms status: $st"
[[ $st == *": installed"* ]] && ok "DKMS built and installed eqds $ver for $kver" ||
	fail "DKMS built and installed eqds $ver for $kver" "dkms status: '$st'"

file=$(modinfo -n eqds 2> /dev/null)
[[ $file == /lib/modules/$kver/updates/dkms/eqds.ko* ]] &&
	ok "modprobe finds the DKMS module ($file)" ||
	fail "modprobe finds the DKMS module" "modinfo -n eqds: '$file'"
check "modprobe eqds" modprobe eqds
expect_eq "the loaded module is the DKMS one (srcversion)" \
	"$(modinfo -F srcversion "$file" 2> /dev/null)" "$(cat /sys/module/eqds/srcversion 2> /dev/null)"

expect_eq "eqdsctl in /usr/sbin reports the packages' version" \
	"eqdsctl $ver" "$("$EQDSCTL" --version 2> /dev/null | cut -d' ' -f1-2)"
two_hosts || { fail "two hosts configured by the packaged eqdsctl"; exit 1; }
ok "two hosts configured by the packaged eqdsctl"
check "ping over EQDS" ip netns exec h1 ping -c 3 -i 0.2 -W 2 -q 10.0.1.2
xfer "transfer over the DKMS module" h2 10.0.1.2 h1 $((MB << 20))
ns_del_all

expect_eq "man eqdsctl finds the packaged page" \
	/usr/share/man/man8/eqdsctl.8.gz "$(man -w eqdsctl 2> /dev/null)"
# (Without the file the loader sets _minimal; it returns 124 either way.)
expect_eq "bash completion for eqdsctl loads on demand" "complete -F _eqdsctl eqdsctl" \
	"$(bash -c '. /usr/share/bash-completion/bash_completion
		    _completion_loader eqdsctl; complete -p eqdsctl' 2>&1)"
# systemd resolves the units' commands (eqdsctl, modprobe) in its own path.
check "systemd-analyze verify eqds.service eqds@.service" \
	systemd-analyze verify /lib/systemd/system/eqds.service /lib/systemd/system/eqds@blue.service

check "rmmod eqds" rmmod eqds
dpkg -r eqdsctl eqds-dkms > "$log" 2>&1
rc=$?
[ "$rc" = 0 ] && ok "dpkg -r eqdsctl eqds-dkms" ||
	fail "dpkg -r eqdsctl eqds-dkms" "exit $rc: $(tail -20 "$log")"
left=$(ls -d "/var/lib/dkms/eqds/$ver" /lib/modules/*/updates/dkms/eqds.ko* \
	"/usr/src/eqds-$ver" /usr/sbin/eqdsctl 2> /dev/null)
expect_eq "nothing left in DKMS, /lib/modules, /usr/src, /usr/sbin" "" "$left"
file=$(modinfo -n eqds 2> /dev/null)
expect_eq "modprobe finds no eqds module any more" "" "$file"
