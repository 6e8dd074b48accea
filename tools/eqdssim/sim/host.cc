// SPDX-License-Identifier: GPL-2.0
#include "host.h"


namespace eqdssim {

namespace {
PacketKind kind_of(const struct eqds_pkt &hdr)
{
	if (hdr.type == EQDS_TYPE_DATA) {
		if (hdr.flags & EQDS_F_FIN)
			return PacketKind::kFin;
		return (hdr.flags & EQDS_F_RTS) ? PacketKind::kRts : PacketKind::kData;
	}
	if (hdr.flags & EQDS_F_RST)
		return PacketKind::kRst;
	if (hdr.flags & EQDS_F_PULL)
		return PacketKind::kPull;
	if (hdr.flags & EQDS_F_NACK)
		return PacketKind::kNack;
	return PacketKind::kAck;
}
}  // namespace

Host::Host(uint32_t id, HostEnv &env, uint64_t seed)
	: Node(id), env_(env), rng_(seed * 7919 + id), pacer_(*this)
{
	clock_offset_us_ = rng_() % 1000000000ull;
}

uint32_t Host::epoch_clock() const
{
	return (uint32_t)(now() / 1000 + clock_offset_us_);
}

uint64_t Host::link_rate_bps() const
{
	Port *nic = env_.net->host_nic(id());

	return nic ? nic->config().rate_bps : 10000000000ull;
}

SenderTunnel &Host::sender(uint32_t dst)
{
	auto &slot = senders_[dst];

	if (!slot)
		slot = std::make_unique<SenderTunnel>(*this, dst);
	return *slot;
}

SenderTunnel *Host::find_sender(uint32_t dst) const
{
	auto it = senders_.find(dst);

	return it == senders_.end() ? nullptr : it->second.get();
}

ReceiverTunnel *Host::find_receiver(uint32_t src) const
{
	auto it = receivers_.find(src);

	return it == receivers_.end() ? nullptr : it->second.get();
}

void Host::forget_receive_state()
{
	receivers_.clear();
}

void Host::forget_send_state()
{
	senders_.clear();
}

void Host::send_packet(uint32_t dst, const struct eqds_pkt &hdr, const AppData *app)
{
	PacketKind kind = kind_of(hdr);

	if (env_.faults && env_.faults->drop(kind))
		return;
	Packet *p = env_.net->pool().get();
	int n = eqds_encode(p->hdr, sizeof(p->hdr), &hdr);

	if (n < 0) {
		// The glue never builds an invalid header; if it did, it would be lost.
		counters_.decode_errors++;
		env_.net->pool().put(p);
		return;
	}
	p->hlen = (uint16_t)n;
	p->payload_len = hdr.payload_len;
	p->src = id();
	p->dst = dst;
	p->path_id = hdr.path_id;
	p->kind = kind;
	if (app)
		p->app = *app;
	env_.net->host_nic(id())->send(p);
}

void Host::send_rst(uint32_t peer, uint32_t epoch)
{
	struct eqds_pkt rst;

	eqds_rxq_rst_pkt(epoch, &rst);
	counters_.rsts_sent++;
	send_packet(peer, rst, nullptr);
}

// socket.c's decode and dispatch, then rx_tunnel.c's tunnel lookup.
void Host::receive(Packet *p)
{
	struct eqds_pkt pkt;
	int err = eqds_decode(p->hdr, p->hlen + p->payload_len, &pkt);

	if (err < 0) {
		if (p->trimmed)
			counters_.drop_trimmed++;
		else
			counters_.decode_errors++;
	} else if (pkt.type == EQDS_TYPE_CTRL) {
		SenderTunnel *t = find_sender(p->src);

		if (t)
			t->ctrl_rcv(pkt);
		else
			counters_.drop_stale++;
	} else {
		data_rcv(p, pkt);
	}
	env_.net->pool().put(p);
}

void Host::data_rcv(Packet *p, const struct eqds_pkt &pkt)
{
	bool syn = pkt.flags & EQDS_F_SYN;
	ReceiverTunnel *t = find_receiver(p->src);

	// rx_tunnel.c's fin_rcv(): the sender disowns an epoch it has left.
	if (pkt.flags & EQDS_F_FIN) {
		if (t && t->fin_rcv(pkt.epoch))
			counters_.fins_rcvd++;
		else
			counters_.drop_stale++;
		return;
	}
	if (!t && !syn) {
		send_rst(p->src, pkt.epoch);
		counters_.drop_unknown++;
		return;
	}
	if (!t) {
		auto &slot = receivers_[p->src];

		slot = std::make_unique<ReceiverTunnel>(*this, p->src);
		t = slot.get();
	}
	t->data_rcv(pkt, p->app, p->ip_bytes(), p->ce);
}

}  // namespace eqdssim
