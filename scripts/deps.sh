#!/bin/bash
# Install what eqds needs from Debian's packages. Idempotent.
#   deps.sh          everything: build, development, the test suite, demos,
#                    packaging (make deps)
#   deps.sh --host   only what a host needs to build eqds from source and run
#                    it (make host-deps)
# On a machine that can load modules, the headers of the running kernel are
# installed too. Without --host, the pinned test kernels (image + exactly
# matching headers) of Debian 12's two series, 6.1 and 6.12, are installed,
# resolved from Debian's meta-packages so a security update that renames the
# ABI does not break a fresh install (scripts/test-kernel.sh names them).
set -euo pipefail

host_only=0
case ${1:-} in
--host) host_only=1 ;;
"") ;;
*) echo "usage: deps.sh [--host]" >&2; exit 2 ;;
esac
if [ "$(id -u)" != 0 ]; then
	echo "deps: must run as root (apt-get)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive

apt-get update -qq

# A host: build the module (DKMS or make) and eqdsctl, and run them.
pkgs=(
	build-essential kmod libnl-3-dev libnl-genl-3-dev pkg-config cmake
	dkms
	dwarves			# pahole: the module's BTF (scripts/module-btf.sh)
	bash-completion
)

# resolve FLAVOUR: the ABI that Debian's meta-packages linux-image-FLAVOUR
# and linux-headers-FLAVOUR point to, the same for both.
resolve() {
	local abi habi
	abi=$(apt-cache depends "linux-image-$1" | sed -n 's/.*Depends: linux-image-\(.*\)$/\1/p' | head -1)
	habi=$(apt-cache depends "linux-headers-$1" | sed -n 's/.*Depends: linux-headers-\(.*\)$/\1/p' | head -1)
	if [ -z "$abi" ] || [ "$abi" != "$habi" ]; then
		echo "deps: cannot resolve a matching kernel image/headers pair for $1 (image '$abi', headers '$habi')" >&2
		return 1
	fi
	echo "$abi"
}

# Development and the test suite besides.
if [ "$host_only" = 0 ]; then
	abi=$(resolve amd64)		# 6.1, bookworm's default kernel
	abi612=$(resolve 6.12-amd64)	# 6.12, from bookworm-security (also Debian 13's series)
	pkgs+=(
		cpio xz-utils gzip bc flex bison
		"linux-image-$abi" "linux-headers-$abi" linux-source-6.1
		"linux-image-$abi612" "linux-headers-$abi612"
		qemu-system-x86 busybox-static
		googletest
		clang libclang-rt-14-dev sparse
		iproute2 iperf3 iputils-ping nftables tcpdump tshark ethtool bpftool
		util-linux procps python3
		linux-source-6.12 libelf-dev	# the debug kernel (scripts/debug-kernel.sh)
		python3-yaml python3-jsonschema	# the YNL spec's check and client (tools/ynl/)
		python3-matplotlib	# the plots of `make eval`
		gnuplot-nox		# the plots of `make sim-eval`
		groff-base		# the man page rendered (eqdsctl.man, scripts/docs-drift.py)
		python3-docutils	# Documentation/ parsed (scripts/rst-check.py)
		debhelper dh-dkms lintian	# make deb (debian/)
		bpftrace linux-perf	# the tracepoints as tools read them (selftests/test_tracing.sh)
	)
fi

# A real host with loadable modules also gets headers for the running kernel.
if [ -e /proc/modules ] && ! [ -d "/lib/modules/$(uname -r)/build" ]; then
	if apt-cache show "linux-headers-$(uname -r)" >/dev/null 2>&1; then
		pkgs+=("linux-headers-$(uname -r)")
	else
		echo "deps: no linux-headers-$(uname -r) package; build with KDIR=..." >&2
	fi
fi

apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
if [ "$host_only" = 1 ]; then
	echo "deps: installed what a host needs to build and run eqds"
	exit 0
fi
echo "$abi" > "$(dirname "$0")/../.test-kernel"
echo "$abi612" > "$(dirname "$0")/../.test-kernel-6.12"
echo "deps: installed; test kernels $abi (the default) and $abi612"
