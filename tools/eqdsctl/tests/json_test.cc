// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "json.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

using namespace eqdsctl;

TEST(JsonQuote, PlainAndSpecial)
{
	EXPECT_EQ(json_quote(""), "\"\"");
	EXPECT_EQ(json_quote("abc 0.1.0"), "\"abc 0.1.0\"");
	EXPECT_EQ(json_quote("a\"b"), "\"a\\\"b\"");
	EXPECT_EQ(json_quote("a\\b"), "\"a\\\\b\"");
	EXPECT_EQ(json_quote("/"), "\"/\"");
	EXPECT_EQ(json_quote("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
}

TEST(JsonQuote, ControlCharactersAsUnicodeEscapes)
{
	EXPECT_EQ(json_quote(std::string("\0", 1)), "\"\\u0000\"");
	EXPECT_EQ(json_quote("\x01\x1f"), "\"\\u0001\\u001f\"");
	EXPECT_EQ(json_quote("\x7f"), "\"\\u007f\"");
	EXPECT_EQ(json_quote(std::string("a\0b", 3)), "\"a\\u0000b\"");
}

TEST(JsonQuote, ValidUtf8PassesThrough)
{
	EXPECT_EQ(json_quote("caf\xc3\xa9"), "\"caf\xc3\xa9\"");		// é
	EXPECT_EQ(json_quote("\xe2\x82\xac"), "\"\xe2\x82\xac\"");		// €
	EXPECT_EQ(json_quote("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");	// U+1F600
	EXPECT_EQ(json_quote("\xf4\x8f\xbf\xbf"), "\"\xf4\x8f\xbf\xbf\"");	// U+10FFFF
}

TEST(JsonQuote, InvalidUtf8BecomesReplacementCharacters)
{
	EXPECT_EQ(json_quote("\xff"), "\"\\ufffd\"");
	EXPECT_EQ(json_quote("a\x80z"), "\"a\\ufffdz\"");		// lone continuation
	EXPECT_EQ(json_quote("\xc3"), "\"\\ufffd\"");			// truncated at the end
	EXPECT_EQ(json_quote("\xc3(x"), "\"\\ufffd(x\"");		// bad continuation
	EXPECT_EQ(json_quote("\xc0\xaf"), "\"\\ufffd\\ufffd\"");		// overlong '/'
	EXPECT_EQ(json_quote("\xe0\x80\xaf"), "\"\\ufffd\\ufffd\\ufffd\"");	// overlong
	EXPECT_EQ(json_quote("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");	// surrogate D800
	EXPECT_EQ(json_quote("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");	// > U+10FFFF
	EXPECT_EQ(json_quote("\xe2\x82"), "\"\\ufffd\\ufffd\"");
}

TEST(JsonWriter, CompactObject)
{
	std::ostringstream out;
	JsonWriter w(out);
	w.begin_object();
	w.key("s");
	w.string("x\"y");
	w.key("n");
	w.u64(18446744073709551615ull);
	w.key("i");
	w.s64(-5);
	w.key("b");
	w.boolean(false);
	w.key("z");
	w.null();
	w.key("a");
	w.begin_array();
	w.u64(1);
	w.string("two");
	w.begin_object();
	w.end_object();
	w.begin_array();
	w.end_array();
	w.end_array();
	w.end_object();
	EXPECT_TRUE(w.done());
	EXPECT_EQ(out.str(), "{\"s\":\"x\\\"y\",\"n\":18446744073709551615,\"i\":-5,\"b\":false,"
			     "\"z\":null,\"a\":[1,\"two\",{},[]]}");
}

TEST(JsonWriter, Pretty)
{
	std::ostringstream out;
	JsonWriter w(out, true);
	w.begin_object();
	w.key("a");
	w.begin_array();
	w.u64(1);
	w.u64(2);
	w.end_array();
	w.key("e");
	w.begin_array();
	w.end_array();
	w.key("o");
	w.begin_object();
	w.key("k");
	w.boolean(true);
	w.end_object();
	w.end_object();
	EXPECT_EQ(out.str(), "{\n"
			     "  \"a\": [\n"
			     "    1,\n"
			     "    2\n"
			     "  ],\n"
			     "  \"e\": [],\n"
			     "  \"o\": {\n"
			     "    \"k\": true\n"
			     "  }\n"
			     "}");
}

TEST(JsonWriter, KeysAreEscaped)
{
	std::ostringstream out;
	JsonWriter w(out);
	w.begin_object();
	w.key("a\nb");
	w.u64(0);
	w.end_object();
	EXPECT_EQ(out.str(), "{\"a\\nb\":0}");
}

TEST(JsonWriter, MisuseThrows)
{
	std::ostringstream out;
	{
		JsonWriter w(out);
		w.begin_object();
		EXPECT_THROW(w.u64(1), std::logic_error);	// value without key
		EXPECT_THROW(w.end_array(), std::logic_error);
		w.key("k");
		EXPECT_THROW(w.key("k2"), std::logic_error);	// two keys
		EXPECT_THROW(w.end_object(), std::logic_error);	// key without value
	}
	{
		JsonWriter w(out);
		EXPECT_THROW(w.key("k"), std::logic_error);	// key at top level
		w.u64(1);
		EXPECT_TRUE(w.done());
		EXPECT_THROW(w.u64(2), std::logic_error);	// second top-level value
	}
	{
		JsonWriter w(out);
		w.begin_array();
		EXPECT_THROW(w.key("k"), std::logic_error);	// key in an array
		EXPECT_FALSE(w.done());
	}
}
