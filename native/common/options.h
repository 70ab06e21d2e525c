// One table-driven command-line parser for the native programs (the twin, pcie-scope-gpu,
// pcie-scope-model): a table says each option's flag, whether it takes a value, its range or the
// values it allows and the message when a value is wrong; the parser walks argv against it and
// hands each option to the program in order, so the checks are written once per option.
#ifndef PCIE_SCOPE_COMMON_OPTIONS_H
#define PCIE_SCOPE_COMMON_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include <functional>
#include <string>

namespace ps::cli {

enum class Value {
    None, // a flag: --help
    Uint, // a decimal integer (digits only, no sign, within 64 bits)
    Text  // a non-empty word
};

constexpr size_t kMaxAllowed = 8;

struct OptionDef {
    int id;            // the program's own name for it (an enum value)
    const char *flag;  // "--tags"
    const char *alias; // "-h", or nullptr
    Value value;
    uint64_t min;                     // Uint: the range, min..max
    uint64_t max;                     //
    uint64_t allowed[kMaxAllowed];    // Uint: the only values allowed (0, 64, 128), or none
    size_t allowed_count;             //
    const char *choices[kMaxAllowed]; // Text: the only words allowed, or none (any word;
    size_t choice_count;              // the program checks it and answers with `error`)
    std::string error; // a value out of range or not allowed, or a Text value missing; empty:
                       // "FLAG needs an integer in MIN..MAX"
};

// How a program words the two errors that are not an option's own.
struct Messages {
    std::string unknown = "unknown option "; // + the argument
    // Uint value missing or not a number: FLAG + this (" needs a non-negative integer"); empty:
    // the option's own error
    std::string not_number;
};

struct Parsed {
    const OptionDef *def = nullptr;
    uint64_t number = 0; // Uint
    std::string text;    // Text
};

// The program's part: takes one parsed option (in argv order); false with *err stops the parse.
using Apply = std::function<bool(const Parsed &, std::string *err)>;

// Walks argv[1..argc) against `defs`; false with *err at the first bad argument or when `apply`
// refuses one.
bool parse(int argc, char **argv, const OptionDef *defs, size_t count, const Messages &messages,
           const Apply &apply, std::string *err);

// The message for a bad value of `def` (its error, or the range one).
std::string value_error(const OptionDef &def);

// True and *out = the value when `s` is 1..20 decimal digits that fit 64 bits.
bool parse_u64(const std::string &s, uint64_t *out);

} // namespace ps::cli

#endif
