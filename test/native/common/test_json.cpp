// native/common/json.h: every string escaped, members and elements separated at every depth,
// numbers by their format, null for what JSON cannot hold.
#include <math.h>
#include <stdint.h>

#include "harness.h"
#include "json.h"

using ps::json::Writer;

TEST(json_escape_quotes_backslashes_and_control_characters)
{
    CHECK_EQ(ps::json::escape("a\"b\\c\nd\re\tf"), std::string("a\\\"b\\\\c\\nd\\re\\tf"));
    CHECK_EQ(ps::json::escape(std::string("\x01\x1f\x7f", 3)),
             std::string("\\u0001\\u001f\\u007f"));
    // bytes above ASCII, valid UTF-8 or not, become escapes: the line stays ASCII and valid JSON
    CHECK_EQ(ps::json::escape("\xc3\xa9\xff"), std::string("\\u00c3\\u00a9\\u00ff"));
    CHECK_EQ(ps::json::escape(std::string("a\0b", 3)), std::string("a\\u0000b"));
    CHECK_EQ(ps::json::escape("plain / text"), std::string("plain / text"));
}

TEST(json_writer_escapes_every_string_it_writes)
{
    Writer w;
    w.begin_object().field("message", "unknown argument --x\"y\\").field("k\"ey", "v").end_object();
    CHECK_EQ(w.text(),
             std::string("{\"message\":\"unknown argument --x\\\"y\\\\\",\"k\\\"ey\":\"v\"}"));
    CHECK_EQ(ps::json::error_object("PS_X", "bad \"thing\"\n"),
             std::string("{\"error\":{\"code\":\"PS_X\",\"message\":\"bad \\\"thing\\\"\\n\"}}"));
}

TEST(json_writer_nests_objects_and_arrays)
{
    Writer w;
    w.begin_object().field("a", 1).key("b").begin_array();
    w.integer(1).begin_object().end_object().begin_array().end_array().string("s");
    w.begin_object().field("c", true).key("d").null().end_object();
    w.end_array().key("e").begin_object().field("f", false).end_object().end_object();
    CHECK_EQ(w.text(),
             std::string("{\"a\":1,\"b\":[1,{},[],\"s\",{\"c\":true,\"d\":null}],"
                         "\"e\":{\"f\":false}}"));
    Writer empty;
    CHECK_EQ(empty.begin_array().end_array().text(), std::string("[]"));
    Writer raw;
    raw.begin_object().field_raw("x", "{\"y\":2}").field("z", 3).end_object();
    CHECK_EQ(raw.text(), std::string("{\"x\":{\"y\":2},\"z\":3}"));
}

TEST(json_writer_numbers)
{
    Writer w;
    w.begin_array().integer(UINT64_MAX).integer(INT64_MIN).integer((uint32_t)7).integer(-1);
    w.number(0.1).number(1e21).number(12.5, "%.3f").number(NAN).number(INFINITY).number(0.0);
    w.end_array();
    CHECK_EQ(w.text(),
             std::string("[18446744073709551615,-9223372036854775808,7,-1,0.1,1e+21,"
                         "12.500,null,null,0]"));
    CHECK_EQ(ps::json::number(14212507562.4, "%.0f"), std::string("14212507562"));
}
