#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# PID 1 on the overlaid host root: run the command in the caller's directory,
# leave its exit code in the results share, power off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LANG=C.UTF-8
out=/run/vm/out
cd "$(cat $out/cwd)" 2>/dev/null || cd /
# Under TCG: run-vm.sh says why (selftests/vm/tcg-int3/tcg_int3.c).
[ -f $out/tcg_int3.ko ] && { insmod $out/tcg_int3.ko || echo "stage2: insmod tcg_int3.ko failed"; }
bash $out/cmd.sh
rc=$?
echo "$rc" > $out/rc
sync
echo "EQDS_VM_RC=$rc"
/bin/busybox poweroff -f
sleep 2
echo o > /proc/sysrq-trigger
