#include "topology.h"

#include "json.h"

namespace ps {

namespace {

void id_fields(json::Writer &w, const FunctionId &f)
{
    w.field("vendorId", f.vendor).field("deviceId", f.device).field("classCode", f.class_code);
    w.field("headerType", f.header_type).field("command", f.command);
}

void window(json::Writer &w, const char *name, uint64_t base, uint64_t limit)
{
    w.key(name);
    if (base > limit)
        w.null();
    else
        w.begin_object().field("base", base).field("limit", limit).end_object();
}

void bridge(json::Writer &w, const BridgeInfo &b, const char *role)
{
    w.begin_object().field("bus", b.bus).field("device", 0).field("function", 0);
    w.field("role", role);
    id_fields(w, b.id);
    w.key("link").begin_object().field("speed", b.link_speed).field("width", b.link_width);
    w.field("maxSpeed", b.link_max_speed).field("maxWidth", b.link_max_width).end_object();
    w.key("buses").begin_object().field("primary", b.primary).field("secondary", b.secondary);
    w.field("subordinate", b.subordinate).end_object();
    w.key("windows").begin_object();
    window(w, "memory", b.mem_base, b.mem_limit);
    window(w, "prefetchable", b.pref_base, b.pref_limit);
    w.end_object().end_object();
}

} // namespace

std::string topology_json(const Topology &t)
{
    json::Writer w;
    w.begin_object().field("found", t.found);
    if (!t.found)
        return w.field("problem", t.problem).end_object().text();
    const EndpointInfo &g = t.gpu;
    w.key("root").begin_object().field("bus", 0).field("device", 1).field("function", 0);
    w.field("secondary", t.root_secondary).field("subordinate", t.root_subordinate).end_object();
    w.key("functions").begin_array();
    bridge(w, t.up, "upstream-port");
    bridge(w, t.down, "downstream-port");
    w.begin_object().field("bus", g.bus).field("device", 0).field("function", 0);
    w.field("role", "endpoint");
    id_fields(w, g.id);
    w.key("bars").begin_array().begin_object().field("index", 0).field("base", g.bar_base);
    w.field("size", g.bar_size).field("bits", g.bar_64 ? 64 : 32);
    w.field("prefetchable", g.bar_prefetchable).end_object().end_array().end_object();
    w.end_array().field("absentDevices", t.absent);
    return w.field("readbackMismatches", t.readback_mismatches).end_object().text();
}

} // namespace ps
