// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "keyword.h"

#include "args.h"

#include <algorithm>

namespace eqdsctl {

bool is_prefix_of(std::string_view word, std::string_view keyword)
{
	return !word.empty() && keyword.substr(0, word.size()) == word;
}

std::optional<std::string> match_keyword(std::string_view ctx, std::string_view word,
					 const std::vector<Keyword> &table,
					 std::string_view preferred)
{
	std::vector<std::string_view> found;

	for (const Keyword &k : table) {
		std::string_view means = k.means.empty() ? k.name : k.means;
		if (word == k.name)
			return std::string(means);
		if (is_prefix_of(word, k.name) &&
		    std::find(found.begin(), found.end(), means) == found.end())
			found.push_back(means);
	}
	if (found.empty())
		return std::nullopt;
	if (found.size() == 1)
		return std::string(found.front());
	if (!preferred.empty() &&
	    std::find(found.begin(), found.end(), preferred) != found.end())
		return std::string(preferred);

	std::string msg = ctx.empty() ? "" : std::string(ctx) + ": ";
	msg += quote(word) + " is ambiguous:";
	for (size_t i = 0; i < found.size(); i++)
		msg += (i ? ", " : " ") + std::string(found[i]);
	throw UsageError(msg);
}

} // namespace eqdsctl
