// The GPU's own configuration space in switch mode: a small type-0 header answered by the twin
// when a configuration request reaches the GPU side of the switch (native/README.md, "Switch
// mode"). One function, one 64-bit prefetchable BAR; the bus number is captured from the
// type-0 configuration writes it completes, as a PCI Express function does, and becomes the
// Requester ID of the GPU's reads.
#ifndef PCIE_SCOPE_TWIN_GPU_FUNCTION_H
#define PCIE_SCOPE_TWIN_GPU_FUNCTION_H

#include <stdint.h>

#include "tlp.h"

namespace ps {

constexpr uint16_t kGpuVendorId = 0x10DE;    // NVIDIA's PCI-SIG vendor ID
constexpr uint16_t kGpuDeviceId = 0x2335;    // the twin's choice, not checked against a product
constexpr uint32_t kGpuClassCode = 0x030200; // display controller, 3D controller
constexpr uint8_t kGpuRevisionId = 0xA1;
constexpr uint64_t kGpuBarBytes = 256ull << 20; // BAR0: 64-bit prefetchable, 256 MiB

struct ConfigTlp {
    TlpHeader hdr;
    uint32_t data; // the payload DW (writes, read completions)
};

class GpuFunction {
public:
    // A configuration request that reached the GPU: returns its completion.
    ConfigTlp answer(const ConfigTlp &req);
    // Bus/device/function as captured from configuration writes (bus 0 before any).
    uint16_t id() const { return (uint16_t)(bus_ << 8); }
    bool memory_enabled() const { return (command_ & 0x2) != 0; }
    bool bus_master() const { return (command_ & 0x4) != 0; }

private:
    uint32_t read(uint32_t dw) const;
    void write(uint32_t dw, uint32_t value, uint8_t byte_enables);

    uint8_t bus_ = 0;
    uint16_t command_ = 0;
    uint8_t cache_line_ = 0;
    uint64_t bar_ = 0; // BAR0/BAR1 as written (address bits only)
};

} // namespace ps

#endif
