// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "netlink.h"

#include <linux/eqds.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <cerrno>
#include <cstring>
#include <cstddef>
#include <exception>
#include <memory>
#include <new>

namespace eqdsctl {

namespace {

// How long to wait for the kernel's answer before giving up.
constexpr int kReplyTimeoutSec = 10;

std::string nl_error_string(int err)
{
	return nl_geterror(err < 0 ? err : -err);
}

// What the receive callbacks collect. Callbacks never throw through libnl
// (C code): a failure is stored here and rethrown after nl_recvmsgs().
struct Exchange {
	std::vector<Reply> replies;
	const std::function<void(const Reply &)> *each = nullptr;
	bool done = false;
	int error = 0;		// positive errno from an error ack
	std::string extack;
	std::string warning;
	std::exception_ptr failure;
};

int on_valid(nl_msg *msg, void *arg)
{
	auto *ex = static_cast<Exchange *>(arg);
	const nlmsghdr *nlh = nlmsg_hdr(msg);

	try {
		const auto *p = reinterpret_cast<const uint8_t *>(nlh);
		if (ex->each)
			(*ex->each)(Reply(p, p + nlh->nlmsg_len));
		else
			ex->replies.emplace_back(p, p + nlh->nlmsg_len);
	} catch (...) {
		ex->failure = std::current_exception();
		ex->done = true;
		return NL_STOP;
	}
	return NL_OK;
}

int on_ack(nl_msg *msg, void *arg)
{
	auto *ex = static_cast<Exchange *>(arg);
	const nlmsghdr *nlh = nlmsg_hdr(msg);

	try {
		ex->warning = extack_message(nlh, nlh->nlmsg_len);
	} catch (...) {
		ex->failure = std::current_exception();
	}
	ex->done = true;
	return NL_STOP;
}

// NLMSG_DONE ends a dump. A dump that failed carries the negative errno
// after the header (and, like an error ack, may carry an extack message):
// libnl does not look, so we do.
int on_finish(nl_msg *msg, void *arg)
{
	auto *ex = static_cast<Exchange *>(arg);
	const nlmsghdr *nlh = nlmsg_hdr(msg);
	int32_t err = 0;

	if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(err))
		std::memcpy(&err, reinterpret_cast<const uint8_t *>(nlh) + NLMSG_HDRLEN, sizeof(err));
	if (err < 0)
		ex->error = -err;
	ex->done = true;
	return NL_STOP;
}

int on_error(sockaddr_nl *, nlmsgerr *err, void *arg)
{
	auto *ex = static_cast<Exchange *>(arg);
	// libnl hands us nlmsg_data() of the error message, whose total length
	// it has checked against the receive buffer (nlmsg_ok) and found to be
	// at least NLMSG_HDRLEN + sizeof(*err).
	const auto *nlh = reinterpret_cast<const nlmsghdr *>(
		reinterpret_cast<const char *>(err) - NLMSG_HDRLEN);

	ex->error = err->error < 0 ? -err->error : err->error;
	try {
		ex->extack = extack_message(nlh, nlh->nlmsg_len);
	} catch (...) {
		ex->failure = std::current_exception();
	}
	ex->done = true;
	return NL_STOP;
}

struct CbDeleter {
	void operator()(nl_cb *cb) const { nl_cb_put(cb); }
};

} // namespace

KernelError::KernelError(int err, std::string extack)
	: std::runtime_error(std::string(std::strerror(err)) +
			     (extack.empty() ? "" : ": " + extack)),
	  err_(err), extack_(std::move(extack))
{
}

Message::Message() : msg_(nlmsg_alloc())
{
	if (!msg_)
		throw std::bad_alloc();
}

Message::~Message()
{
	if (msg_)
		nlmsg_free(msg_);
}

Message &Message::operator=(Message &&o) noexcept
{
	if (this != &o) {
		if (msg_)
			nlmsg_free(msg_);
		msg_ = o.msg_;
		o.msg_ = nullptr;
	}
	return *this;
}

Socket::Socket(const std::string &family) : family_(family)
{
	sk_ = nl_socket_alloc();
	if (!sk_)
		throw std::bad_alloc();
	try {
		int err = genl_connect(sk_);
		if (err < 0)
			throw NetlinkError("cannot open a generic netlink socket: " +
					   nl_error_string(err), -err);

		// Best effort: without them errors just come without a message.
		int fd = nl_socket_get_fd(sk_), one = 1;
		setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
		setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
		timeval tv{kReplyTimeoutSec, 0};
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));

		resolve(family);
	} catch (...) {
		nl_socket_free(sk_);
		throw;
	}
}

// The family's id, and its version: one that differs numbers its attributes
// otherwise (version 2 nested the classes), and would read a request's
// attributes as others.
void Socket::resolve(const std::string &family)
{
	struct nl_cache *cache = nullptr;
	struct genl_family *f;
	int err = genl_ctrl_alloc_cache(sk_, &cache);

	if (err < 0)
		throw NetlinkError("cannot list generic netlink families: " + nl_error_string(err),
				   -err);
	f = genl_ctrl_search_by_name(cache, family.c_str());
	nl_cache_free(cache);
	if (!f)
		throw FamilyNotFound(family);
	family_id_ = genl_family_get_id(f);
	unsigned int version = genl_family_get_version(f);

	genl_family_put(f);
	check_family_version(version);
}

void check_family_version(unsigned int registered)
{
	if (registered != EQDS_GENL_VERSION)
		throw NetlinkError("the loaded eqds module speaks netlink version " +
				   std::to_string(registered) + ", this eqdsctl version " +
				   std::to_string(EQDS_GENL_VERSION) +
				   ": use the eqdsctl built with the module (or reload the module)",
				   NLE_PROTO_MISMATCH);
}

Socket::~Socket()
{
	nl_socket_free(sk_);
}

Message Socket::request(uint8_t cmd, int flags) const
{
	Message msg;

	if (!genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family_id_, 0,
			 flags | NLM_F_ACK, cmd, EQDS_GENL_VERSION))
		throw std::bad_alloc();
	return msg;
}

std::vector<Reply> Socket::transact(Message &msg, std::string *warning)
{
	std::vector<Reply> replies;

	exchange(msg, &replies, nullptr, warning);
	return replies;
}

void Socket::transact_each(Message &msg, const std::function<void(const Reply &)> &on_reply)
{
	exchange(msg, nullptr, &on_reply, nullptr);
}

void Socket::exchange(Message &msg, std::vector<Reply> *replies,
		      const std::function<void(const Reply &)> *each, std::string *warning)
{
	std::unique_ptr<nl_cb, CbDeleter> cb(nl_cb_alloc(NL_CB_DEFAULT));
	Exchange ex;

	ex.each = each;

	if (!cb)
		throw std::bad_alloc();
	nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, on_valid, &ex);
	nl_cb_set(cb.get(), NL_CB_ACK, NL_CB_CUSTOM, on_ack, &ex);
	nl_cb_set(cb.get(), NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &ex);
	nl_cb_err(cb.get(), NL_CB_CUSTOM, on_error, &ex);

	int err = nl_send_auto(sk_, msg.get());
	if (err < 0)
		throw NetlinkError("cannot send the request: " + nl_error_string(err), -err);

	while (!ex.done) {
		err = nl_recvmsgs(sk_, cb.get());
		if (ex.failure)
			std::rethrow_exception(ex.failure);
		if (ex.error)
			throw KernelError(ex.error, ex.extack);
		if (err == -NLE_AGAIN)
			throw NetlinkError("no answer from the kernel after " +
					   std::to_string(kReplyTimeoutSec) + " s", NLE_AGAIN);
		if (err == -NLE_DUMP_INTR)
			throw NetlinkError("the kernel's answer changed while it was being sent; "
					   "run the command again", NLE_DUMP_INTR);
		if (err < 0)
			throw NetlinkError("cannot receive the reply: " + nl_error_string(err), -err);
	}
	if (warning)
		*warning = ex.warning;
	if (replies)
		*replies = std::move(ex.replies);
}

namespace {

struct Listener {
	const std::function<bool(const Reply &)> *on_event = nullptr;
	bool stop = false;
	std::exception_ptr failure;
};

int accept_any_seq(nl_msg *, void *)
{
	return NL_OK;
}

int on_event(nl_msg *msg, void *arg)
{
	auto *l = static_cast<Listener *>(arg);
	const nlmsghdr *nlh = nlmsg_hdr(msg);

	try {
		const auto *p = reinterpret_cast<const uint8_t *>(nlh);
		if (!(*l->on_event)(Reply(p, p + nlh->nlmsg_len)))
			l->stop = true;
	} catch (...) {
		l->failure = std::current_exception();
		l->stop = true;
	}
	return l->stop ? NL_STOP : NL_OK;
}

} // namespace

void Socket::listen(const std::string &group, const std::function<bool(const Reply &)> &on_ev,
		    const std::function<void()> &on_overrun)
{
	// A burst of tunnel events (a flood of new peers) must not overrun it.
	constexpr int kRcvBuf = 4 << 20;
	int grp = genl_ctrl_resolve_grp(sk_, family_.c_str(), group.c_str());

	if (grp < 0)
		throw NetlinkError("generic netlink family '" + family_ + "' has no multicast group '" +
					   group + "' (an older eqds module?)", -grp);
	int err = nl_socket_add_membership(sk_, grp);
	// The kernel's refusal (CAP_NET_ADMIN): said as for any other request.
	if (err == -NLE_PERM)
		throw KernelError(EPERM, "");
	if (err < 0)
		throw NetlinkError("cannot join multicast group '" + group + "': " +
					   nl_error_string(err), -err);
	// SO_RCVBUF is capped by net.core.rmem_max (about 400 events by
	// default); a listener with CAP_NET_ADMIN may go past it, as
	// systemd-networkd does.
	if (setsockopt(nl_socket_get_fd(sk_), SOL_SOCKET, SO_RCVBUFFORCE, &kRcvBuf,
		       sizeof(kRcvBuf)) < 0)
		nl_socket_set_buffer_size(sk_, kRcvBuf, 0);

	std::unique_ptr<nl_cb, CbDeleter> cb(nl_cb_alloc(NL_CB_DEFAULT));
	if (!cb)
		throw std::bad_alloc();
	Listener l;

	l.on_event = &on_ev;
	nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, on_event, &l);
	// Notifications carry sequence number 0, not a request's.
	nl_cb_set(cb.get(), NL_CB_SEQ_CHECK, NL_CB_CUSTOM, accept_any_seq, nullptr);
	while (!l.stop) {
		err = nl_recvmsgs(sk_, cb.get());
		if (l.failure)
			std::rethrow_exception(l.failure);
		if (err == -NLE_AGAIN || err == -NLE_INTR)
			continue;	// the receive timeout: keep waiting
		if (err == -NLE_NOMEM) {
			on_overrun();	// ENOBUFS: the kernel dropped notifications
			continue;
		}
		if (err < 0)
			throw NetlinkError("cannot receive notifications: " + nl_error_string(err), -err);
	}
}

std::string extack_message(const nlmsghdr *nlh, size_t len)
{
	if (len < NLMSG_HDRLEN + sizeof(nlmsgerr))
		return "";
	size_t total = nlh->nlmsg_len;
	if (total > len || total < NLMSG_HDRLEN + sizeof(nlmsgerr))
		return "";
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return "";

	// Payload: struct nlmsgerr (which ends with the request's header), the
	// rest of the request unless capped, padded; then the TLVs.
	const auto *base = reinterpret_cast<const uint8_t *>(nlh);
	nlmsghdr orig;
	std::memcpy(&orig, base + NLMSG_HDRLEN + offsetof(nlmsgerr, msg), sizeof(orig));
	size_t payload = sizeof(nlmsgerr);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		if (orig.nlmsg_len < NLMSG_HDRLEN || orig.nlmsg_len > total)
			return "";
		payload += orig.nlmsg_len - NLMSG_HDRLEN;
	}
	size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(payload);
	if (off >= total)
		return "";

	size_t rem = total - off;
	const uint8_t *p = base + off;
	while (rem >= NLA_HDRLEN) {
		nlattr nla;
		std::memcpy(&nla, p, sizeof(nla));
		if (nla.nla_len < NLA_HDRLEN || nla.nla_len > rem)
			break;
		if ((nla.nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG) {
			const char *s = reinterpret_cast<const char *>(p + NLA_HDRLEN);
			size_t n = nla.nla_len - NLA_HDRLEN;
			return std::string(s, strnlen(s, n));
		}
		size_t step = NLA_ALIGN(nla.nla_len);
		if (step >= rem)
			break;
		p += step;
		rem -= step;
	}
	return "";
}

} // namespace eqdsctl
