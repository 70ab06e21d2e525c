#include "host_enumerator.h"

namespace ps {

namespace {
constexpr uint64_t kConfigTimeoutCycles = 10000;
constexpr uint8_t kRootSecondaryBus = 1;
constexpr uint32_t kCapPointerDw = 13;
constexpr uint16_t kCommandMemoryBusMaster = 0x6;

CfgTarget type0(uint8_t bus, uint16_t reg) { return CfgTarget{false, bus, 0, 0, reg}; }
CfgTarget type1(uint8_t bus, uint8_t device, uint16_t reg)
{
    return CfgTarget{true, bus, device, 0, reg};
}

class Enumerator {
public:
    explicit Enumerator(ConfigAccess &cfg) : cfg_(cfg) {}
    Topology run();

private:
    // The root port sends type 0 to its secondary bus, type 1 beyond it.
    CfgTarget at(uint8_t bus, uint8_t device, uint16_t reg) const
    {
        return bus == kRootSecondaryBus ? type0(bus, reg) : type1(bus, device, reg);
    }
    uint32_t rd(uint8_t bus, uint16_t reg, uint8_t device = 0)
    {
        return cfg_.read(at(bus, device, reg)).data;
    }
    void wr(uint8_t bus, uint16_t reg, uint32_t v, uint8_t be = 0xF)
    {
        cfg_.write(at(bus, 0, reg), v, be);
    }
    // writes, reads back, counts a difference in the bits that mask selects
    void program(uint8_t bus, uint16_t reg, uint32_t v, uint32_t mask = 0xFFFFFFFFu)
    {
        wr(bus, reg, v);
        if ((rd(bus, reg) & mask) != (v & mask))
            ++topo_.readback_mismatches;
    }
    bool identify(uint8_t bus, FunctionId *id);
    void bridge(uint8_t bus, BridgeInfo *b);
    void read_back(BridgeInfo *b);

    ConfigAccess &cfg_;
    Topology topo_;
};

bool Enumerator::identify(uint8_t bus, FunctionId *id)
{
    const uint32_t d0 = rd(bus, 0);
    if ((d0 & 0xFFFF) == 0xFFFF)
        return false;
    id->vendor = (uint16_t)d0;
    id->device = (uint16_t)(d0 >> 16);
    id->class_code = rd(bus, 2) >> 8;
    id->header_type = (uint8_t)(rd(bus, 3) >> 16);
    return true;
}

// Identity, PCI Express capability and link of a switch port.
void Enumerator::bridge(uint8_t bus, BridgeInfo *b)
{
    b->bus = bus;
    const uint32_t cap = (rd(bus, kCapPointerDw) & 0xFC) / 4;
    const uint32_t pcie = rd(bus, (uint16_t)cap);
    if ((pcie & 0xFF) == 0x10)
        b->port_type = (uint8_t)((pcie >> 20) & 0xF);
    const uint32_t link_cap = rd(bus, (uint16_t)(cap + 3));
    const uint32_t link_status = rd(bus, (uint16_t)(cap + 4)) >> 16;
    b->link_max_speed = link_cap & 0xF;
    b->link_max_width = (link_cap >> 4) & 0x3F;
    b->link_speed = link_status & 0xF;
    b->link_width = (link_status >> 4) & 0x3F;
}

void Enumerator::read_back(BridgeInfo *b)
{
    const uint8_t bus = b->bus;
    b->id.command = (uint16_t)rd(bus, 1);
    const uint32_t buses = rd(bus, 6);
    b->primary = (uint8_t)buses;
    b->secondary = (uint8_t)(buses >> 8);
    b->subordinate = (uint8_t)(buses >> 16);
    const uint32_t mem = rd(bus, 8);
    b->mem_base = (uint64_t)(mem & 0xFFF0) << 16;
    b->mem_limit = ((uint64_t)(mem & 0xFFF00000u)) | 0xFFFFF;
    const uint32_t pref = rd(bus, 9);
    b->pref_base = ((uint64_t)rd(bus, 10) << 32) | ((uint64_t)(pref & 0xFFF0) << 16);
    b->pref_limit = ((uint64_t)rd(bus, 11) << 32) | (pref & 0xFFF00000u) | 0xFFFFF;
}

Topology Enumerator::run()
{
    const uint8_t up_bus = kRootSecondaryBus;
    const uint8_t internal = up_bus + 1;
    const uint8_t gpu_bus = internal + 1;
    topo_.root_secondary = up_bus;
    if (!identify(up_bus, &topo_.up.id) || topo_.up.id.header_type != 1) {
        topo_.problem = "no bridge on bus 1 (the switch's upstream port)";
        return topo_;
    }
    bridge(up_bus, &topo_.up);
    program(up_bus, 6, (0xFFu << 16) | ((uint32_t)internal << 8) | up_bus, 0xFFFFFF);

    // the internal bus: every device number, as below an upstream port
    bool found_down = false;
    for (uint8_t dev = 0; dev < 32; ++dev) {
        const CfgResult r = cfg_.read(type1(internal, dev, 0));
        if (r.status != kCplStatusSC) {
            ++topo_.absent;
            continue;
        }
        if (dev == 0)
            found_down = true;
    }
    if (!found_down || !identify(internal, &topo_.down.id) || topo_.down.id.header_type != 1) {
        topo_.problem = "no downstream port on the switch's internal bus";
        return topo_;
    }
    bridge(internal, &topo_.down);
    program(internal, 6, (0xFFu << 16) | ((uint32_t)gpu_bus << 8) | internal, 0xFFFFFF);

    // below a downstream port only device 0 exists
    EndpointInfo &g = topo_.gpu;
    g.bus = gpu_bus;
    if (!identify(gpu_bus, &g.id) || g.id.header_type != 0) {
        topo_.problem = "no function below the switch's downstream port";
        return topo_;
    }
    // the scan found nothing deeper: close the subordinate bus numbers
    program(internal, 6, ((uint32_t)gpu_bus << 16) | ((uint32_t)gpu_bus << 8) | internal, 0xFFFFFF);
    program(up_bus, 6, ((uint32_t)gpu_bus << 16) | ((uint32_t)internal << 8) | up_bus, 0xFFFFFF);
    topo_.root_subordinate = gpu_bus;

    // BAR sizing, decoding off meanwhile
    wr(gpu_bus, 1, 0);
    const uint32_t bar_flags = rd(gpu_bus, 4) & 0xF;
    g.bar_64 = ((bar_flags >> 1) & 3) == 2;
    g.bar_prefetchable = (bar_flags & 0x8) != 0;
    wr(gpu_bus, 4, 0xFFFFFFFFu);
    if (g.bar_64)
        wr(gpu_bus, 5, 0xFFFFFFFFu);
    const uint64_t mask =
        ((g.bar_64 ? (uint64_t)rd(gpu_bus, 5) : 0xFFFFFFFFull) << 32) | (rd(gpu_bus, 4) & ~0xFu);
    g.bar_size = mask ? (~mask + 1) : 0;
    if (g.bar_size == 0 || !g.bar_64 || !g.bar_prefetchable) {
        topo_.problem = "the GPU's BAR0 is not a sized 64-bit prefetchable BAR";
        return topo_;
    }
    const uint64_t bar = kHostPrefetchableAperture; // aligned to any BAR up to 32 GiB
    program(gpu_bus, 4, (uint32_t)bar, 0xFFFFFFF0u);
    program(gpu_bus, 5, (uint32_t)(bar >> 32));

    // windows of both ports onto the BAR (1 MiB granules); no 32-bit memory: window closed
    const uint64_t last = bar + g.bar_size - 1;
    for (const uint8_t bus : {internal, up_bus}) {
        program(bus, 8, 0x0000FFF0u);
        program(bus, 9,
                ((uint32_t)(last >> 20) & 0xFFF) << 20 | ((uint32_t)(bar >> 20) & 0xFFF) << 4,
                0xFFF0FFF0u);
        program(bus, 10, (uint32_t)(bar >> 32));
        program(bus, 11, (uint32_t)(last >> 32));
    }
    for (const uint8_t bus : {up_bus, internal, gpu_bus})
        program(bus, 1, kCommandMemoryBusMaster, kCommandMemoryBusMaster);

    read_back(&topo_.up);
    read_back(&topo_.down);
    g.id.command = (uint16_t)rd(gpu_bus, 1);
    g.bar_base = (((uint64_t)rd(gpu_bus, 5)) << 32) | (rd(gpu_bus, 4) & ~0xFu);
    topo_.found = true;
    return topo_;
}
} // namespace

CfgResult ConfigAccess::wait(uint8_t tag)
{
    CfgResult r{};
    for (uint64_t i = 0; i < kConfigTimeoutCycles; ++i) {
        if (host_.cfg_take(tag, &r))
            return r;
        tick_();
    }
    return CfgResult{0xFF, 0xFFFFFFFFu};
}

CfgResult ConfigAccess::read(const CfgTarget &t) { return wait(host_.cfg_issue(t, false, 0, 0xF)); }

CfgResult ConfigAccess::write(const CfgTarget &t, uint32_t value, uint8_t byte_enables)
{
    return wait(host_.cfg_issue(t, true, value, byte_enables));
}

Topology enumerate(ConfigAccess &cfg) { return Enumerator(cfg).run(); }

} // namespace ps
