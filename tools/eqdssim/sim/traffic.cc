// SPDX-License-Identifier: GPL-2.0
#include "traffic.h"

#include <algorithm>

#include "host.h"

namespace eqdssim {

namespace {
constexpr uint32_t kStartFlow = 1;
constexpr uint32_t kResend = 2;
constexpr uint32_t kTailCheck = 3;
}

uint32_t Traffic::add(Flow f)
{
	f.id = (uint32_t)flows_.size();
	if (f.finite()) {
		f.got.assign(f.packets(kMss), false);
		f.resend_scheduled.assign(f.packets(kMss), false);
	}
	flows_.push_back(std::move(f));
	net_.events().at(flows_.back().start, this, kStartFlow, flows_.back().id);
	return flows_.back().id;
}

uint64_t Traffic::resent_packets() const
{
	uint64_t n = 0;

	for (const Flow &f : flows_)
		n += f.resent;
	return n;
}

void Traffic::fire(uint32_t kind, uint64_t arg)
{
	if (kind == kStartFlow)
		start((uint32_t)arg);
	else if (kind == kResend)
		on_resend((uint32_t)(arg >> 32), (uint32_t)arg);
	else if (kind == kTailCheck)
		on_tail_check((uint32_t)arg);
}

void Traffic::restart_sender(uint32_t host)
{
	std::vector<uint32_t> dsts;

	for (const auto &[key, flows] : pending_)
		if ((uint32_t)(key >> 32) == host && !flows.empty())
			dsts.push_back((uint32_t)key);
	for (uint32_t dst : dsts)
		static_cast<Host *>(net_.host(host))->sender(dst).refill();
}

void Traffic::make_pending(Flow &f)
{
	if (f.in_pending)
		return;
	f.in_pending = true;
	pending_[pair_key(f.src, f.dst)].push_back(f.id);
	static_cast<Host *>(net_.host(f.src))->sender(f.dst).refill();
}

void Traffic::start(uint32_t id)
{
	Flow &f = flows_[id];

	if (f.finite())
		net_.events().at(net_.events().now() + tail_timeout, this, kTailCheck, id);
	make_pending(f);
}

void Traffic::resend_later(Flow &f, uint32_t index)
{
	f.resend_scheduled[index] = true;
	net_.events().at(net_.events().now() + fast_retransmit_delay, this, kResend,
			 ((uint64_t)f.id << 32) | index);
}

void Traffic::on_resend(uint32_t id, uint32_t index)
{
	Flow &f = flows_[id];

	if (f.got[index])
		return;
	f.resend.push_back(index);
	make_pending(f);
}

void Traffic::on_tail_check(uint32_t id)
{
	Flow &f = flows_[id];

	if (f.finish)
		return;
	if (f.delivered == f.delivered_at_last_tail_check && f.resend.empty()) {
		for (uint32_t i = f.next_missing; i < f.next_index; i++)
			if (!f.got[i])
				f.resend.push_back(i);
		if (!f.resend.empty())
			make_pending(f);
	}
	f.delivered_at_last_tail_check = f.delivered;
	net_.events().at(net_.events().now() + tail_timeout, this, kTailCheck, id);
}

void Traffic::fill(Host &host, SenderTunnel &tunnel)
{
	auto it = pending_.find(pair_key(host.id(), tunnel.peer()));

	if (it == pending_.end())
		return;
	std::deque<uint32_t> &q = it->second;

	while (!q.empty() && tunnel.queue_len() < host.cfg().queue_limit) {
		uint32_t id = q.front();
		Flow &f = flows_[id];
		AppData d;

		q.pop_front();
		d.flow = id;
		if (!f.resend.empty()) {
			d.index = f.resend.front();
			f.resend.pop_front();
			f.resent++;
		} else {
			d.index = f.next_index++;
		}
		d.inner_bytes = kMss + kInnerHeaders;
		if (f.finite()) {
			uint64_t left = f.size - (uint64_t)d.index * kMss;

			if (left < kMss)
				d.inner_bytes = (uint32_t)left + kInnerHeaders;
		}
		if (!f.finite() || f.next_index < f.packets(kMss) || !f.resend.empty())
			q.push_back(id);
		else
			f.in_pending = false;
		tunnel.capture(d);
	}
}

void Traffic::delivered(Host &, uint32_t, const AppData &d, bool late)
{
	Flow &f = flows_[d.flow];
	SimTime now = net_.events().now();

	if (late)
		late_++;
	if (f.finite()) {
		if (f.got[d.index]) {
			f.duplicates++;
			return;
		}
		f.got[d.index] = true;
		// A hole below this packet was given up on: the transport
		// notices (dupacks) and sends it again.
		for (uint32_t j = std::max(f.next_missing, f.scanned_to); j < d.index; j++)
			if (!f.got[j] && !f.resend_scheduled[j])
				resend_later(f, j);
		f.scanned_to = std::max(f.scanned_to, d.index + 1);
		while (f.next_missing < f.got.size() && f.got[f.next_missing])
			f.next_missing++;
	}
	f.delivered += d.inner_bytes - kInnerHeaders;
	if (now >= measure_from_)
		f.measured += d.inner_bytes - kInnerHeaders;
	if (f.finite() && f.delivered == f.size) {
		f.finish = now;
		if (f.closed_loop) {
			Flow next;

			next.src = f.src;
			next.dst = f.dst;
			next.size = f.size;
			next.start = now;
			next.closed_loop = true;
			add(std::move(next));
		}
	}
}

}  // namespace eqdssim
