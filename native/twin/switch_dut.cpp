#include "switch_dut.h"

#include "Vswitch.h"
#include "pcie_scope_regs.h"

namespace ps {

namespace {
TlpHeader header_of(const VlWide<4> &port)
{
    TlpHeader h;
    for (int i = 0; i < 4; ++i)
        h.dw[3 - i] = port[i];
    return h;
}

template <class Wide> SwitchFates fates_of(const Wide &w)
{
    static_assert(PS_SW_CNT_COUNT <= 8, "SwitchFates holds 8 counters");
    SwitchFates f{};
    for (int i = 0; i < PS_SW_CNT_COUNT; ++i)
        f.count[i] = w[i];
    return f;
}
} // namespace

SwitchDut::SwitchDut(VerilatedContext *ctx) : top_(new Vswitch(ctx, "top"))
{
    top_->up_rx_valid = 0;
    top_->up_tx_ready = 1;
    top_->dn_link_up = 1;
    set_link(LinkConfig{}, 250000000);
}

SwitchDut::~SwitchDut() = default;

void SwitchDut::set_link(const LinkConfig &link, uint64_t clock_hz)
{
    // an ideal link has no speed: the ports report the fastest the modelled IP can train
    const uint8_t speed = link.ideal ? 5 : (uint8_t)link.gen;
    const uint8_t width = link.ideal ? 16 : (uint8_t)link.lanes;
    top_->up_link_max_speed = top_->up_link_speed = speed;
    top_->up_link_max_width = top_->up_link_width = width;
    top_->dn_link_max_speed = top_->dn_link_speed = speed;
    top_->dn_link_max_width = top_->dn_link_width = width;
    host_.set_link(link, clock_hz);
}

bool SwitchDut::gpu_config_beat() const
{
    if (!top_->dn_tx_valid || !top_->dn_tx_sop)
        return false;
    const uint32_t type = (top_->dn_tx_hdr[3] >> 24) & 0x1Fu;
    return type == 0x04 || type == 0x05; // CfgRd0/CfgWr0 (CfgRd1/CfgWr1 would be misrouted)
}

void SwitchDut::put_inputs()
{
    put_csr_inputs(*this, *top_);
    const bool answering = !gpu_answers_.empty();
    if (answering) {
        const ConfigTlp &c = gpu_answers_.front();
        for (int i = 0; i < 4; ++i)
            top_->dn_rx_hdr[i] = c.hdr.dw[3 - i];
        const bool with_data = (c.hdr.dw[0] >> 30) & 1u;
        top_->dn_rx_data[0] = c.data;
        top_->dn_rx_strb = with_data ? 1 : 0;
        top_->dn_rx_valid = 1;
        top_->dn_rx_sop = 1;
        top_->dn_rx_eop = 1;
    } else {
        top_->dn_rx_data = rx_req_tlp_data;
        top_->dn_rx_strb = rx_req_tlp_strb;
        copy_words(top_->dn_rx_hdr, rx_req_tlp_hdr);
        top_->dn_rx_valid = rx_req_tlp_valid;
        top_->dn_rx_sop = rx_req_tlp_sop;
        top_->dn_rx_eop = rx_req_tlp_eop;
    }
    top_->dn_tx_ready = gpu_config_beat() ? 1 : tx_cpl_tlp_ready;
}

void SwitchDut::get_outputs()
{
    get_csr_outputs(*top_, *this);
    rx_req_tlp_ready = gpu_answers_.empty() && top_->dn_rx_ready;
    const bool cfg = gpu_config_beat();
    tx_cpl_tlp_data = top_->dn_tx_data;
    tx_cpl_tlp_strb = top_->dn_tx_strb;
    copy_words(tx_cpl_tlp_hdr, top_->dn_tx_hdr);
    tx_cpl_tlp_valid = top_->dn_tx_valid && !cfg;
    tx_cpl_tlp_sop = top_->dn_tx_sop;
    tx_cpl_tlp_eop = top_->dn_tx_eop;
}

void SwitchDut::eval()
{
    const bool rising = clk && !prev_clk_;
    prev_clk_ = clk;
    bool answered = false;
    bool asked = false;
    ConfigTlp request{};
    if (rising) {
        // the handshakes the design sees at this edge, on the settled signals
        host_.sample(*top_);
        answered = !gpu_answers_.empty() && top_->dn_rx_valid && top_->dn_rx_ready;
        asked = top_->dn_tx_valid && top_->dn_tx_ready && gpu_config_beat();
        if (asked)
            request = ConfigTlp{header_of(top_->dn_tx_hdr), top_->dn_tx_data[0]};
    }
    put_inputs();
    top_->eval();
    if (rising) {
        if (answered)
            gpu_answers_.pop_front();
        if (asked)
            gpu_answers_.push_back(gpu_.answer(request));
        host_.drive(*top_);
    } else {
        // dn_tx_ready follows the dn_tx header: settle again when the new header changed it
        const CData ready = top_->dn_tx_ready;
        put_inputs();
        if (top_->dn_tx_ready != ready)
            top_->eval();
    }
    get_outputs();
}

void SwitchDut::final() { top_->final(); }

SwitchFates SwitchDut::upstream_fates() const { return fates_of(top_->sw_up_rx_cnt); }
SwitchFates SwitchDut::downstream_fates() const { return fates_of(top_->sw_dn_rx_cnt); }

} // namespace ps
