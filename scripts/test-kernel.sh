#!/bin/sh
# Print the ABI name of a Debian kernel the VM tests boot:
#   test-kernel.sh          the default test kernel (series 6.1)
#   test-kernel.sh SERIES   the test kernel of that series (6.1, 6.12)
#   test-kernel.sh -a       every test kernel, one a line, the default first
# scripts/deps.sh records each series' kernel (.test-kernel for 6.1,
# .test-kernel-SERIES for the others); without a record, the newest
# installed image of the series that has headers.
here=$(cd "$(dirname "$0")/.." && pwd)
default=6.1
series="6.1 6.12"

usable() {	# KVER
	[ -r "/boot/vmlinuz-$1" ] && [ -d "/lib/modules/$1/build" ]
}

pick() {	# SERIES
	rec=$here/.test-kernel-$1
	[ "$1" = "$default" ] && rec=$here/.test-kernel
	if [ -s "$rec" ] && usable "$(cat "$rec")"; then
		cat "$rec"
		return 0
	fi
	for img in $(ls -t /boot/vmlinuz-"$1".* 2>/dev/null); do
		kver=${img#/boot/vmlinuz-}
		if [ -d "/lib/modules/$kver/build" ]; then
			echo "$kver"
			return 0
		fi
	done
	echo "test-kernel: no $1 kernel image with headers installed (run 'make deps')" >&2
	return 1
}

case ${1:-$default} in
-a)
	rc=0
	for s in $series; do
		pick "$s" || rc=1
	done
	exit $rc
	;;
*)
	pick "${1:-$default}"
	;;
esac
