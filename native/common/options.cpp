#include "options.h"

#include "../model/decimal.h"

#include <string.h>

namespace ps::cli {

bool parse_u64(const std::string &s, uint64_t *out) { return parse_u64_decimal(s, out); }

std::string value_error(const OptionDef &def)
{
    if (!def.error.empty())
        return def.error;
    return std::string(def.flag) + " needs an integer in " + std::to_string(def.min) + ".."
        + std::to_string(def.max);
}

namespace {

const OptionDef *find(const OptionDef *defs, size_t count, const char *arg)
{
    for (size_t k = 0; k < count; ++k) {
        if (strcmp(defs[k].flag, arg) == 0 || (defs[k].alias && strcmp(defs[k].alias, arg) == 0))
            return &defs[k];
    }
    return nullptr;
}

bool check_uint(const OptionDef &def, uint64_t v)
{
    if (def.allowed_count) {
        for (size_t k = 0; k < def.allowed_count; ++k)
            if (def.allowed[k] == v)
                return true;
        return false;
    }
    return v >= def.min && v <= def.max;
}

bool check_text(const OptionDef &def, const std::string &v)
{
    if (v.empty())
        return false;
    if (!def.choice_count)
        return true;
    for (size_t k = 0; k < def.choice_count; ++k)
        if (v == def.choices[k])
            return true;
    return false;
}

} // namespace

bool parse(int argc, char **argv, const OptionDef *defs, size_t count, const Messages &messages,
           const Apply &apply, std::string *err)
{
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const OptionDef *def = find(defs, count, argv[i]);
        if (!def) {
            *err = messages.unknown + arg;
            return false;
        }
        Parsed p;
        p.def = def;
        const char *next = i + 1 < argc ? argv[i + 1] : nullptr;
        if (def->value == Value::Uint) {
            if (!next || !parse_u64(next, &p.number)) {
                *err = messages.not_number.empty() ? value_error(*def)
                                                   : def->flag + messages.not_number;
                return false;
            }
            if (!check_uint(*def, p.number)) {
                *err = value_error(*def);
                return false;
            }
            ++i;
        } else if (def->value == Value::Text) {
            if (!next || !check_text(*def, next)) {
                *err = value_error(*def);
                return false;
            }
            p.text = next;
            ++i;
        }
        if (!apply(p, err))
            return false;
    }
    return true;
}

} // namespace ps::cli
