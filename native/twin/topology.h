// The PCI tree the host model enumerated through the switch RTL (switch mode), as read back from
// the configuration spaces after programming; printed in the twin's ready line.
#ifndef PCIE_SCOPE_TWIN_TOPOLOGY_H
#define PCIE_SCOPE_TWIN_TOPOLOGY_H

#include <stdint.h>

#include <string>

namespace ps {

struct FunctionId {
    uint16_t vendor = 0xFFFF, device = 0xFFFF;
    uint32_t class_code = 0;
    uint8_t header_type = 0;
    uint16_t command = 0;
};

struct BridgeInfo {
    uint8_t bus = 0; // the port's own bus (device 0, function 0)
    FunctionId id;
    uint8_t port_type = 0; // PCI Express capability: 5 upstream, 6 downstream switch port
    uint8_t link_max_speed = 0, link_max_width = 0, link_speed = 0, link_width = 0;
    uint8_t primary = 0, secondary = 0, subordinate = 0;
    uint64_t mem_base = 0, mem_limit = 0; // forwarded [base, limit]; closed when base > limit
    uint64_t pref_base = 0, pref_limit = 0;
};

struct EndpointInfo {
    uint8_t bus = 0;
    FunctionId id;
    uint64_t bar_base = 0, bar_size = 0; // BAR0 (64-bit, prefetchable)
    bool bar_64 = false, bar_prefetchable = false;
};

struct Topology {
    bool found = false;                               // the whole tree answered
    std::string problem;                              // what stopped the enumeration when not found
    uint8_t root_secondary = 0, root_subordinate = 0; // the host's root port 00:01.0
    BridgeInfo up, down;
    EndpointInfo gpu;
    uint32_t absent = 0;              // scanned device numbers that answered UR
    uint32_t readback_mismatches = 0; // programmed registers that read back otherwise
};

std::string topology_json(const Topology &t);

} // namespace ps

#endif
