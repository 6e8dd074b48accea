// SPDX-License-Identifier: GPL-2.0
#include "options.h"

#include <stdexcept>

namespace eqdssim {

namespace {

SimTime parse_time(const std::string &v)
{
	size_t pos = 0;
	double x = std::stod(v, &pos);
	std::string unit = v.substr(pos);

	if (unit == "s")
		return (SimTime)(x * 1e9);
	if (unit == "ms")
		return (SimTime)(x * 1e6);
	if (unit == "us")
		return (SimTime)(x * 1e3);
	if (unit == "ns" || unit.empty())
		return (SimTime)x;
	throw std::invalid_argument("bad time " + v);
}

uint64_t parse_rate(const std::string &v)
{
	size_t pos = 0;
	double x = std::stod(v, &pos);
	std::string unit = v.substr(pos);

	if (unit == "G" || unit == "g")
		return (uint64_t)(x * 1e9);
	if (unit == "M" || unit == "m")
		return (uint64_t)(x * 1e6);
	if (unit.empty())
		return (uint64_t)x;
	throw std::invalid_argument("bad rate " + v);
}

PacketKind parse_kind(const std::string &v)
{
	for (size_t k = 0; k < (size_t)PacketKind::kCount; k++)
		if (v == packet_kind_name((PacketKind)k))
			return (PacketKind)k;
	throw std::invalid_argument("bad packet kind " + v);
}

}  // namespace

const char *usage()
{
	return "usage: eqdssim [--name=value ...]\n"
	       "  --topo=star|dumbbell|leafspine|fattree  --hosts=N --k=K\n"
	       "  --leaves=N --spines=N --hosts-per-leaf=N\n"
	       "  --rate=10G --fabric-rate=10G --delay=1us --buffer=100 --ecn=PKTS --trim=0|1\n"
	       "  --ecmp=packet|packet-hash|flow\n"
	       "  --traffic=greedy|permutation|incast|closedloop|poisson\n"
	       "  --size=BYTES (0: greedy) --senders=N --receiver=ID --load=0.3\n"
	       "  --size-csv=FILE --start-spread=TIME\n"
	       "  --window=PKTS --queue-limit=PKTS --mode=rts|burst --pull-rate=RATE\n"
	       "  --rto-min=TIME --reorder-timeout=TIME --pacer-interval=TIME (timer floor)\n"
	       "  --path-choice=0|1 (spray around lossy and marked paths)\n"
	       "  --cc=0|1 (pull rate reacts to CE) --cc-interval=TIME --cc-ai-div=N --cc-min-div=N\n"
	       "  --duration=TIME --warmup=TIME --drain=TIME --sample=TIME --seed=N\n"
	       "  --loss=KIND:P (KIND data|rts|ack|nack|pull|rst|fin; repeatable)\n"
	       "  --slow-link=N (one core link N times slower) --fail-link-at=TIME (it fails)\n"
	       "  --forget-at=TIME --forget-host=ID --forget-send-at=TIME --forget-send-host=ID\n"
	       "  --out=DIR --label=TEXT --fluid-baseline=0|1 --progress=0|1\n";
}

Options parse_options(const std::vector<std::string> &args)
{
	Options o;
	ScenarioConfig &c = o.scenario;

	for (const std::string &a : args) {
		size_t eq = a.find('=');

		if (a.rfind("--", 0) != 0 || eq == std::string::npos)
			throw std::invalid_argument("expected --name=value, got " + a);
		std::string k = a.substr(2, eq - 2), v = a.substr(eq + 1);

		if (k == "topo") c.topo.kind = v;
		else if (k == "hosts") c.topo.hosts = (uint32_t)std::stoul(v);
		else if (k == "k") c.topo.k = (uint32_t)std::stoul(v);
		else if (k == "leaves") c.topo.leaves = (uint32_t)std::stoul(v);
		else if (k == "spines") c.topo.spines = (uint32_t)std::stoul(v);
		else if (k == "hosts-per-leaf") c.topo.hosts_per_leaf = (uint32_t)std::stoul(v);
		else if (k == "rate") c.topo.host_rate_bps = parse_rate(v);
		else if (k == "fabric-rate") c.topo.fabric_rate_bps = parse_rate(v);
		else if (k == "delay") c.topo.link_delay = parse_time(v);
		else if (k == "buffer") c.topo.buffer_pkts = (uint32_t)std::stoul(v);
		else if (k == "ecn") c.topo.ecn_threshold_pkts = (uint32_t)std::stoul(v);
		else if (k == "trim") c.topo.trim = v == "1";
		else if (k == "ecmp") {
			if (v == "packet")
				c.ecmp = EcmpMode::kPerPacket;
			else if (v == "packet-hash")
				c.ecmp = EcmpMode::kPerPacketHash;
			else if (v == "flow")
				c.ecmp = EcmpMode::kPerFlow;
			else
				throw std::invalid_argument("--ecmp is packet, packet-hash or flow");
		}
		else if (k == "traffic") c.work.kind = v;
		else if (k == "size") c.work.flow_size = std::stoull(v);
		else if (k == "senders") c.work.senders = (uint32_t)std::stoul(v);
		else if (k == "receiver") c.work.receiver = (uint32_t)std::stoul(v);
		else if (k == "load") c.work.load = std::stod(v);
		else if (k == "size-csv") c.work.size_csv = v;
		else if (k == "start-spread") c.work.start_spread = parse_time(v);
		else if (k == "window") c.eqds.window_pkts = (uint32_t)std::stoul(v);
		else if (k == "queue-limit") c.eqds.queue_limit = (uint32_t)std::stoul(v);
		else if (k == "mode") c.eqds.burst_mode = v == "burst";
		else if (k == "pull-rate") c.eqds.pull_rate_bps = parse_rate(v);
		else if (k == "rto-min") c.eqds.rto_min = parse_time(v);
		else if (k == "reorder-timeout") c.eqds.rxq.reorder_timeout_ns = parse_time(v);
		else if (k == "pacer-interval") c.eqds.pacer_min_interval = parse_time(v);
		else if (k == "path-choice") c.eqds.path_choice = v == "1";
		else if (k == "cc") c.eqds.cc = v == "1";
		else if (k == "cc-interval") c.eqds.cc_params.interval_ns = (uint32_t)parse_time(v);
		else if (k == "cc-ai-div") c.eqds.cc_params.ai_div = (uint32_t)std::stoul(v);
		else if (k == "cc-min-div") c.eqds.cc_params.min_div = (uint32_t)std::stoul(v);
		else if (k == "duration") c.duration = parse_time(v);
		else if (k == "warmup") c.warmup = parse_time(v);
		else if (k == "drain") c.drain = parse_time(v);
		else if (k == "sample") c.sample_interval = parse_time(v);
		else if (k == "seed") c.seed = std::stoull(v);
		else if (k == "loss") {
			size_t colon = v.find(':');

			if (colon == std::string::npos)
				throw std::invalid_argument("--loss=KIND:P");
			c.loss[(size_t)parse_kind(v.substr(0, colon))] = std::stod(v.substr(colon + 1));
		}
		else if (k == "forget-at") c.forget_at = parse_time(v);
		else if (k == "forget-host") c.forget_host = (uint32_t)std::stoul(v);
		else if (k == "forget-send-at") c.forget_send_at = parse_time(v);
		else if (k == "forget-send-host") c.forget_send_host = (uint32_t)std::stoul(v);
		else if (k == "slow-link") c.slow_link = (uint32_t)std::stoul(v);
		else if (k == "fail-link-at") c.fail_link_at = parse_time(v);
		else if (k == "progress") c.progress = v == "1";
		else if (k == "out") o.out_dir = v;
		else if (k == "label") o.label = v;
		else if (k == "fluid-baseline") o.fluid_baseline = v == "1";
		else throw std::invalid_argument("unknown option --" + k);
	}
	return o;
}

}  // namespace eqdssim
