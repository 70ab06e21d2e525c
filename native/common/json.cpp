#include "json.h"

#include <math.h>
#include <stdio.h>

namespace ps::json {

std::string escape(const std::string &s)
{
    std::string o;
    o.reserve(s.size());
    for (unsigned char c : s) {
        switch (c) {
        case '"':
            o += "\\\"";
            break;
        case '\\':
            o += "\\\\";
            break;
        case '\n':
            o += "\\n";
            break;
        case '\r':
            o += "\\r";
            break;
        case '\t':
            o += "\\t";
            break;
        default:
            if (c < 0x20 || c >= 0x7f) {
                char b[8];
                snprintf(b, sizeof b, "\\u%04x", c);
                o += b;
            } else {
                o += (char)c;
            }
        }
    }
    return o;
}

std::string number(double v, const char *format)
{
    if (!isfinite(v))
        return "null";
    char b[64];
    snprintf(b, sizeof b, format, v);
    return b;
}

void Writer::before_value()
{
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (!has_member_.empty()) {
        if (has_member_.back())
            out_ += ',';
        has_member_.back() = true;
    }
}

Writer &Writer::begin_object()
{
    before_value();
    out_ += '{';
    has_member_.push_back(false);
    return *this;
}

Writer &Writer::end_object()
{
    out_ += '}';
    has_member_.pop_back();
    return *this;
}

Writer &Writer::begin_array()
{
    before_value();
    out_ += '[';
    has_member_.push_back(false);
    return *this;
}

Writer &Writer::end_array()
{
    out_ += ']';
    has_member_.pop_back();
    return *this;
}

Writer &Writer::key(const std::string &name)
{
    before_value();
    out_ += '"';
    out_ += escape(name);
    out_ += "\":";
    after_key_ = true;
    return *this;
}

Writer &Writer::string(const std::string &v)
{
    before_value();
    out_ += '"';
    out_ += escape(v);
    out_ += '"';
    return *this;
}

Writer &Writer::boolean(bool v) { return raw(v ? "true" : "false"); }

Writer &Writer::null() { return raw("null"); }

Writer &Writer::number(double v, const char *format) { return raw(json::number(v, format)); }

Writer &Writer::raw(const std::string &json)
{
    before_value();
    out_ += json;
    return *this;
}

std::string error_object(const std::string &code, const std::string &message)
{
    Writer w;
    w.begin_object().key("error").begin_object();
    w.field("code", code).field("message", message).end_object().end_object();
    return w.text();
}

} // namespace ps::json
