#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Static checks of the kernel code: a W=1 build with no warnings, sparse
# (C=2) with no reports, and checkpatch --strict from the kernel source
# package on every file under kmod/ and uapi/; the docs against the code
# (scripts/docs-drift.py); and the netlink API: the YNL spec uapi/eqds.yaml
# validates against the kernel's schema and the uapi header declares what
# the spec generates (scripts/ynl-check.py); Documentation/ parses as
# reStructuredText (scripts/rst-check.py). The VM's tcg_int3 helper gets
# the same W=1, sparse and checkpatch.
#   static-checks.sh [--no-sparse]   (make check's build ran sparse already)
set -uo pipefail
sparse=1
[ "${1:-}" = --no-sparse ] && sparse=0
top=$(cd "$(dirname "$0")/.." && pwd)
kdir=${KDIR:-$("$top/scripts/kdir.sh")}
cp_dir=$top/build/checkpatch
rc=0

# checkpatch.pl and its data files, from Debian's linux-source package.
if [ ! -x "$cp_dir/checkpatch.pl" ]; then
	tarball=$(ls /usr/src/linux-source-6.1.tar.xz 2>/dev/null)
	if [ -z "$tarball" ]; then
		echo "static: checkpatch FAILED (no linux-source package: make deps)"
		exit 1
	fi
	mkdir -p "$cp_dir"
	src=$(basename "$tarball" .tar.xz)
	tar -xJf "$tarball" -C "$cp_dir" --strip-components=2 \
		"$src/scripts/checkpatch.pl" "$src/scripts/spelling.txt" \
		"$src/scripts/const_structs.checkpatch"
fi

files=$(cd "$top" && git ls-files -co --exclude-standard ':(glob)kmod/*.[ch]' ':(glob)kmod/core/*.[ch]' ':(glob)uapi/linux/*.h' ':(glob)selftests/vm/tcg-int3/*.c' | grep -v '\.mod\.c$')
if (cd "$top" && "$cp_dir/checkpatch.pl" --no-tree --strict --terse --show-types \
	--max-line-length=100 \
	-f $files > "$top/build/checkpatch.log" 2>&1); then
	echo "static: checkpatch --strict ($(wc -w <<< "$files") files) ok"
else
	grep -E 'ERROR|WARNING|CHECK' "$top/build/checkpatch.log" | head -40
	echo "static: checkpatch FAILED"
	rc=1
fi

if out=$("$top/scripts/ynl-check.py" 2>&1); then
	echo "static: YNL spec uapi/eqds.yaml (schema genetlink-legacy, uapi header) ok"
else
	echo "$out" | head -40
	echo "static: YNL spec uapi/eqds.yaml FAILED"
	rc=1
fi

# sparse, on a rebuild from clean so that it sees every file.
if [ "$sparse" = 1 ]; then
	make -C "$top/kmod" KDIR="$kdir" clean > /dev/null 2>&1
	if make -C "$top/kmod" KDIR="$kdir" sparse > "$top/build/sparse.log" 2>&1 &&
	   ! grep -E 'warning:|error:' "$top/build/sparse.log"; then
		echo "static: sparse and W=1 ok"
	else
		grep -E 'warning:|error:' "$top/build/sparse.log" | head -40
		echo "static: sparse FAILED"
		rc=1
	fi
fi

# The VM's own helper module (selftests/vm/tcg-int3), built apart from eqds
# as run-vm.sh builds it: W=1 and sparse, no reports (a few seconds, so
# also under --no-sparse, whose build is eqds's).
ti=$top/build/static-tcg-int3
rm -rf "$ti" && mkdir -p "$ti" && cp "$top"/selftests/vm/tcg-int3/{Kbuild,tcg_int3.c} "$ti/"
if make -C "$kdir" M="$ti" W=1 C=2 CF="-D__CHECK_ENDIAN__" modules > "$ti/build.log" 2>&1 &&
   ! grep -E 'warning:|error:' "$ti/build.log"; then
	echo "static: tcg_int3 sparse and W=1 ok"
else
	grep -E 'warning:|error:' "$ti/build.log" | head -20
	echo "static: tcg_int3 sparse and W=1 FAILED"
	rc=1
fi

# The docs against the code: eqdsctl's commands, the numbers they quote,
# README's status (scripts/docs-drift.py).
if out=$(python3 "$top/scripts/docs-drift.py" "$top" 2>&1); then
	echo "static: docs drift ok"
else
	echo "$out" | head -40
	echo "static: docs drift FAILED"
	rc=1
fi
# The docs render: no table text in a column margin, no link to a missing
# title (scripts/rst-check.py, Debian's python3-docutils).
if out=$(/usr/bin/python3 "$top/scripts/rst-check.py" "$top" 2>&1); then
	echo "static: reStructuredText ok"
else
	echo "$out" | head -40
	echo "static: reStructuredText FAILED"
	rc=1
fi
exit $rc
