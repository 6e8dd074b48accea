// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "batch.h"

#include "exit_status.h"

namespace eqdsctl {

namespace {

std::string location(const std::string &name, size_t line)
{
	return name + ":" + std::to_string(line) + ": ";
}

// The words of text, as iproute2's makeargs splits a line.
std::vector<std::string> split_words(const std::string &text, const std::string &where)
{
	static const char blanks[] = " \t\r\n\v\f";
	std::vector<std::string> words;
	size_t i = 0;

	for (;;) {
		i = text.find_first_not_of(blanks, i);
		if (i == std::string::npos)
			break;
		if (text[i] == '\'' || text[i] == '"') {
			size_t end = text.find(text[i], i + 1);
			if (end == std::string::npos)
				throw UsageError(where + "unterminated quoted string");
			words.push_back(text.substr(i + 1, end - i - 1));
			i = end + 1;
		} else {
			size_t end = text.find_first_of(blanks, i);
			words.push_back(text.substr(i, end == std::string::npos ? end : end - i));
			if (end == std::string::npos)
				break;
			i = end + 1;
		}
	}
	return words;
}

// line without its comment.
std::string uncommented(const std::string &line)
{
	return line.substr(0, line.find('#'));
}

} // namespace

bool read_batch_command(std::istream &in, const std::string &name, size_t *lineno,
			BatchCommand *cmd)
{
	std::string line;

	while (std::getline(in, line)) {
		++*lineno;
		std::string text = uncommented(line);
		// A '\' at the very end joins the next line, as in getcmdline.
		while (!text.empty() && text.back() == '\\') {
			text.pop_back();
			if (!std::getline(in, line))
				throw UsageError(location(name, *lineno) +
						 "missing continuation line");
			++*lineno;
			text += uncommented(line);
		}
		cmd->words = split_words(text, location(name, *lineno));
		cmd->line = *lineno;
		if (!cmd->words.empty())
			return true;
	}
	if (in.bad())
		throw ArgumentError("cannot read " + name);
	return false;
}

int run_batch(std::istream &in, const std::string &name, const Request &options,
	      bool stdin_batch, const BatchRunner &run, std::ostream &err)
{
	size_t lineno = 0;
	int result = kExitOk;

	for (;;) {
		BatchCommand cmd;
		Request req;
		std::string where;

		try {
			if (!read_batch_command(in, name, &lineno, &cmd))
				break;
			where = location(name, cmd.line);
			req = parse_args(cmd.words);
			if (!req.netns.empty() || req.command == Command::Batch || req.force)
				throw UsageError("-n, -b and -force are options of the whole "
						 "batch, not of a line");
			if (stdin_batch && req.command == Command::Restore && req.file == "-")
				throw UsageError("restore -: standard input is the batch itself");
			req.json |= options.json;
			req.pretty |= options.pretty;
			req.stats |= options.stats;
			req.details |= options.details;
		} catch (const UsageError &e) {
			// What the reader threw names its line already (where is
			// empty then).
			err << "eqdsctl: " << where << e.what() << "\n";
			if (result == kExitOk)
				result = kExitUsage;
			if (!options.force)
				break;
			continue;
		}
		int rc = run(req, where);
		if (rc != kExitOk) {
			if (result == kExitOk)
				result = rc;
			if (!options.force)
				break;
		}
	}
	return result;
}

} // namespace eqdsctl
