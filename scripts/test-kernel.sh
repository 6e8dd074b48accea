#!/bin/sh
# Print the ABI name of the Debian kernel the VM tests boot: the one recorded
# by scripts/deps.sh, else the newest installed image that has headers.
here=$(cd "$(dirname "$0")/.." && pwd)
if [ -s "$here/.test-kernel" ]; then
	kver=$(cat "$here/.test-kernel")
	if [ -r "/boot/vmlinuz-$kver" ] && [ -d "/lib/modules/$kver/build" ]; then
		echo "$kver"
		exit 0
	fi
fi
for img in $(ls -t /boot/vmlinuz-* 2>/dev/null); do
	kver=${img#/boot/vmlinuz-}
	if [ -d "/lib/modules/$kver/build" ]; then
		echo "$kver"
		exit 0
	fi
done
echo "test-kernel: no kernel image with headers installed (run 'make deps')" >&2
exit 1
