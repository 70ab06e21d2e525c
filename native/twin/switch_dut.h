// Mode switch: pcie_scope_switch_top (Vswitch) as the twin's design. The twin core's GPU-side
// ports are the switch's downstream port (dn_rx: the GPU's reads, dn_tx: their completions);
// the host root complex (host_root_complex.h) sits on the upstream port; configuration requests
// that come out of dn_tx are answered by the GPU's own configuration space (gpu_function.h) and
// never reach the twin core, whose requests wait while such an answer goes into dn_rx.
#ifndef PCIE_SCOPE_TWIN_SWITCH_DUT_H
#define PCIE_SCOPE_TWIN_SWITCH_DUT_H

#include <stdint.h>

#include <deque>
#include <memory>

#include "dut.h"
#include "gpu_function.h"
#include "host_root_complex.h"
#include "link.h"

class Vswitch;

namespace ps {

// The switch's fate counters of one port (spec/switch.json order, PS_SW_CNT_*).
struct SwitchFates {
    uint32_t count[8];
};

class SwitchDut final : public Dut {
public:
    explicit SwitchDut(VerilatedContext *ctx);
    ~SwitchDut() override;
    void eval() override;
    void final() override;
    uint32_t csr_address_mask() const override { return 0x1FFFu; } // two taps (spec taps)

    // Link Capabilities / Status of both switch ports, and the host link's serialisation.
    void set_link(const LinkConfig &link, uint64_t clock_hz);

    HostRootComplex &host() { return host_; }
    const GpuFunction &gpu() const { return gpu_; }
    SwitchFates upstream_fates() const;
    SwitchFates downstream_fates() const;

private:
    bool gpu_config_beat() const; // dn_tx carries a configuration request
    void put_inputs();
    void get_outputs();

    std::unique_ptr<Vswitch> top_;
    HostRootComplex host_;
    GpuFunction gpu_;
    std::deque<ConfigTlp> gpu_answers_; // completions of the GPU function, for dn_rx
    bool prev_clk_ = false;
};

} // namespace ps

#endif
