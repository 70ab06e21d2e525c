#include "switch_dut.h"

#include "Vswitch.h"
#ifdef PS_TWIN_SWITCH_S2
#include "Vswitch_s2.h"
#endif
#ifdef PS_TWIN_SWITCH_S4
#include "Vswitch_s4.h"
#endif
#include "pcie_scope_regs.h"

namespace ps {

namespace {
template <class Wide> SwitchFates fates_of(const Wide &w)
{
    static_assert(PS_SW_CNT_COUNT <= 8, "SwitchFates holds 8 counters");
    SwitchFates f{};
    for (int i = 0; i < PS_SW_CNT_COUNT; ++i)
        f.count[i] = w[i];
    return f;
}

template <class Top> class SwitchDutImpl final : public SwitchDut {
public:
    // TLP segments per beat of this top (its headers: 4 words each) and DWs per segment
    static constexpr unsigned kSegs = sizeof(((Top *)nullptr)->dn_tx_hdr) / 16;
    static constexpr unsigned kSegDws = 16 / kSegs;

    explicit SwitchDutImpl(VerilatedContext *ctx) : top_(new Top(ctx, "top"))
    {
        top_->up_rx_valid = 0;
        top_->up_tx_ready = 1;
        top_->up_tx_np_ok = 1;
        // the GPU model never runs out of non-posted credit (it takes completions and answers
        // configuration requests at once)
        top_->dn_tx_np_ok = 1;
        top_->dn_link_up = 1;
        set_link(LinkConfig{}, 250000000);
        top_->tick = 0;
        top_->eval(); // the design with its clock low
    }
    unsigned segments() const override { return kSegs; }

    void set_link(const LinkConfig &link, uint64_t clock_hz) override
    {
        const uint8_t speed = (uint8_t)link_status_speed(link);
        const uint8_t width = (uint8_t)link_status_width(link);
        top_->up_link_max_speed = top_->up_link_speed = speed;
        top_->up_link_max_width = top_->up_link_width = width;
        top_->dn_link_max_speed = top_->dn_link_speed = speed;
        top_->dn_link_max_width = top_->dn_link_width = width;
        host_.set_link(link, clock_hz);
    }

    // One Verilated eval per cycle, as in endpoint mode (bar_dut.cpp): on the twin's rising edge
    // the inputs go in, 'tick' flips (rtl/twin_switch_top.v makes that one edge of the design's
    // clock) and the outputs come out. The host model drives its inputs for the next clock
    // before the edge (twin_switch_top registers them). The twin's eval with the clock low
    // settles the design only while the CSR port crosses (its readies follow the address); the
    // other inputs set after an edge wait for the next one.
    void eval() override
    {
        const bool rising = clk && !prev_clk_;
        prev_clk_ = clk;
        if (!rising) {
            csr_crossing_ = csr_gate_.open(*this);
            if (!csr_crossing_ && !settle_check_)
                return;
            const OutputWords before = settle_check_ ? outputs() : OutputWords{};
            put_inputs();
            top_->eval();
            // no output follows the inputs set since the edge but the CSR's readies (dut.h), so
            // those are all there is to take
            if (settle_check_ && !csr_crossing_ && outputs() != before)
                settle_check_failed("switch (pcie_scope_switch_top)");
            if (csr_crossing_)
                get_csr_outputs(*top_, *this);
            return;
        }
        // the handshakes the design sees at this edge, on the settled signals
        host_.sample(*top_);
        const bool answered =
            !gpu_answers_.empty() && (top_->dn_rx_valid & 1u) && top_->dn_rx_ready;
        // the configuration requests taken at this edge (at most one per segment)
        ConfigTlp asked[kSegs];
        unsigned n_asked = 0;
        const unsigned cfg = gpu_config_segments();
        if (cfg && top_->dn_tx_ready)
            for (unsigned s = 0; s < kSegs; ++s)
                if ((cfg >> s) & 1u)
                    asked[n_asked++] =
                        ConfigTlp{header_at(&top_->dn_tx_hdr[0], s), top_->dn_tx_data[s * kSegDws]};
        host_.drive(*top_);
        csr_crossing_ = csr_gate_.open(*this);
        put_inputs();
        top_->tick = !top_->tick;
        top_->eval();
        if (answered)
            gpu_answers_.pop_front();
        for (unsigned i = 0; i < n_asked; ++i)
            gpu_answers_.push_back(gpu_.answer(asked[i]));
        get_outputs();
    }
    void final() override { top_->final(); }

    SwitchFates upstream_fates() const override { return fates_of(top_->sw_up_rx_cnt); }
    SwitchFates downstream_fates() const override { return fates_of(top_->sw_dn_rx_cnt); }

private:
    // the segments of dn_tx that start a configuration request (CfgRd0/CfgWr0: one segment each;
    // CfgRd1/CfgWr1 would be misrouted)
    unsigned gpu_config_segments() const
    {
        unsigned m = 0;
        for (unsigned s = 0; s < kSegs; ++s) {
            if (!((top_->dn_tx_valid >> s) & 1u) || !((top_->dn_tx_sop >> s) & 1u))
                continue;
            const uint32_t type = (top_->dn_tx_hdr[4 * s + 3] >> 24) & 0x1Fu;
            if (type == 0x04 || type == 0x05)
                m |= 1u << s;
        }
        return m;
    }

    void put_inputs()
    {
        if (csr_crossing_)
            put_csr_inputs(*this, *top_);
        if (!gpu_answers_.empty()) {
            const ConfigTlp &c = gpu_answers_.front();
            for (unsigned i = 0; i < 4 * kSegs; ++i)
                top_->dn_rx_hdr[i] = i < 4 ? c.hdr.dw[3 - i] : 0;
            const bool with_data = (c.hdr.dw[0] >> 30) & 1u;
            top_->dn_rx_data[0] = c.data;
            top_->dn_rx_strb = with_data ? 1 : 0;
            top_->dn_rx_valid = 1;
            top_->dn_rx_sop = 1;
            top_->dn_rx_eop = 1;
        } else {
            // a beat's payload buses travel only with a valid segment, as in endpoint mode
            const CData mask = (CData)((1u << kSegs) - 1u);
            if (rx_req_tlp_valid & mask) {
                top_->dn_rx_data = rx_req_tlp_data;
                top_->dn_rx_strb = rx_req_tlp_strb;
                copy_words(top_->dn_rx_hdr, rx_req_tlp_hdr);
            }
            top_->dn_rx_valid = rx_req_tlp_valid & mask;
            top_->dn_rx_sop = rx_req_tlp_sop & mask;
            top_->dn_rx_eop = rx_req_tlp_eop & mask;
        }
        put_dn_tx_ready();
    }

    // a beat of configuration requests only is the GPU function's to take
    void put_dn_tx_ready()
    {
        const unsigned cfg = gpu_config_segments();
        top_->dn_tx_ready = (cfg && !(top_->dn_tx_valid & ~cfg)) ? 1 : tx_cpl_tlp_ready;
    }

    void get_outputs()
    {
        if (csr_crossing_)
            get_csr_outputs(*top_, *this);
        rx_req_tlp_ready = gpu_answers_.empty() && top_->dn_rx_ready;
        const unsigned cfg = gpu_config_segments();
        tx_cpl_tlp_valid = (CData)(top_->dn_tx_valid & ~cfg);
        if (tx_cpl_tlp_valid) {
            tx_cpl_tlp_data = top_->dn_tx_data;
            tx_cpl_tlp_strb = top_->dn_tx_strb;
            copy_words(tx_cpl_tlp_hdr, top_->dn_tx_hdr);
        }
        tx_cpl_tlp_sop = top_->dn_tx_sop;
        tx_cpl_tlp_eop = top_->dn_tx_eop;
    }

    OutputWords outputs() const
    {
        OutputWords w;
        w << top_->dn_rx_ready << top_->dn_tx_data << top_->dn_tx_strb << top_->dn_tx_hdr
          << top_->dn_tx_valid << top_->dn_tx_sop << top_->dn_tx_eop << top_->up_rx_ready
          << top_->up_tx_data << top_->up_tx_strb << top_->up_tx_hdr << top_->up_tx_valid
          << top_->up_tx_sop << top_->up_tx_eop << top_->sw_up_rx_cnt << top_->sw_dn_rx_cnt
          << top_->bar_latency << top_->bar_jitter << top_->cpl_split << top_->cpl_buffer_bytes;
        return csr_output_words(w, *top_);
    }

    std::unique_ptr<Top> top_;
    // the CSR ports cross only while the twin uses them (dut.h)
    CsrGate csr_gate_;
    bool csr_crossing_ = true;
    const bool settle_check_ = settle_check_enabled();
};
} // namespace

SwitchDut::~SwitchDut() = default;

bool switch_segments_built(unsigned segments)
{
#ifdef PS_TWIN_SWITCH_S2
    if (segments == 2)
        return true;
#endif
#ifdef PS_TWIN_SWITCH_S4
    if (segments == 4)
        return true;
#endif
    return segments == 1;
}

std::unique_ptr<SwitchDut> make_switch_dut(VerilatedContext *ctx, unsigned segments)
{
    switch (segments) {
    case 1:
        return std::make_unique<SwitchDutImpl<Vswitch>>(ctx);
#ifdef PS_TWIN_SWITCH_S2
    case 2:
        return std::make_unique<SwitchDutImpl<Vswitch_s2>>(ctx);
#endif
#ifdef PS_TWIN_SWITCH_S4
    case 4:
        return std::make_unique<SwitchDutImpl<Vswitch_s4>>(ctx);
#endif
    default:
        return nullptr;
    }
}

} // namespace ps
