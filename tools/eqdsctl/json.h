// SPDX-License-Identifier: GPL-2.0 OR MIT
// A tiny streaming JSON writer: objects, arrays, strings, integers, null.
#ifndef EQDSCTL_JSON_H
#define EQDSCTL_JSON_H

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace eqdsctl {

// s as a JSON string literal, quotes included. '"', '\\' and control
// characters are escaped; valid UTF-8 passes through; each byte of an invalid
// UTF-8 sequence becomes U+FFFD, so the result is always valid JSON and UTF-8.
std::string json_quote(std::string_view s);

// Writes one JSON value to a stream. Compact by default; pretty indents by
// two spaces per level. Misuse (a value where a key is due, unbalanced
// end_*) throws std::logic_error: a bug, not bad input.
class JsonWriter {
public:
	explicit JsonWriter(std::ostream &out, bool pretty = false);

	void begin_object();
	void end_object();
	void begin_array();
	void end_array();
	void key(std::string_view k);	// inside an object, before each value

	// Distinct names rather than overloads: no surprise conversions.
	void string(std::string_view s);
	void u64(uint64_t v);
	void s64(int64_t v);
	void boolean(bool v);
	void null();

	// True once one complete top-level value has been written.
	bool done() const { return stack_.empty() && wrote_top_; }

private:
	enum class Ctx { Object, Array };
	struct Level {
		Ctx ctx;
		bool empty = true;
		bool have_key = false;
	};

	void before_value();
	void newline();
	void end(Ctx ctx);

	std::ostream &out_;
	bool pretty_;
	bool wrote_top_ = false;
	std::vector<Level> stack_;
};

} // namespace eqdsctl

#endif
