// JSON text of the sampler's records, shared by its two programs (main.cpp, bench_main.cpp).
#ifndef PCIE_SCOPE_SAMPLER_JSON_H
#define PCIE_SCOPE_SAMPLER_JSON_H

#include <string>

#include "sampler.h"

namespace ps::sampler {

inline std::string json_string(const std::string &s)
{
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            o += '\\';
        if ((unsigned char)c < 0x20)
            continue;
        o += c;
    }
    return o + "\"";
}

// {"source":...,"chip":...,"metrics":[{"name","role"}],"offered":[...],"intervalNs":...,...}
inline std::string info_json(const SourceInfo &i)
{
    std::string j = "{\"source\":" + json_string(i.source) + ",\"chip\":" + json_string(i.chip)
        + ",\"metrics\":[";
    for (size_t k = 0; k < i.metrics.size(); ++k)
        j += std::string(k ? "," : "") + "{\"name\":" + json_string(i.metrics[k].name)
            + ",\"role\":\"" + role_name(i.metrics[k].role) + "\"}";
    j += "],\"offered\":[";
    for (size_t k = 0; k < i.offered.size(); ++k)
        j += std::string(k ? "," : "") + json_string(i.offered[k]);
    j += "],\"intervalNs\":" + std::to_string(i.interval_ns)
        + ",\"originNs\":" + json_string(i.origin_ns);
    j += ",\"dropped\":[";
    for (size_t k = 0; k < i.dropped.size(); ++k)
        j += std::string(k ? "," : "") + json_string(i.dropped[k]);
    j += "]";
    if (!i.trigger.empty())
        j += ",\"trigger\":" + json_string(i.trigger);
    if (!i.fallback_reason.empty())
        j += ",\"fallbackReason\":" + json_string(i.fallback_reason);
    return j + "}";
}

} // namespace ps::sampler

#endif
