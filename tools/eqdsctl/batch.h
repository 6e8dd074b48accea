// SPDX-License-Identifier: GPL-2.0 OR MIT
// "eqdsctl -b FILE" (and "-b -", standard input): one eqdsctl command per
// line, as ip -b and tc -b read them. No netlink here: the caller runs each
// command (unit-testable).
#ifndef EQDSCTL_BATCH_H
#define EQDSCTL_BATCH_H

#include "args.h"

#include <cstddef>
#include <functional>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace eqdsctl {

// One command of a batch file: its words, and the number of the line it
// ends on (the last of a continued line).
struct BatchCommand {
	std::vector<std::string> words;
	size_t line = 0;
};

// Reads the next command from in, as iproute2's getcmdline and makeargs
// do: '#' starts a comment that runs to the end of the line, a line ending
// in '\' continues on the next, words are separated by blanks, and a word
// that starts with ' or " runs to the same quote (blanks included). Lines
// with no words are skipped. *lineno counts the lines read. False at the
// end of in; throws UsageError "NAME:LINE: ..." for an unterminated quote
// or a continuation with no next line.
bool read_batch_command(std::istream &in, const std::string &name, size_t *lineno,
			BatchCommand *cmd);

// Runs one parsed command; where is "NAME:LINE: ", for the caller's error
// messages. Returns its exit status (exit_status.h).
using BatchRunner = std::function<int(const Request &req, const std::string &where)>;

// Runs the commands of in (named name in messages) one after another.
// options: the command line's request; its -j, -p, -s and -d apply to every
// line. A line is parsed as eqdsctl's arguments (options may start it);
// -n, -b and -force belong to the command line only, and "restore -" reads
// standard input, which is no file when the batch is standard input
// (stdin_batch). A bad line is reported on err as "eqdsctl: NAME:LINE:
// message" (exit status 1); a line that run fails has printed its own
// message. The first failure ends the batch unless options.force; the
// result is 0 if every line succeeded, else the status of the first line
// that failed.
int run_batch(std::istream &in, const std::string &name, const Request &options,
	      bool stdin_batch, const BatchRunner &run, std::ostream &err);

} // namespace eqdsctl

#endif
