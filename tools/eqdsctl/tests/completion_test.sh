#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# The bash completion, without the bash-completion package: what it offers
# after a command line, keywords already given left out.
# Usage: completion_test.sh PATH/TO/eqdsctl.bash-completion
set -u
# shellcheck source=/dev/null
source "${1:?usage: $0 PATH/TO/eqdsctl.bash-completion}" || exit 1
fail=0

# offers "WORDS..." WANT-REGEX [UNWANTED-REGEX]: complete the last word.
offers() {
	local line=$1 want=$2 unwanted=${3:-}
	read -r -a COMP_WORDS <<< "$line"
	[[ $line == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	_eqdsctl eqdsctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	local got=" ${COMPREPLY[*]} "
	if [[ $got =~ $want ]] && { [ -z "$unwanted" ] || ! [[ $got =~ $unwanted ]]; }; then
		echo "ok: '$line' -> ${COMPREPLY[*]}"
	else
		echo "FAIL: '$line' -> '${COMPREPLY[*]}' (want /$want/, not /$unwanted/)"
		fail=1
	fi
}

offers "eqdsctl " " show .* policy "
offers "eqdsctl -" " --json " 
offers "eqdsctl set " " port .* window "
offers "eqdsctl set port 1 " " window " " port "
offers "eqdsctl set port 1 window 4 mode burst " " dests " " (port|window|mode) "
offers "eqdsctl set mode " "^ rts burst $"
offers "eqdsctl set p" "^ port pull-rate $"
offers "eqdsctl se port 1 " " window " " port "
offers "eqdsctl policy " " add .* replace "
offers "eqdsctl policy add 10.0.0.0/8 " "^ weight prio rate $"
offers "eqdsctl policy add 10.0.0.0/8 weight 3 " "^ prio rate $"
offers "eqdsctl pol rep 10.0.0.0/8 weight 3 rate 1gbit " "^ prio $"
offers "eqdsctl bound ns1 pull-rate 5 " " max-weight min-prio " " (pull-rate|none) "
offers "eqdsctl tun " "^ list show $"
offers "eqdsctl tun l " "^ tx rx $"
offers "eqdsctl -j tunnel list tx " "^  $"
offers "eqdsctl -n ns1 pol" "^ policy $"
offers "eqdsctl sa" "^ save $"
offers "eqdsctl restore /dev/nul" "^ /dev/null $"
offers "eqdsctl -" " --details .* -force "
offers "eqdsctl -b /dev/nul" "^ /dev/null $"
offers "eqdsctl -force -b /dev/null " "^  $"
offers "eqdsctl -d -b /dev/null -" " -j "
exit $fail
