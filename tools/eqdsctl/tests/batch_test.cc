// SPDX-License-Identifier: GPL-2.0 OR MIT
// eqdsctl -b FILE, as ip -b and tc -b: the file's lines, the commands run
// (by a fake runner, no netlink), where the batch stops and its exit status.
#include "args.h"
#include "batch.h"
#include "exit_status.h"

#include "usage_error.h"

#include <gtest/gtest.h>
#include <linux/eqds.h>

#include <map>
#include <sstream>

using namespace eqdsctl;
using eqdsctl::test::usage_error;

namespace {

// A runner that records what it is asked to run and fails the lines given.
struct FakeRunner {
	std::vector<Request> ran;
	std::vector<std::string> where;
	std::map<size_t, int> fail;	// by run number (0 the first run): its exit status

	BatchRunner runner()
	{
		return [this](const Request &req, const std::string &w) {
			size_t n = ran.size();
			ran.push_back(req);
			where.push_back(w);
			auto f = fail.find(n);
			return f == fail.end() ? kExitOk : f->second;
		};
	}
};

struct Result {
	int status;
	std::string err;
};

Result batch(const std::string &text, FakeRunner &fake, const Request &options = {},
	     bool stdin_batch = false)
{
	std::istringstream in(text);
	std::ostringstream err;
	int status = run_batch(in, "cmds", options, stdin_batch, fake.runner(), err);
	return {status, err.str()};
}

std::vector<std::vector<std::string>> commands(const std::string &text)
{
	std::istringstream in(text);
	std::vector<std::vector<std::string>> out;
	BatchCommand cmd;
	size_t lineno = 0;

	while (read_batch_command(in, "f", &lineno, &cmd))
		out.push_back(cmd.words);
	return out;
}

Request options(const std::vector<std::string> &args)
{
	return parse_args(args);
}

} // namespace

TEST(BatchArgs, DashBTakesAFileOrStandardInput)
{
	Request r = parse_args({"-b", "cmds"});
	EXPECT_EQ(r.command, Command::Batch);
	EXPECT_EQ(r.file, "cmds");
	EXPECT_FALSE(r.force);
	r = parse_args({"-force", "-b", "-"});
	EXPECT_EQ(r.command, Command::Batch);
	EXPECT_EQ(r.file, "-");
	EXPECT_TRUE(r.force);
	r = parse_args({"--batch", "cmds", "--force"});
	EXPECT_EQ(r.file, "cmds");
	EXPECT_TRUE(r.force);
	r = parse_args({"-jb", "cmds", "-n", "ns1"});
	EXPECT_EQ(r.command, Command::Batch);
	EXPECT_TRUE(r.json);
	EXPECT_EQ(r.netns, "ns1");
	EXPECT_EQ(parse_args({"-batch", "x"}).file, "x");
	EXPECT_EQ(parse_args({"--bat", "x"}).file, "x");
	EXPECT_EQ(usage_error({"-b"}), "option '-b' needs a file name ('-': standard input)");
	EXPECT_EQ(usage_error({"-bj", "x"}), "option '-b' needs a file name ('-': standard input)");
	EXPECT_EQ(usage_error({"-b", "cmds", "show"}),
		  "unexpected argument 'show' (with -b, the commands are in the file)");
	EXPECT_EQ(usage_error({"show", "-b"}),
		  "show: unexpected argument '-b' (options go before the command)");
}

TEST(BatchArgs, DashDIsDetails)
{
	EXPECT_TRUE(parse_args({"-d", "show"}).details);
	EXPECT_TRUE(parse_args({"-sd", "tunnel"}).details);
	EXPECT_TRUE(parse_args({"--details", "policy"}).details);
	EXPECT_TRUE(parse_args({"-details", "policy"}).details);
	EXPECT_FALSE(parse_args({"show"}).details);
}

// getcmdline and makeargs: comments, blank lines, continued lines, quotes.
TEST(Batch, LinesAsIpReadsThem)
{
	using W = std::vector<std::string>;
	auto c = commands("# a comment\n"
			  "\n"
			  "   \t\n"
			  "set window 10   # the rest is a comment\n"
			  "policy add 10.0.0.0/8 \\\n"
			  "    weight 3\n"
			  "bound 'my ns' none\n"
			  "bound \"/run/netns/a b\" none\n"
			  "show");
	ASSERT_EQ(c.size(), 5u);
	EXPECT_EQ(c[0], (W{"set", "window", "10"}));
	EXPECT_EQ(c[1], (W{"policy", "add", "10.0.0.0/8", "weight", "3"}));
	EXPECT_EQ(c[2], (W{"bound", "my ns", "none"}));
	EXPECT_EQ(c[3], (W{"bound", "/run/netns/a b", "none"}));
	EXPECT_EQ(c[4], (W{"show"}));
	EXPECT_TRUE(commands("").empty());
	EXPECT_TRUE(commands("#only\n\n").empty());
}

TEST(Batch, RunsEveryLineInOrderWithItsLineNumber)
{
	FakeRunner fake;
	Result r = batch("# eqds\n"
			 "set window 10\n"
			 "\n"
			 "policy add 10.0.1.0/24 \\\n"
			 "  weight 3\n"
			 "pol del 10.0.1.0/24\n",
			 fake);
	EXPECT_EQ(r.status, 0);
	EXPECT_EQ(r.err, "");
	ASSERT_EQ(fake.ran.size(), 3u);
	EXPECT_EQ(fake.ran[0].command, Command::Set);
	EXPECT_EQ(fake.ran[0].config.window, 10u);
	EXPECT_EQ(fake.ran[1].policy.op, PolicyRequest::Op::Add);
	EXPECT_EQ(fake.ran[1].policy.rule.weight, 3u);
	EXPECT_EQ(fake.ran[2].policy.op, PolicyRequest::Op::Del);
	EXPECT_EQ(fake.where, (std::vector<std::string>{"cmds:2: ", "cmds:5: ", "cmds:6: "}));
}

// ip -b: "First failure will cause termination of ip."
TEST(Batch, StopsAtTheFirstFailureWithItsStatus)
{
	FakeRunner fake;
	fake.fail[1] = kExitKernel;
	Result r = batch("set window 10\npolicy del 10.9.0.0/16\nset window 20\n", fake);
	EXPECT_EQ(r.status, kExitKernel);
	EXPECT_EQ(fake.ran.size(), 2u);	// the third line never ran
	EXPECT_EQ(fake.where[1], "cmds:2: ");
}

TEST(Batch, ABadLineIsAUsageErrorNamingItsLineAndStopsTheBatch)
{
	FakeRunner fake;
	Result r = batch("set window 10\n\nset port 0\nset window 20\n", fake);
	EXPECT_EQ(r.status, kExitUsage);
	EXPECT_EQ(r.err, "eqdsctl: cmds:3: set: port: '0' is not in 1..65535\n");
	ASSERT_EQ(fake.ran.size(), 1u);
	EXPECT_EQ(fake.ran[0].config.window, 10u);

	FakeRunner quote;
	r = batch("show\nbound 'ns none\nshow\n", quote);
	EXPECT_EQ(r.status, kExitUsage);
	EXPECT_EQ(r.err, "eqdsctl: cmds:2: unterminated quoted string\n");
	EXPECT_EQ(quote.ran.size(), 1u);

	FakeRunner cont;
	r = batch("show\nset window \\\n", cont);
	EXPECT_EQ(r.status, kExitUsage);
	EXPECT_EQ(r.err, "eqdsctl: cmds:2: missing continuation line\n");
}

// ip -force: "Don't terminate ip on errors in batch mode. If there were any
// errors during execution of the commands, the application return code will
// be non zero."
TEST(Batch, ForceRunsEveryLineAndReportsTheFirstFailure)
{
	FakeRunner fake;
	fake.fail[1] = kExitKernel;
	Result r = batch("set window 10\npolicy del 10.9.0.0/16\nset bogus 1\nset window 20\n",
			 fake, options({"-force", "-b", "cmds"}));
	EXPECT_EQ(r.status, kExitKernel);
	EXPECT_EQ(r.err, "eqdsctl: cmds:3: set: unexpected argument 'bogus'\n");
	ASSERT_EQ(fake.ran.size(), 3u);
	EXPECT_EQ(fake.ran[2].config.window, 20u);

	FakeRunner usage_first;
	usage_first.fail[1] = kExitKernel;
	r = batch("set bogus 1\nshow\nshow\n", usage_first, options({"-force", "-b", "x"}));
	EXPECT_EQ(r.status, kExitUsage);
	EXPECT_EQ(usage_first.ran.size(), 2u);

	FakeRunner all_ok;
	r = batch("show\nshow\n", all_ok, options({"-force", "-b", "x"}));
	EXPECT_EQ(r.status, 0);
}

TEST(Batch, CommandLineOptionsApplyToEveryLine)
{
	FakeRunner fake;
	Result r = batch("show\n-d policy\ntunnel list\n", fake, options({"-j", "-s", "-b", "x"}));
	EXPECT_EQ(r.status, 0);
	ASSERT_EQ(fake.ran.size(), 3u);
	for (const Request &req : fake.ran) {
		EXPECT_TRUE(req.json);
		EXPECT_TRUE(req.stats);
		EXPECT_TRUE(req.netns.empty());
	}
	EXPECT_FALSE(fake.ran[0].details);
	EXPECT_TRUE(fake.ran[1].details);
}

TEST(Batch, NamespaceBatchAndForceAreNotLineOptions)
{
	for (const char *line : {"-n ns1 show\n", "-b other\n", "-force show\n"}) {
		FakeRunner fake;
		Result r = batch(line, fake);
		EXPECT_EQ(r.status, kExitUsage) << line;
		EXPECT_EQ(r.err, "eqdsctl: cmds:1: -n, -b and -force are options of the whole "
				 "batch, not of a line\n")
			<< line;
		EXPECT_TRUE(fake.ran.empty()) << line;
	}
	FakeRunner fake;
	Result r = batch("restore -\n", fake, {}, true);
	EXPECT_EQ(r.status, kExitUsage);
	EXPECT_EQ(r.err, "eqdsctl: cmds:1: restore -: standard input is the batch itself\n");
	FakeRunner from_file;
	EXPECT_EQ(batch("restore -\n", from_file).status, 0);
}
