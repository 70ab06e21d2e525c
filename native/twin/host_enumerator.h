// What an operating system does at boot, done by the host model through the switch RTL:
// configuration reads of each function found, bus numbers (depth first, subordinate 0xFF while
// scanning, then closed), BAR sizing with all-ones writes, the GPU's BAR placed in the host's
// 64-bit prefetchable aperture, both ports' windows opened onto it (the 32-bit memory window
// closed), Memory Space and Bus Master on; then every programmed register read back.
#ifndef PCIE_SCOPE_TWIN_HOST_ENUMERATOR_H
#define PCIE_SCOPE_TWIN_HOST_ENUMERATOR_H

#include <stdint.h>

#include <functional>

#include "host_root_complex.h"
#include "topology.h"

namespace ps {

// Where the host places 64-bit prefetchable BARs (above 4 GiB, clear of the GPU's buffer).
constexpr uint64_t kHostPrefetchableAperture = 0x3800000000ull;

// Blocking configuration access: issues a request and ticks the clock until it completes.
class ConfigAccess {
public:
    ConfigAccess(HostRootComplex &host, std::function<void()> tick) : host_(host), tick_(tick) {}
    // status 0xFF: no completion within the timeout
    CfgResult read(const CfgTarget &t);
    CfgResult write(const CfgTarget &t, uint32_t value, uint8_t byte_enables = 0xF);

private:
    CfgResult wait(uint8_t tag);
    HostRootComplex &host_;
    std::function<void()> tick_;
};

// Root port 00:01.0 with secondary bus 1: the switch's upstream port is found on bus 1.
Topology enumerate(ConfigAccess &cfg);

} // namespace ps

#endif
