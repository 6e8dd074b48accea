// SPDX-License-Identifier: GPL-2.0
#include "credit_audit.h"

#include "eqds_receiver.h"
#include "eqds_sender.h"
#include "seq.h"

namespace eqdssim {

void CreditAudit::fail(const SenderTunnel &tx, const std::string &what)
{
	if (!violations_++)
		first_ = "tunnel to " + std::to_string(tx.peer()) + ", epoch " +
			 std::to_string(tx.tx().epoch) + ": " + what;
}

void CreditAudit::check(const SenderTunnel &tx, const ReceiverTunnel *rx, uint32_t quantum)
{
	const struct eqds_credit &c = tx.tx().credit;
	const CreditLedger &l = tx.ledger();

	checks_++;
	if (c.credit > c.window)
		fail(tx, "credit " + std::to_string(c.credit) + " above window");
	if (c.debt > c.overdraft || (c.debt && c.credit))
		fail(tx, "debt " + std::to_string(c.debt) + " beyond the overdraft or beside credit");
	if (l.charged + c.credit != l.initial + l.gained + c.debt)
		fail(tx, "charged " + std::to_string(l.charged) + " + held " +
			 std::to_string(c.credit) + " != granted " +
			 std::to_string(l.initial + l.gained) + " + debt " + std::to_string(c.debt));
	if (l.gained + c.refused_bytes != (uint64_t)c.pull_hi * quantum)
		fail(tx, "gained + refused != pull_hi * quantum");
	if (rx && rx->rx().epoch == tx.tx().epoch) {
		if (eqds_seq_after(c.pull_hi, rx->rx().pulls.pull_no))
			fail(tx, "sender saw a pull the receiver never sent");
		if (rx->epoch_rx_bytes() > l.charged)
			fail(tx, "receiver got more data bytes than were paid for");
	}
}

}  // namespace eqdssim
