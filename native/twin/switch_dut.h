// Mode switch: pcie_scope_switch_top (Vswitch) as the twin's design. The twin core's GPU-side
// ports are the switch's downstream port (dn_rx: the GPU's reads, dn_tx: their completions);
// the host root complex (host_root_complex.h) sits on the upstream port; configuration requests
// that come out of dn_tx are answered by the GPU's own configuration space (gpu_function.h) and
// never reach the twin core, whose requests wait while such an answer goes into dn_rx.
// Vswitch is the top at 1 TLP segment per beat; Vswitch_s4 / Vswitch_s2 (PS_TWIN_SWITCH_S4/S2,
// where CMake built them) at 4 and 2: the twin core's ports carry up to 4 segments either way
// (dut.h), and a configuration request in one segment of a dn_tx beat is taken out of that segment
// only.
#ifndef PCIE_SCOPE_TWIN_SWITCH_DUT_H
#define PCIE_SCOPE_TWIN_SWITCH_DUT_H

#include <stdint.h>

#include <deque>
#include <memory>

#include "dut.h"
#include "gpu_function.h"
#include "host_root_complex.h"
#include "link.h"

namespace ps {

// The switch's fate counters of one port (spec/switch.json order, PS_SW_CNT_*).
struct SwitchFates {
    uint32_t count[8];
};

class SwitchDut : public Dut {
public:
    ~SwitchDut() override;
    uint32_t csr_address_mask() const override { return 0x1FFFu; } // two taps (spec taps)

    // Link Capabilities / Status of both switch ports, and the host link's serialisation.
    virtual void set_link(const LinkConfig &link, uint64_t clock_hz) = 0;

    HostRootComplex &host() { return host_; }
    const GpuFunction &gpu() const { return gpu_; }
    virtual SwitchFates upstream_fates() const = 0;
    virtual SwitchFates downstream_fates() const = 0;

protected:
    SwitchDut() = default;
    HostRootComplex host_;
    GpuFunction gpu_;
    std::deque<ConfigTlp> gpu_answers_; // completions of the GPU function, for dn_rx
    bool prev_clk_ = false;
};

// The switch top with that many TLP segments per beat; nullptr when this build has no such
// variant (switch_segments_built).
std::unique_ptr<SwitchDut> make_switch_dut(VerilatedContext *ctx, unsigned segments = 1);
// Whether this build has the switch top with that many segments (1 always; CMake's variants).
bool switch_segments_built(unsigned segments);

} // namespace ps

#endif
