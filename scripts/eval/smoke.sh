#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The evaluation's smoke test (`make eval-smoke`, and a stage of `make
# check`), run by selftests/run.sh so that its checks count as KTAP: a short
# run of the incast (4 senders, both buffers) and UDP-blaster scenarios,
# natively and over EQDS, then only robust properties are asserted
# (tools/smoke_check.py): EQDS fairness and drops, the deep-buffer ping, the
# blaster's share. The summary table is printed as diagnostics.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../selftests/lib.sh"
out=$(mktemp -d /tmp/eval-smoke.XXXXXX)
trap 'rm -rf "$out"' EXIT

EQDS_EVAL_MODE=smoke EQDS_EVAL_OUT=$out bash "$here/run.sh"
rc=$?
[ $rc = 0 ] && ok "eval smoke run completed" || fail "eval smoke run completed" "run.sh exited $rc"
[ -d /run/vm/out ] && cp "$out/results.jsonl" /run/vm/out/smoke-results.jsonl
while IFS='|' read -r verdict desc why; do
	if [ "$verdict" = ok ]; then ok "$desc"; else fail "$desc" "$why"; fi
done < <(python3 "$here/tools/smoke_check.py" "$out/results.jsonl")
test_failed && exit 1
exit 0
