# SPDX-License-Identifier: GPL-2.0
# Sourced by scripts/check.sh and scripts/check-debug.sh: a stage's header
# and the running totals (passed, failed) their last line reports.
passed=0 failed=0
stage() { echo; echo "=== $* ($(date +%H:%M:%S))"; }
count() {	# passed failed
	passed=$((passed + $1))
	failed=$((failed + $2))
}
