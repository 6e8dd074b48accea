// SPDX-License-Identifier: GPL-2.0
#include "packet.h"

namespace eqdssim {

namespace {
constexpr size_t kChunk = 4096;
}

const char *packet_kind_name(PacketKind k)
{
	switch (k) {
	case PacketKind::kData: return "data";
	case PacketKind::kRts: return "rts";
	case PacketKind::kAck: return "ack";
	case PacketKind::kNack: return "nack";
	case PacketKind::kPull: return "pull";
	case PacketKind::kRst: return "rst";
	case PacketKind::kFin: return "fin";
	default: return "?";
	}
}

PacketPool::~PacketPool()
{
	for (Packet *c : chunks_)
		delete[] c;
}

Packet *PacketPool::get()
{
	if (!free_) {
		Packet *c = new Packet[kChunk];

		chunks_.push_back(c);
		allocated_ += kChunk;
		for (size_t i = 0; i < kChunk; i++) {
			c[i].next = free_;
			free_ = &c[i];
		}
	}
	Packet *p = free_;

	free_ = p->next;
	*p = Packet();
	in_use_++;
	return p;
}

void PacketPool::put(Packet *p)
{
	p->next = free_;
	free_ = p;
	in_use_--;
}

}  // namespace eqdssim
