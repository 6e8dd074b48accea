// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "json.h"

#include <stdexcept>

namespace eqdsctl {

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if invalid
// (overlong forms, surrogates and code points above U+10FFFF are invalid).
size_t utf8_seq_len(std::string_view s, size_t i)
{
	auto at = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
	unsigned char c = at(i);
	size_t n;
	unsigned char lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s.size() - i < n)
		return 0;
	if (at(i + 1) < lo || at(i + 1) > hi)
		return 0;
	for (size_t k = 2; k < n; k++)
		if (at(i + k) < 0x80 || at(i + k) > 0xbf)
			return 0;
	return n;
}

} // namespace

std::string json_quote(std::string_view s)
{
	static const char hex[] = "0123456789abcdef";
	std::string out;

	out.reserve(s.size() + 2);
	out += '"';
	for (size_t i = 0; i < s.size();) {
		unsigned char c = static_cast<unsigned char>(s[i]);
		switch (c) {
		case '"':
			out += "\\\"";
			break;
		case '\\':
			out += "\\\\";
			break;
		case '\b':
			out += "\\b";
			break;
		case '\f':
			out += "\\f";
			break;
		case '\n':
			out += "\\n";
			break;
		case '\r':
			out += "\\r";
			break;
		case '\t':
			out += "\\t";
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				out += "\\u00";
				out += hex[c >> 4];
				out += hex[c & 0xf];
			} else if (c < 0x80) {
				out += static_cast<char>(c);
			} else {
				size_t n = utf8_seq_len(s, i);
				if (n == 0) {
					out += "\\ufffd";
					i++;
					continue;
				}
				out.append(s.substr(i, n));
				i += n;
				continue;
			}
		}
		i++;
	}
	out += '"';
	return out;
}

JsonWriter::JsonWriter(std::ostream &out, bool pretty) : out_(out), pretty_(pretty) {}

void JsonWriter::newline()
{
	if (!pretty_)
		return;
	out_ << '\n';
	for (size_t i = 0; i < stack_.size(); i++)
		out_ << "  ";
}

void JsonWriter::before_value()
{
	if (stack_.empty()) {
		if (wrote_top_)
			throw std::logic_error("json: second top-level value");
		wrote_top_ = true;
		return;
	}
	Level &l = stack_.back();
	if (l.ctx == Ctx::Object) {
		if (!l.have_key)
			throw std::logic_error("json: value without a key");
		l.have_key = false;
		return;
	}
	if (!l.empty)
		out_ << ',';
	l.empty = false;
	newline();
}

void JsonWriter::key(std::string_view k)
{
	if (stack_.empty() || stack_.back().ctx != Ctx::Object || stack_.back().have_key)
		throw std::logic_error("json: key outside an object");
	Level &l = stack_.back();
	if (!l.empty)
		out_ << ',';
	l.empty = false;
	l.have_key = true;
	newline();
	out_ << json_quote(k) << (pretty_ ? ": " : ":");
}

void JsonWriter::begin_object()
{
	before_value();
	out_ << '{';
	stack_.push_back({Ctx::Object});
}

void JsonWriter::begin_array()
{
	before_value();
	out_ << '[';
	stack_.push_back({Ctx::Array});
}

void JsonWriter::end(Ctx ctx)
{
	if (stack_.empty() || stack_.back().ctx != ctx || stack_.back().have_key)
		throw std::logic_error("json: unbalanced end");
	bool empty = stack_.back().empty;
	stack_.pop_back();
	if (!empty)
		newline();
	out_ << (ctx == Ctx::Object ? '}' : ']');
}

void JsonWriter::end_object() { end(Ctx::Object); }
void JsonWriter::end_array() { end(Ctx::Array); }

void JsonWriter::string(std::string_view s)
{
	before_value();
	out_ << json_quote(s);
}

void JsonWriter::u64(uint64_t v)
{
	before_value();
	out_ << v;
}

void JsonWriter::s64(int64_t v)
{
	before_value();
	out_ << v;
}

void JsonWriter::boolean(bool v)
{
	before_value();
	out_ << (v ? "true" : "false");
}

void JsonWriter::null()
{
	before_value();
	out_ << "null";
}

} // namespace eqdsctl
