#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
# The man page renders as written: every .RS is closed by its .RE before the
# next section, .TH carries a date, and groff has nothing to warn about.
# Usage: man_test.sh PATH/TO/eqdsctl.8
set -u
MAN=${1:?usage: $0 PATH/TO/eqdsctl.8}
fail=0

# .RS/.RE depth per section: 0 at every .SH and at the end.
awk '
/^\.SH/ { if (depth) { printf "FAIL: %d .RS left open before line %d (%s)\n", depth, NR, $0; bad = 1 }
	  depth = 0 }
/^\.RS/ { depth++; opened = NR }
/^\.RE/ { if (!depth) { printf "FAIL: .RE without .RS at line %d\n", NR; bad = 1 } else depth-- }
END { if (depth) { printf "FAIL: .RS of line %d never closed\n", opened; bad = 1 }
      exit bad }' "$MAN" || fail=1

# .TH TITLE SECTION DATE ...: a date, YYYY-MM-DD.
grep -qE '^\.TH [A-Z]+ 8 "?[0-9]{4}-[0-9]{2}-[0-9]{2}"? ' "$MAN" ||
	{ echo "FAIL: .TH has no date: $(grep '^\.TH' "$MAN")"; fail=1; }

if command -v groff > /dev/null; then
	warn=$(groff -man -ww -z "$MAN" 2>&1)
	[ -z "$warn" ] || { echo "FAIL: groff warns:"; echo "$warn"; fail=1; }
fi
[ $fail = 0 ] && echo "ok: $MAN"
exit $fail
