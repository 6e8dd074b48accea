// SPDX-License-Identifier: GPL-2.0 OR MIT
// Usage and help texts, whole or per subcommand (args.h).
#include "args.h"

#include <linux/eqds.h>

// A uapi limit in a help text: the number as the header states it.
#define S_(x) #x
#define S(x) S_(x)

namespace eqdsctl {

namespace {

struct Section {
	Topic topic;
	const char *synopsis;	// lines, each "eqdsctl ..." with its continuations
	const char *details;	// what "eqdsctl TOPIC help" adds
};

const Section kSections[] = {
	{Topic::Show,
	 "eqdsctl [-j|--json] [-p|--pretty] [-s|--stats] [-d|--details] [show]\n",
	 "show                    the module version, the configuration and (-s) the\n"
	 "                        counters; the default command (no privilege needed)\n"},
	{Topic::Set,
	 "eqdsctl set [port N] [dests PREFIX[,PREFIX...]|none] [pull-rate RATE|auto]\n"
	 "            [headroom PCT] [mode rts|burst] [window N] [queue-limit N]\n"
	 "            [idle-timeout MS] [queued-limit KB|none]\n"
	 "            [tcp-ecn-min N|auto] [tcp-ecn-max N|auto] [tcp-tc-priority PRIO]\n"
	 "            [ll-queue-limit N] [ll-ecn-min N|auto] [ll-ecn-max N|auto]\n"
	 "            [ll-tc-priority PRIO] [ll-priority PRIO|none]\n"
	 "            [ll-mark MARK[/MASK]|none]\n",
	 "set (needs CAP_NET_ADMIN; only the given settings change):\n"
	 "  port N                UDP port, " S(EQDS_PORT_MIN) "..65535\n"
	 "  dests LIST|none       comma-separated IPv4/IPv6 prefixes (ADDR[/LEN], host bits\n"
	 "                        cleared), at most " S(EQDS_MAX_DESTS) "; replaces the whole list\n"
	 "  pull-rate RATE|auto   receiver pull rate; auto (or 0) = link speed\n"
	 "  headroom PCT          with pull-rate auto: percent of the link not pulled, 0.." S(EQDS_HEADROOM_MAX) "\n"
	 "  mode rts|burst        start tunnels with a request-to-send or a window burst\n"
	 "  window N              credit window, packets, " S(EQDS_WINDOW_MIN) ".." S(EQDS_WINDOW_MAX) "\n"
	 "  queue-limit N         per-destination queue, packets, " S(EQDS_QUEUE_LIMIT_MIN) ".." S(EQDS_QUEUE_LIMIT_MAX) "\n"
	 "  idle-timeout MS       tunnel idle timeout, ms, " S(EQDS_IDLE_TIMEOUT_MIN) ".." S(EQDS_IDLE_TIMEOUT_MAX) "\n"
	 "  queued-limit KB|none  KiB queued in all tunnels together (tail drop), 0.." S(EQDS_QUEUED_LIMIT_KB_MAX) "\n"
	 "sending EQIF classes: tcp (TCP-compatible, the default) and ll (low latency,\n"
	 "served first); queue-limit above is the tcp class's:\n"
	 "  tcp-ecn-min N|auto    CE marks from this queue length on (auto: half the limit)\n"
	 "  tcp-ecn-max N|auto    ... certainly from this one (auto: = min, a step)\n"
	 "  tcp-tc-priority PRIO  skb->priority of its encapsulated packets (N or MAJ:MIN)\n"
	 "  ll-queue-limit N      low-latency queue per destination, packets, " S(EQDS_QUEUE_LIMIT_MIN) ".." S(EQDS_QUEUE_LIMIT_MAX) "\n"
	 "  ll-ecn-min, ll-ecn-max, ll-tc-priority  as for tcp\n"
	 "  ll-priority PRIO|none packets of this skb->priority go to ll (SO_PRIORITY)\n"
	 "  ll-mark MARK[/MASK]|none  packets with this fwmark go to ll\n"},
	{Topic::Tunnel,
	 "eqdsctl [-j|-p] [-s] tunnel [list [tx|rx] | show PEER [tx|rx]]\n",
	 "tunnel (needs CAP_NET_ADMIN over the namespace):\n"
	 "  list [tx|rx]          every tunnel: sending (tx) and receiving (rx) sides\n"
	 "  show PEER [tx|rx]     the tunnels to and from one peer address\n"
	 "                        (-s adds per-tunnel counters; -j prints a JSON array)\n"},
	{Topic::Monitor,
	 "eqdsctl [-j] monitor [tunnels]\n",
	 "monitor [tunnels]       print tunnel events (new, del, restart) and policy\n"
	 "                        changes until killed\n"},
	{Topic::Policy,
	 "eqdsctl [-j|-p] policy [show | {add|change|replace} PREFIX [weight N] [prio P]\n"
	 "                       [rate RATE] | del PREFIX | flush]\n",
	 "policy: how this receiver shares its pulls among senders (writes need\n"
	 "CAP_NET_ADMIN). A sender takes the rule of the longest prefix holding it;\n"
	 "without one: weight 1, prio 1, no cap.\n"
	 "  show                  the rules, and the host's bound if there is one\n"
	 "  add PREFIX [weight N] [prio P] [rate RATE]\n"
	 "                        add PREFIX's rule (fails if it has one): weight\n"
	 "                        1.." S(EQDS_WEIGHT_MAX) " (share among its level), prio 0.." S(EQDS_PRIO_MAX) " (strict, 0\n"
	 "                        the highest; default 1), rate: cap per sender (none)\n"
	 "  change PREFIX ...     replace PREFIX's rule (fails if it has none)\n"
	 "  replace PREFIX ...    add or replace PREFIX's rule\n"
	 "  del PREFIX            remove PREFIX's rule\n"
	 "  flush                 remove every rule\n"},
	{Topic::Bound,
	 "eqdsctl bound NETNS [pull-rate RATE] [max-weight N] [min-prio P] | none\n",
	 "bound NETNS ... (root of the initial namespace only): what namespace NETNS\n"
	 "(a name in /run/netns or a path such as /proc/PID/ns/net) may pull and give:\n"
	 "  pull-rate RATE        its receiver pulls at most this fast\n"
	 "  max-weight N          its rules' weights are capped at N\n"
	 "  min-prio P            its rules' levels are P or lower (higher numbers)\n"
	 "  none                  remove the bound\n"},
	{Topic::Save,
	 "eqdsctl save\n",
	 "save                    print the configuration (set parameters and policy) as\n"
	 "                        eqdsctl command lines, for restore (no privilege needed)\n"},
	{Topic::Restore,
	 "eqdsctl restore FILE|-\n",
	 "restore FILE|-          apply a file of set and policy lines, such as save\n"
	 "                        writes, in one request: all of it or nothing\n"
	 "                        (needs CAP_NET_ADMIN; '-': standard input)\n"},
};

const char kHelpLine[] = "eqdsctl [OPTIONS] [-force] -b FILE|-\n"
			 "eqdsctl help [COMMAND] | -h | --help | -V | --version\n";

// text's lines, the first after "Usage: ", the others under it.
std::string usage_block(const std::string &text)
{
	std::string out;
	size_t start = 0;

	while (start < text.size()) {
		size_t nl = text.find('\n', start);
		out += (start ? "       " : "Usage: ") + text.substr(start, nl - start + 1);
		start = nl + 1;
	}
	return out;
}

const Section *section(Topic t)
{
	for (const Section &s : kSections)
		if (s.topic == t)
			return &s;
	return nullptr;
}

} // namespace

std::string usage(Topic t)
{
	const Section *s = section(t);

	if (s)
		return usage_block(s->synopsis);
	return "Usage: eqdsctl [OPTIONS] {show | set | tunnel | monitor | policy | bound | save"
	       " | restore}\n"
	       "       eqdsctl help [COMMAND]   (the usage of one command)\n";
}

std::string help_text(Topic t)
{
	const Section *one = section(t);

	if (one)
		return usage_block(one->synopsis) + "\n" + one->details;

	std::string synopsis, details;
	for (const Section &s : kSections) {
		synopsis += s.synopsis;
		if (s.topic != Topic::Show)
			details += "\n" + std::string(s.details);
	}
	return usage_block(synopsis + kHelpLine) +
	       "\n"
	       "Configure the EQDS (Edge-Queued Datagram Service) instance of the current\n"
	       "network namespace through the 'eqds' generic netlink family.\n"
	       "Every keyword may be shortened to a prefix that names it alone\n"
	       "('eqdsctl tun l' is 'eqdsctl tunnel list'; 's' is show).\n"
	       "\n"
	       "Options (before the command):\n"
	       "  -j, --json     show: print one JSON object (counters always included)\n"
	       "  -p, --pretty   indent the JSON output (implies -j)\n"
	       "  -s, --stats    show: print the counters too\n"
	       "  -d, --details  show, policy, tunnel: the values in effect too (thresholds\n"
	       "                 left on auto, shares under the host's bound)\n"
	       "  -h, --help     print this help and exit\n"
	       "  -V, --version  print eqdsctl's version and exit\n"
	       "  -n, --netns NETNS  run in namespace NETNS (/var/run/netns/NETNS or a path),\n"
	       "                 as ip -n; exit 1 if it cannot be opened\n"
	       "  -b, --batch FILE  run FILE's commands, one per line ('-': standard input),\n"
	       "                 as ip -b; the first that fails ends it, named FILE:LINE\n"
	       "  -force         with -b: run every line, exit with the first failure's status\n"
	       "\n"
	       "A RATE is a number and a unit of tc's, in any case: bit, kbit, mbit, gbit,\n"
	       "tbit, or bytes/s: bps, kbps, mbps, gbps, tbps (1.5gbit, 100Mbit, 125MBps);\n"
	       "no unit: Mbit/s. It must be a whole number of Mbit/s.\n" +
	       details +
	       "\n"
	       "Exit status: 0 on success, 1 for a bad command line, 2 for an error from\n"
	       "the kernel (as ip).  See eqdsctl(8).\n";
}

} // namespace eqdsctl
