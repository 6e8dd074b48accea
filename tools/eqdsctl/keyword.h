// SPDX-License-Identifier: GPL-2.0 OR MIT
// Keywords as iproute2 reads them: a word names a keyword if it is the
// keyword or a prefix of it ("tun l" is "tunnel list").
#ifndef EQDSCTL_KEYWORD_H
#define EQDSCTL_KEYWORD_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eqdsctl {

struct Keyword {
	std::string_view name;		// as written in full
	std::string_view means = {};	// an alias: the keyword it stands for
};

// The keyword (its "means" for an alias) that word names in table: an exact
// name, or a prefix of exactly one keyword. Aliases of one keyword are one
// candidate ("de": del, delete). preferred, if given, wins a tie it is part
// of, as ip's command table makes "ip a" address ("eqdsctl s" is show, not
// set). nullopt if no keyword starts with word; a UsageError
// "CTX: 'WORD' is ambiguous: A, B" if several do.
std::optional<std::string> match_keyword(std::string_view ctx, std::string_view word,
					 const std::vector<Keyword> &table,
					 std::string_view preferred = {});

// True if word is a non-empty prefix of keyword (or keyword itself).
bool is_prefix_of(std::string_view word, std::string_view keyword);

} // namespace eqdsctl

#endif
