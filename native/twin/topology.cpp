#include "topology.h"

#include <stdio.h>

namespace ps {

namespace {
std::string num(uint64_t v) { return std::to_string(v); }

std::string id_json(const FunctionId &f)
{
    return "\"vendorId\":" + num(f.vendor) + ",\"deviceId\":" + num(f.device)
        + ",\"classCode\":" + num(f.class_code) + ",\"headerType\":" + num(f.header_type)
        + ",\"command\":" + num(f.command);
}

std::string window_json(uint64_t base, uint64_t limit)
{
    if (base > limit)
        return "null";
    return "{\"base\":" + num(base) + ",\"limit\":" + num(limit) + "}";
}

std::string bridge_json(const BridgeInfo &b, const char *role)
{
    return "{\"bus\":" + num(b.bus) + ",\"device\":0,\"function\":0,\"role\":\"" + role + "\","
        + id_json(b.id) + ",\"link\":{\"speed\":" + num(b.link_speed)
        + ",\"width\":" + num(b.link_width) + ",\"maxSpeed\":" + num(b.link_max_speed)
        + ",\"maxWidth\":" + num(b.link_max_width) + "},\"buses\":{\"primary\":" + num(b.primary)
        + ",\"secondary\":" + num(b.secondary) + ",\"subordinate\":" + num(b.subordinate)
        + "},\"windows\":{\"memory\":" + window_json(b.mem_base, b.mem_limit)
        + ",\"prefetchable\":" + window_json(b.pref_base, b.pref_limit) + "}}";
}
} // namespace

std::string topology_json(const Topology &t)
{
    std::string s = "{\"found\":" + std::string(t.found ? "true" : "false");
    if (!t.found) {
        std::string p;
        for (char c : t.problem)
            if (c != '"' && c != '\\')
                p += c;
        return s + ",\"problem\":\"" + p + "\"}";
    }
    const EndpointInfo &g = t.gpu;
    s += ",\"root\":{\"bus\":0,\"device\":1,\"function\":0,\"secondary\":" + num(t.root_secondary)
        + ",\"subordinate\":" + num(t.root_subordinate) + "}";
    s += ",\"functions\":[" + bridge_json(t.up, "upstream-port") + ","
        + bridge_json(t.down, "downstream-port");
    s += ",{\"bus\":" + num(g.bus) + ",\"device\":0,\"function\":0,\"role\":\"endpoint\","
        + id_json(g.id) + ",\"bars\":[{\"index\":0,\"base\":" + num(g.bar_base)
        + ",\"size\":" + num(g.bar_size) + ",\"bits\":" + (g.bar_64 ? "64" : "32")
        + ",\"prefetchable\":" + (g.bar_prefetchable ? "true" : "false") + "}]}]";
    s += ",\"absentDevices\":" + num(t.absent)
        + ",\"readbackMismatches\":" + num(t.readback_mismatches) + "}";
    return s;
}

} // namespace ps
