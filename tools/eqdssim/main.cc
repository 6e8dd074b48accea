// SPDX-License-Identifier: GPL-2.0
// eqdssim: run one scenario, print its headline figures, and write
// summary.json, flows.csv and samples.csv with --out. Exits 2 if the
// credit audit found a violation, so scripts cannot miss one.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

#include "fluid.h"
#include "options.h"
#include "report.h"
#include "results.h"
#include "scenario.h"

using namespace eqdssim;

int main(int argc, char **argv)
{
	Options o;

	if (argc == 2 && std::string(argv[1]) == "--help") {
		std::cout << usage();
		return 0;
	}
	try {
		o = parse_options(std::vector<std::string>(argv + 1, argv + argc));
	} catch (const std::exception &e) {
		std::cerr << "eqdssim: " << e.what() << "\n" << usage();
		return 1;
	}
	try {
		Scenario s(o.scenario);

		s.run();
		Results r = compute_results(s);

		std::printf("%s: %u hosts, %.1f ms simulated in %.1f s (%.2f M events/s, "
			    "peak RSS %.0f MB)\n",
			    o.label.empty() ? "eqdssim" : o.label.c_str(), r.hosts,
			    r.sim_seconds * 1e3, r.wall_seconds, r.events_per_second / 1e6,
			    r.peak_rss_mb);
		std::printf("  flows %u (finished %u), mean utilisation %.3f, min %.3f, jain %.4f\n",
			    r.flows, r.finished, r.mean_utilisation, r.min_utilisation, r.jain);
		std::printf("  fct p50/p95/p99 %.1f/%.1f/%.1f us\n", r.fct_p50_us, r.fct_p95_us,
			    r.fct_p99_us);
		for (size_t i = 0; i < 3; i++)
			std::printf("  %-8s drops %llu, max queue %u, mean queue %.2f, util %.3f\n",
				    port_role_name((PortRole)i),
				    (unsigned long long)r.roles[i].drops, r.roles[i].max_queue,
				    r.roles[i].mean_queue, r.roles[i].mean_utilisation);
		std::printf("  eqds: retransmits %llu, timeouts %llu, CE received %llu, "
			    "paths penalised %llu, repaths %llu\n",
			    (unsigned long long)r.counters.retransmits,
			    (unsigned long long)r.counters.timeouts,
			    (unsigned long long)r.counters.ce_rcvd,
			    (unsigned long long)r.counters.path_penalties,
			    (unsigned long long)r.counters.path_repaths);
		std::printf("  credit audit: %llu checks, %llu violations%s%s\n",
			    (unsigned long long)r.audit_checks,
			    (unsigned long long)r.audit_violations,
			    r.audit_violations ? ": " : "", r.audit_first.c_str());
		if (!o.out_dir.empty()) {
			write_outputs(o.out_dir, s, r, o.label);
			if (o.fluid_baseline) {
				std::vector<std::pair<uint32_t, uint32_t>> pairs;

				for (const Flow &f : s.traffic().flows())
					pairs.push_back({ f.src, f.dst });
				std::vector<double> rates = maxmin_per_flow_ecmp(s.net(), pairs);
				std::ofstream out(o.out_dir + "/fluid_per_flow_ecmp.csv");
				double sum = 0;

				out << "src,dst,rate_gbps,utilisation\n";
				for (size_t i = 0; i < pairs.size(); i++) {
					double u = rates[i] / (double)o.scenario.topo.host_rate_bps;

					sum += u;
					out << pairs[i].first << ',' << pairs[i].second << ','
					    << rates[i] / 1e9 << ',' << u << '\n';
				}
				std::printf("  fluid per-flow ECMP (ideal max-min): mean utilisation %.3f\n",
					    pairs.empty() ? 0 : sum / (double)pairs.size());
			}
		}
		return r.audit_violations ? 2 : 0;
	} catch (const std::exception &e) {
		std::cerr << "eqdssim: " << e.what() << "\n";
		return 1;
	}
}
