// SPDX-License-Identifier: GPL-2.0
#include "port.h"

#include "node.h"

namespace eqdssim {

namespace {
constexpr uint32_t kTxDone = 1;
// Trimmed headers are tiny; their queue is bounded only as a safety net.
constexpr uint32_t kHeaderQueueLimit = 1000;
}

const char *port_role_name(PortRole r)
{
	switch (r) {
	case PortRole::kHostNic: return "host_nic";
	case PortRole::kToHost: return "to_host";
	case PortRole::kFabric: return "fabric";
	}
	return "?";
}

Port::Port(EventQueue &q, PacketPool &pool, Node *from, Node *to,
	   const PortConfig &cfg, PortRole role)
	: q_(q), pool_(pool), from_(from), to_(to), cfg_(cfg), role_(role)
{
}

void Port::account(SimTime now)
{
	stats_.queue_pkt_ns += (double)queue_len() * (double)(now - last_account_);
	last_account_ = now;
}

void Port::push(Packet *&head, Packet *&tail, Packet *p)
{
	p->next = nullptr;
	if (tail)
		tail->next = p;
	else
		head = p;
	tail = p;
}

Packet *Port::pop(Packet *&head, Packet *&tail)
{
	Packet *p = head;

	head = p->next;
	if (!head)
		tail = nullptr;
	p->next = nullptr;
	return p;
}

SimTime Port::serialisation(const Packet *p) const
{
	uint64_t bits = (uint64_t)(p->ip_bytes() + kFramingBytes) * 8;

	return (SimTime)((bits * 1000000000ull + cfg_.rate_bps - 1) / cfg_.rate_bps);
}

void Port::send(Packet *p)
{
	account(q_.now());
	if (failed_) {
		stats_.drops++;
		if (q_.now() >= measure_from_)
			stats_.drops_measured++;
		pool_.put(p);
		return;
	}
	if (!busy_) {
		push(head_, tail_, p);
		qlen_++;
		start_next();
		return;
	}
	if (qlen_ >= cfg_.buffer_pkts) {
		if (cfg_.trim && p->payload_len && hqlen_ < kHeaderQueueLimit) {
			p->payload_len = 0;
			p->trimmed = true;
			stats_.trims++;
			push(hhead_, htail_, p);
			hqlen_++;
		} else {
			stats_.drops++;
			if (q_.now() >= measure_from_)
				stats_.drops_measured++;
			pool_.put(p);
		}
		return;
	}
	if (cfg_.ecn_threshold_pkts && qlen_ >= cfg_.ecn_threshold_pkts) {
		p->ce = true;
		stats_.ecn_marks++;
	}
	push(head_, tail_, p);
	qlen_++;
	if (qlen_ > stats_.max_queue)
		stats_.max_queue = qlen_;
	if (qlen_ > stats_.max_queue_measured && q_.now() >= measure_from_)
		stats_.max_queue_measured = qlen_;
}

void Port::start_next()
{
	Packet *p;

	if (hqlen_) {
		p = pop(hhead_, htail_);
		hqlen_--;
	} else if (qlen_) {
		p = pop(head_, tail_);
		qlen_--;
	} else {
		busy_ = false;
		return;
	}
	busy_ = true;
	stats_.tx_pkts++;
	stats_.tx_ip_bytes += p->ip_bytes();
	if (p->kind == PacketKind::kData)
		stats_.tx_data_ip_bytes += p->ip_bytes();
	SimTime done = q_.now() + serialisation(p);

	q_.at(done, this, kTxDone, 0);
	q_.at(done + cfg_.delay, to_, Node::kArrive, reinterpret_cast<uint64_t>(p));
}

void Port::fire(uint32_t kind, uint64_t)
{
	if (kind != kTxDone)
		return;
	account(q_.now());
	start_next();
}

}  // namespace eqdssim
