#!/bin/sh
# Print the kernel build directory to build eqds.ko against: the running
# kernel's when it has one (a real host), else the pinned test kernel's.
here=$(cd "$(dirname "$0")/.." && pwd)
run=/lib/modules/$(uname -r)/build
if [ -d "$run" ]; then
	echo "$run"
	exit 0
fi
kver=$("$here/scripts/test-kernel.sh")
echo "/lib/modules/$kver/build"
