#!/bin/bash
# Install everything eqds needs to build, test and demo, from Debian's packages.
# Idempotent. On a machine that can load modules, the headers of the running
# kernel are installed too; the pinned test kernel (image + exactly matching
# headers) is always installed, resolved from Debian's meta-packages so a
# security update that renames the ABI does not break a fresh install.
set -euo pipefail

if [ "$(id -u)" != 0 ]; then
	echo "deps: must run as root (apt-get)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive

apt-get update -qq

abi=$(apt-cache depends linux-image-amd64 | sed -n 's/.*Depends: linux-image-\(.*\)$/\1/p' | head -1)
habi=$(apt-cache depends linux-headers-amd64 | sed -n 's/.*Depends: linux-headers-\(.*\)$/\1/p' | head -1)
if [ -z "$abi" ] || [ "$abi" != "$habi" ]; then
	echo "deps: cannot resolve a matching kernel image/headers pair (image '$abi', headers '$habi')" >&2
	exit 1
fi

pkgs=(
	build-essential kmod cpio xz-utils gzip bc flex bison
	"linux-image-$abi" "linux-headers-$abi" linux-source-6.1
	qemu-system-x86 busybox-static
	libnl-3-dev libnl-genl-3-dev pkg-config cmake googletest
	clang libclang-rt-14-dev sparse
	iproute2 iperf3 iputils-ping nftables tcpdump tshark ethtool bpftool
	util-linux procps python3 dkms
	dwarves			# pahole: the module's BTF (scripts/module-btf.sh)
	linux-source-6.12 libelf-dev	# the debug kernel (scripts/debug-kernel.sh)
	python3-matplotlib	# the plots of `make eval`
	gnuplot-nox		# the plots of `make sim-eval`
)

# A real host with loadable modules also gets headers for the running kernel.
if [ -e /proc/modules ] && ! [ -d "/lib/modules/$(uname -r)/build" ]; then
	if apt-cache show "linux-headers-$(uname -r)" >/dev/null 2>&1; then
		pkgs+=("linux-headers-$(uname -r)")
	else
		echo "deps: no linux-headers-$(uname -r) package; build with KDIR=..." >&2
	fi
fi

apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
echo "$abi" > "$(dirname "$0")/../.test-kernel"
echo "deps: installed; test kernel $abi"
