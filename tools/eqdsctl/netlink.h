// SPDX-License-Identifier: GPL-2.0 OR MIT
// RAII over libnl-3 generic netlink: a socket bound to one family, owned
// messages, and a request/reply exchange that reports kernel errors (with the
// extended ack message) as exceptions.
#ifndef EQDSCTL_NETLINK_H
#define EQDSCTL_NETLINK_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

struct nl_sock;
struct nl_msg;
struct nlmsghdr;

namespace eqdsctl {

// Failure inside libnl or the socket layer (not an answer from the kernel's
// family): connecting, sending, receiving, a timeout, a malformed stream.
class NetlinkError : public std::runtime_error {
public:
	NetlinkError(const std::string &what, int nl_error)
		: std::runtime_error(what), nl_error_(nl_error) {}
	int nl_error() const { return nl_error_; }	// libnl NLE_* code, positive

private:
	int nl_error_;
};

// The generic netlink family does not exist (module not loaded).
class FamilyNotFound : public std::runtime_error {
public:
	explicit FamilyNotFound(const std::string &family)
		: std::runtime_error("generic netlink family '" + family + "' not found"),
		  family_(family) {}
	const std::string &family() const { return family_; }

private:
	std::string family_;
};

// The kernel answered a request with an error (NLMSG_ERROR, error != 0).
class KernelError : public std::runtime_error {
public:
	KernelError(int err, std::string extack);
	int error() const { return err_; }			// positive errno
	const std::string &extack() const { return extack_; }	// may be empty

private:
	int err_;
	std::string extack_;
};

// Owns an nl_msg.
class Message {
public:
	Message();				// nlmsg_alloc(); throws std::bad_alloc
	explicit Message(nl_msg *msg) : msg_(msg) {}
	~Message();
	Message(Message &&o) noexcept : msg_(o.msg_) { o.msg_ = nullptr; }
	Message &operator=(Message &&o) noexcept;
	Message(const Message &) = delete;
	Message &operator=(const Message &) = delete;

	nl_msg *get() const { return msg_; }

private:
	nl_msg *msg_;
};

// A reply message: one netlink message (header included), copied out of the
// receive buffer. Its length has been checked against nlmsg_len.
using Reply = std::vector<uint8_t>;

// Owns an nl_sock connected to NETLINK_GENERIC, with extended acks enabled
// and the family resolved.
class Socket {
public:
	// Throws NetlinkError, or FamilyNotFound if the family is not registered.
	explicit Socket(const std::string &family);
	~Socket();
	Socket(const Socket &) = delete;
	Socket &operator=(const Socket &) = delete;

	int family_id() const { return family_id_; }

	// A request for cmd of this family (genl header filled in, version
	// EQDS_GENL_VERSION), with NLM_F_ACK always set plus extra flags.
	Message request(uint8_t cmd, int flags = 0) const;

	// Sends msg, then collects every reply message until the kernel's ack
	// (or NLMSG_DONE). Throws KernelError for an error ack, NetlinkError for
	// anything else. Warnings the kernel attaches to a successful ack are
	// returned in *warning when given.
	std::vector<Reply> transact(Message &msg, std::string *warning = nullptr);

	// As transact, but hands each reply to on_reply as it arrives instead
	// of collecting them: for dumps of any size. An exception thrown by
	// on_reply ends the exchange and is rethrown.
	void transact_each(Message &msg, const std::function<void(const Reply &)> &on_reply);

	// Joins the family's multicast group (throws NetlinkError if the
	// family has no such group), then passes every notification to
	// on_event until on_event returns false. A receive buffer overrun
	// (notifications lost) is reported through on_overrun and the wait
	// goes on.
	void listen(const std::string &group, const std::function<bool(const Reply &)> &on_event,
		    const std::function<void()> &on_overrun);

private:
	void resolve(const std::string &family);
	void exchange(Message &msg, std::vector<Reply> *replies,
		      const std::function<void(const Reply &)> *each, std::string *warning);

	nl_sock *sk_ = nullptr;
	std::string family_;
	int family_id_ = -1;
};

// Throws NetlinkError, naming both versions, unless the family was registered
// with the version of the attributes this eqdsctl was built with.
void check_family_version(unsigned int registered);

// The NLMSGERR_ATTR_MSG string of an NLMSG_ERROR message of len bytes (the
// whole message, header included), or "" if it carries none or is
// malformed. Handles requests echoed in full or capped (NLM_F_CAPPED).
std::string extack_message(const nlmsghdr *nlh, size_t len);

} // namespace eqdsctl

#endif
