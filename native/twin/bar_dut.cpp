// Mode endpoint: pcie_scope_bar_top, its ports one to one: Vtop (TLP_SEG_COUNT 1) and, where
// CMake built them, Vtop_s2 / Vtop_s4 (2 and 4 segments per beat; PS_TWIN_BAR_S2/S4).
#include "Vtop.h"
#ifdef PS_TWIN_BAR_S2
#include "Vtop_s2.h"
#endif
#ifdef PS_TWIN_BAR_S4
#include "Vtop_s4.h"
#endif
#include "dut.h"

namespace ps {

namespace {
template <class Top> class BarDut final : public Dut {
public:
    BarDut(VerilatedContext *ctx, unsigned segments)
        : top_(new Top(ctx, "top")), segments_(segments)
    {}
    // The twin sets a beat's request payload while clk is low, and pcie_scope_bar_top's
    // completion payload comes from registers (no input reaches an output without a clock
    // edge), so the wide buses are copied only on the eval that can change them: the request
    // payload on clk low, the completion payload after the edge. Control bits go both ways
    // on every eval.
    void eval() override
    {
        put_csr_inputs(*this, *top_);
        if (!clk) {
            top_->rx_req_tlp_data = rx_req_tlp_data;
            top_->rx_req_tlp_strb = rx_req_tlp_strb;
            copy_words(top_->rx_req_tlp_hdr, rx_req_tlp_hdr);
        }
        top_->rx_req_tlp_valid = rx_req_tlp_valid;
        top_->rx_req_tlp_sop = rx_req_tlp_sop;
        top_->rx_req_tlp_eop = rx_req_tlp_eop;
        top_->tx_cpl_tlp_ready = tx_cpl_tlp_ready;
        top_->eval();
        get_csr_outputs(*top_, *this);
        rx_req_tlp_ready = top_->rx_req_tlp_ready;
        if (clk) {
            tx_cpl_tlp_data = top_->tx_cpl_tlp_data;
            tx_cpl_tlp_strb = top_->tx_cpl_tlp_strb;
            copy_words(tx_cpl_tlp_hdr, top_->tx_cpl_tlp_hdr);
        }
        tx_cpl_tlp_valid = top_->tx_cpl_tlp_valid;
        tx_cpl_tlp_sop = top_->tx_cpl_tlp_sop;
        tx_cpl_tlp_eop = top_->tx_cpl_tlp_eop;
    }
    void final() override { top_->final(); }
    unsigned segments() const override { return segments_; }

private:
    std::unique_ptr<Top> top_;
    unsigned segments_;
};
} // namespace

bool bar_segments_built(unsigned segments)
{
    switch (segments) {
    case 1:
        return true;
#ifdef PS_TWIN_BAR_S2
    case 2:
        return true;
#endif
#ifdef PS_TWIN_BAR_S4
    case 4:
        return true;
#endif
    default:
        return false;
    }
}

std::unique_ptr<Dut> make_bar_dut(VerilatedContext *ctx, unsigned segments)
{
    switch (segments) {
    case 1:
        return std::make_unique<BarDut<Vtop>>(ctx, 1);
#ifdef PS_TWIN_BAR_S2
    case 2:
        return std::make_unique<BarDut<Vtop_s2>>(ctx, 2);
#endif
#ifdef PS_TWIN_BAR_S4
    case 4:
        return std::make_unique<BarDut<Vtop_s4>>(ctx, 4);
#endif
    default:
        return nullptr;
    }
}

std::unique_ptr<Dut> make_endpoint_dut(VerilatedContext *ctx) { return make_bar_dut(ctx, 1); }

} // namespace ps
