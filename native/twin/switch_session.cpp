#include "switch_session.h"

#include <stdio.h>

#include "cli.h"
#include "json.h"
#include "pcie_scope_regs.h"

namespace ps {

namespace {
void fates(json::Writer &w, const char *name, const SwitchFates &f)
{
    w.key(name).begin_array();
    for (int i = 0; i < PS_SW_CNT_COUNT; ++i)
        w.integer(f.count[i]);
    w.end_array();
}
} // namespace

SwitchSession::SwitchSession(Twin &twin, SwitchDut &dut)
    : twin_(twin), dut_(dut), cfg_(dut.host(), [&twin] { twin.tick(); })
{}

bool SwitchSession::start(const LinkConfig &link, uint64_t clock_hz, std::string *err)
{
    dut_.set_link(link, clock_hz);
    topo_ = enumerate(cfg_);
    if (!topo_.found) {
        *err = "enumeration through the switch failed: " + topo_.problem;
        return false;
    }
    twin_.set_ids(dut_.gpu().id(), kHostId);
    return true;
}

std::string SwitchSession::ready_fields() const
{
    return ",\"mode\":\"switch\",\"topology\":" + topology_json(topo_);
}

bool SwitchSession::handle(const std::string &line, std::string *reply)
{
    const std::string verb = "cfg-read";
    if (line.compare(0, verb.size(), verb) != 0)
        return false;
    unsigned bus = 0, dev = 0, fn = 0, reg = 0;
    char tail = 0;
    if (sscanf(line.c_str() + verb.size(), " %2x:%2x.%1x %u %c", &bus, &dev, &fn, &reg, &tail) != 4
        || bus > 255 || dev > 31 || fn > 7 || reg > 1023) {
        *reply = error_event("usage: cfg-read BB:DD.F REG (hex bus, device, function; DW index "
                             "0..1023)");
        return true;
    }
    // the root port's rule: type 0 to its secondary bus, type 1 beyond
    const CfgTarget t{bus != topo_.root_secondary, (uint8_t)bus, (uint8_t)dev, (uint8_t)fn,
                      (uint16_t)reg};
    const CfgResult r = cfg_.read(t);
    const char *status = r.status == kCplStatusSC ? "SC"
        : r.status == kCplStatusUR                ? "UR"
        : r.status == 0xFF                        ? "timeout"
                                                  : "other";
    char bdf[16];
    snprintf(bdf, sizeof bdf, "%02x:%02x.%x", bus, dev, fn);
    json::Writer w;
    w.begin_object().field("event", "cfg").field("bdf", bdf).field("reg", reg);
    w.field("type", t.type1 ? 1 : 0).field("status", status).field("data", r.data);
    w.key("fates").begin_object();
    fates(w, "up", dut_.upstream_fates());
    fates(w, "down", dut_.downstream_fates());
    *reply = w.end_object().end_object().text();
    return true;
}

} // namespace ps
