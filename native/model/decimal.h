// Strict decimal parsing for command lines and graph specs: digits only, no sign, no spaces, no
// overflow (strtoull would accept " +12" and wrap on overflow).
#ifndef PCIE_SCOPE_MODEL_DECIMAL_H
#define PCIE_SCOPE_MODEL_DECIMAL_H

#include <stdint.h>

#include <string>

namespace ps {

// True and *out = the value when `s` is 1..20 decimal digits that fit 64 bits.
inline bool parse_u64_decimal(const std::string &s, uint64_t *out)
{
    if (s.empty() || s.size() > 20)
        return false;
    uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9')
            return false;
        const uint64_t d = (uint64_t)(c - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

} // namespace ps

#endif
