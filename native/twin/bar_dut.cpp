// Mode endpoint: pcie_scope_bar_top (Vtop), its ports one to one.
#include "Vtop.h"
#include "dut.h"

namespace ps {

namespace {
class BarDut final : public Dut {
public:
    explicit BarDut(VerilatedContext *ctx) : top_(new Vtop(ctx, "top")) {}
    void eval() override
    {
        put_csr_inputs(*this, *top_);
        top_->rx_req_tlp_data = rx_req_tlp_data;
        top_->rx_req_tlp_strb = rx_req_tlp_strb;
        top_->rx_req_tlp_hdr = rx_req_tlp_hdr;
        top_->rx_req_tlp_valid = rx_req_tlp_valid;
        top_->rx_req_tlp_sop = rx_req_tlp_sop;
        top_->rx_req_tlp_eop = rx_req_tlp_eop;
        top_->tx_cpl_tlp_ready = tx_cpl_tlp_ready;
        top_->eval();
        get_csr_outputs(*top_, *this);
        rx_req_tlp_ready = top_->rx_req_tlp_ready;
        tx_cpl_tlp_data = top_->tx_cpl_tlp_data;
        tx_cpl_tlp_strb = top_->tx_cpl_tlp_strb;
        tx_cpl_tlp_hdr = top_->tx_cpl_tlp_hdr;
        tx_cpl_tlp_valid = top_->tx_cpl_tlp_valid;
        tx_cpl_tlp_sop = top_->tx_cpl_tlp_sop;
        tx_cpl_tlp_eop = top_->tx_cpl_tlp_eop;
    }
    void final() override { top_->final(); }

private:
    std::unique_ptr<Vtop> top_;
};
} // namespace

std::unique_ptr<Dut> make_bar_dut(VerilatedContext *ctx) { return std::make_unique<BarDut>(ctx); }

} // namespace ps
