// Mode endpoint: pcie_scope_bar_top, its ports one to one, inside twin_bar_top (rtl/), which
// clocks it from a toggle: Vtop (TLP_SEG_COUNT 1) and, where CMake built them, Vtop_s2 / Vtop_s4
// (2 and 4 segments per beat; PS_TWIN_BAR_S2/S4).
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
    {
        top_->tick = 0;
        top_->eval(); // settles the design with its clock low
    }
    // One Verilated eval per cycle: on the twin's rising edge the inputs go in, 'tick' flips
    // (twin_bar_top turns that into one edge of the design's clock) and the outputs come out. No
    // output of pcie_scope_bar_top follows an input without a clock edge, so the evals the twin
    // makes with clk low (to settle new inputs) have nothing to show: the inputs wait here for
    // the edge. A beat's payload buses travel only with a valid segment (a stream's payload
    // means nothing without one), the CSR ports only while the twin uses them (CsrGate).
    void eval() override
    {
        const bool rising = clk && !prev_clk_;
        prev_clk_ = clk;
        if (!rising) {
            if (settle_check_)
                check_settled();
            return;
        }
        const bool csr = csr_gate_.open(*this);
        put_inputs(csr || settle_check_);
        top_->tick = !top_->tick;
        top_->eval();
        if (csr)
            get_csr_outputs(*top_, *this);
        rx_req_tlp_ready = top_->rx_req_tlp_ready;
        tx_cpl_tlp_valid = top_->tx_cpl_tlp_valid;
        if (tx_cpl_tlp_valid) {
            tx_cpl_tlp_data = top_->tx_cpl_tlp_data;
            tx_cpl_tlp_strb = top_->tx_cpl_tlp_strb;
            copy_words(tx_cpl_tlp_hdr, top_->tx_cpl_tlp_hdr);
        }
        tx_cpl_tlp_sop = top_->tx_cpl_tlp_sop;
        tx_cpl_tlp_eop = top_->tx_cpl_tlp_eop;
    }
    void final() override { top_->final(); }
    unsigned segments() const override { return segments_; }

private:
    void put_inputs(bool csr)
    {
        if (csr)
            put_csr_inputs(*this, *top_);
        if (rx_req_tlp_valid) {
            top_->rx_req_tlp_data = rx_req_tlp_data;
            top_->rx_req_tlp_strb = rx_req_tlp_strb;
            copy_words(top_->rx_req_tlp_hdr, rx_req_tlp_hdr);
        }
        top_->rx_req_tlp_valid = rx_req_tlp_valid;
        top_->rx_req_tlp_sop = rx_req_tlp_sop;
        top_->rx_req_tlp_eop = rx_req_tlp_eop;
        top_->tx_cpl_tlp_ready = tx_cpl_tlp_ready;
        top_->link_gen = link_gen;
        top_->link_width = link_width;
    }

    OutputWords outputs() const
    {
        OutputWords w;
        w << top_->rx_req_tlp_ready << top_->tx_cpl_tlp_data << top_->tx_cpl_tlp_strb
          << top_->tx_cpl_tlp_hdr << top_->tx_cpl_tlp_valid << top_->tx_cpl_tlp_sop
          << top_->tx_cpl_tlp_eop;
        return csr_output_words(w, *top_);
    }

    // the evaluation skipped above, made: the inputs set since the edge, no edge (dut.h); out of
    // line, so the clock-low call that skips it stays a bare return
    __attribute__((noinline, cold)) void check_settled()
    {
        const OutputWords before = outputs();
        put_inputs(true);
        top_->eval();
        if (outputs() != before)
            settle_check_failed("endpoint (pcie_scope_bar_top)");
    }

    std::unique_ptr<Top> top_;
    unsigned segments_;
    CData prev_clk_ = 0;
    CsrGate csr_gate_;
    const bool settle_check_ = settle_check_enabled();
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
