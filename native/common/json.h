// One JSON writer for the native programs (the twin's events, pcie-scope-gpu, pcie-scope-model):
// every string it writes is escaped, so a message or a path from outside stays one valid line.
#ifndef PCIE_SCOPE_COMMON_JSON_H
#define PCIE_SCOPE_COMMON_JSON_H

#include <stdint.h>

#include <string>
#include <type_traits>
#include <vector>

namespace ps::json {

// `s` as the inside of a JSON string: quote, backslash, \n \r \t, every other control character
// and every byte from 0x7f as \u00XX (the line stays ASCII; bad UTF-8 stays valid JSON).
std::string escape(const std::string &s);
// `v` by a printf format ("%.6g" by default); null when not finite (JSON has no NaN).
std::string number(double v, const char *format = "%.6g");

// Builds one compact JSON value: objects and arrays nest, members are separated by the writer.
//   Writer w; w.begin_object().field("id", 3).field("name", s).end_object(); w.text()
class Writer {
public:
    Writer &begin_object();
    Writer &end_object();
    Writer &begin_array();
    Writer &end_array();
    // the next value's member name (inside an object)
    Writer &key(const std::string &name);

    Writer &string(const std::string &v);
    Writer &boolean(bool v);
    Writer &null();
    Writer &number(double v, const char *format = "%.6g");
    template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
    Writer &integer(T v)
    {
        return raw(std::to_string(v));
    }
    // an already-written JSON value (another Writer's text)
    Writer &raw(const std::string &json);

    Writer &field(const std::string &name, const std::string &v) { return key(name).string(v); }
    Writer &field(const std::string &name, const char *v) { return key(name).string(v); }
    Writer &field(const std::string &name, bool v) { return key(name).boolean(v); }
    template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
    Writer &field(const std::string &name, T v)
    {
        return key(name).integer(v);
    }
    Writer &field_number(const std::string &name, double v, const char *format = "%.6g")
    {
        return key(name).number(v, format);
    }
    Writer &field_raw(const std::string &name, const std::string &json)
    {
        return key(name).raw(json);
    }

    const std::string &text() const { return out_; }

private:
    void before_value();
    std::string out_;
    std::vector<bool> has_member_; // per open object or array: a member written yet
    bool after_key_ = false;
};

// {"error":{"code":CODE,"message":MESSAGE}}: the error object every native program prints
std::string error_object(const std::string &code, const std::string &message);

} // namespace ps::json

#endif
