// SPDX-License-Identifier: GPL-2.0
#include "workload.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace eqdssim {

SizeDistribution SizeDistribution::from_csv(const std::string &path)
{
	SizeDistribution d;
	std::ifstream in(path);
	std::string line;

	if (!in)
		throw std::runtime_error("cannot read " + path);
	while (std::getline(in, line)) {
		if (line.empty() || line[0] == '#')
			continue;
		std::istringstream ls(line);
		double size, cdf;
		char comma;

		if (!(ls >> size >> comma >> cdf) || comma != ',')
			continue;	// a header line
		if (!d.points_.empty() && (size < d.points_.back().first || cdf < d.points_.back().second))
			throw std::runtime_error(path + ": sizes and probabilities must ascend");
		d.points_.push_back({ size, cdf });
	}
	if (d.points_.empty() || d.points_.back().second < 0.999999)
		throw std::runtime_error(path + ": the last probability must be 1");
	return d;
}

SizeDistribution SizeDistribution::fixed(uint64_t size)
{
	SizeDistribution d;

	d.points_.push_back({ (double)size, 1.0 });
	return d;
}

uint64_t SizeDistribution::sample(std::mt19937_64 &rng) const
{
	double u = std::uniform_real_distribution<double>(0, 1)(rng);
	double prev_size = points_.front().first, prev_cdf = 0;

	for (const auto &[size, cdf] : points_) {
		if (u <= cdf) {
			double span = cdf - prev_cdf;
			double s = span > 0 ? prev_size + (size - prev_size) * (u - prev_cdf) / span : size;

			return s < 1 ? 1 : (uint64_t)s;
		}
		prev_size = size;
		prev_cdf = cdf;
	}
	return (uint64_t)points_.back().first;
}

double SizeDistribution::mean() const
{
	double m = 0, prev_size = points_.front().first, prev_cdf = 0;

	for (const auto &[size, cdf] : points_) {
		m += (cdf - prev_cdf) * (prev_size + size) / 2;
		prev_size = size;
		prev_cdf = cdf;
	}
	return m;
}

std::vector<uint32_t> random_derangement(uint32_t n, std::mt19937_64 &rng)
{
	std::vector<uint32_t> p(n);

	for (uint32_t i = 0; i < n; i++)
		p[i] = i;
	if (n < 2)
		return p;
	// Sattolo's algorithm: a single n-cycle, so no host maps to itself.
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)(rng() % i);

		std::swap(p[i], p[j]);
	}
	return p;
}

void make_workload(Traffic &traffic, const WorkloadConfig &w, uint32_t hosts,
		   uint64_t host_rate_bps, SimTime duration, std::mt19937_64 &rng)
{
	auto start = [&]() -> SimTime {
		return w.start_spread ? rng() % w.start_spread : 0;
	};
	auto add = [&](uint32_t src, uint32_t dst, uint64_t size, bool closed) {
		Flow f;

		f.src = src;
		f.dst = dst;
		f.size = size;
		f.start = start();
		f.closed_loop = closed;
		traffic.add(std::move(f));
	};

	if (w.kind == "greedy") {
		for (uint32_t i = 0; i < hosts / 2; i++)
			add(i, hosts / 2 + i, w.flow_size, false);
	} else if (w.kind == "permutation") {
		std::vector<uint32_t> dst = random_derangement(hosts, rng);

		for (uint32_t i = 0; i < hosts; i++)
			add(i, dst[i], w.flow_size, false);
	} else if (w.kind == "incast") {
		uint32_t n = w.senders ? w.senders : hosts - 1;

		if (n >= hosts)
			throw std::invalid_argument("incast needs more hosts than senders");
		for (uint32_t i = 0, s = 0; s < n; i++) {
			if (i == w.receiver)
				continue;
			add(i, w.receiver, w.flow_size, false);
			s++;
		}
	} else if (w.kind == "closedloop") {
		if (!w.flow_size)
			throw std::invalid_argument("closedloop needs a flow size");
		std::vector<uint32_t> dst = random_derangement(hosts, rng);

		for (uint32_t i = 0; i < hosts; i++)
			add(i, dst[i], w.flow_size, true);
	} else if (w.kind == "poisson") {
		SizeDistribution sizes = w.size_csv.empty() ? SizeDistribution::fixed(w.flow_size ? w.flow_size : 100000)
							    : SizeDistribution::from_csv(w.size_csv);
		// Flows per second per host so that load of the link is offered.
		double rate = w.load * (double)host_rate_bps / 8 / sizes.mean();
		std::exponential_distribution<double> gap(rate);

		for (uint32_t src = 0; src < hosts; src++) {
			double t = gap(rng);

			while (t * 1e9 < (double)duration) {
				uint32_t dst = (uint32_t)(rng() % (hosts - 1));
				Flow f;

				f.src = src;
				f.dst = dst >= src ? dst + 1 : dst;
				f.size = sizes.sample(rng);
				f.start = (SimTime)(t * 1e9);
				traffic.add(std::move(f));
				t += gap(rng);
			}
		}
	} else {
		throw std::invalid_argument("unknown workload " + w.kind);
	}
}

}  // namespace eqdssim
