// The design under test as the twin core (twin.cpp) sees it: the GPU-side TLP streams, the
// AXI4-Lite CSR port, clock and reset, with the names of pcie_scope_bar_top's ports. Each mode
// copies these to and from its Verilated top in eval(): the BAR top one to one
// (bar_dut.cpp), the switch top through its downstream port with a host root complex on its
// upstream port (switch_dut.h). The twin core is the same in both modes.
#ifndef PCIE_SCOPE_TWIN_DUT_H
#define PCIE_SCOPE_TWIN_DUT_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "tlp.h"
#include "verilated.h"

namespace ps {

// Most TLP segments per beat a design may have (a straddled 512-bit interface: 4).
constexpr unsigned kMaxSegments = 4;

// Segment s of a beat: header hdr[128*s +: 128] (words 4s..4s+3), valid/sop/eop bit s, its
// payload DWs [s*D, (s+1)*D) of the 16-DW data for D = 16/segments (bar_responder.v).
struct DutPorts {
    CData clk = 0;
    CData rst = 1;
    // GPU -> design: the GPU's requests (and, in switch mode, nothing else of the GPU's)
    VlWide<16> rx_req_tlp_data{};
    SData rx_req_tlp_strb = 0;
    VlWide<4 * kMaxSegments> rx_req_tlp_hdr{};
    // the modelled link, reported in LINK_GEN / LINK_WIDTH (Link Status encodings; link.h)
    CData link_gen = 0;
    CData link_width = 0;
    CData rx_req_tlp_valid = 0;
    CData rx_req_tlp_sop = 1;
    CData rx_req_tlp_eop = 1;
    CData rx_req_tlp_ready = 0;
    // design -> GPU: completions
    VlWide<16> tx_cpl_tlp_data{};
    SData tx_cpl_tlp_strb = 0;
    VlWide<4 * kMaxSegments> tx_cpl_tlp_hdr{};
    CData tx_cpl_tlp_valid = 0;
    CData tx_cpl_tlp_sop = 0;
    CData tx_cpl_tlp_eop = 0;
    CData tx_cpl_tlp_ready = 1;
    // AXI4-Lite slave (CSR)
    SData s_axil_awaddr = 0;
    CData s_axil_awvalid = 0;
    CData s_axil_awready = 0;
    IData s_axil_wdata = 0;
    CData s_axil_wstrb = 0xF;
    CData s_axil_wvalid = 0;
    CData s_axil_wready = 0;
    CData s_axil_bresp = 0;
    CData s_axil_bvalid = 0;
    CData s_axil_bready = 0;
    SData s_axil_araddr = 0;
    CData s_axil_arvalid = 0;
    CData s_axil_arready = 0;
    IData s_axil_rdata = 0;
    CData s_axil_rresp = 0;
    CData s_axil_rvalid = 0;
    CData s_axil_rready = 0;
};

class Dut : public DutPorts {
public:
    virtual ~Dut() = default;
    // Settles the design on the current inputs (a rising clk edge included). A design whose
    // outputs follow no input without a clock edge may wait for the edge (bar_dut.cpp).
    virtual void eval() = 0;
    virtual void final() = 0;
    // TLP segments per beat of the design's streams (TLP_SEG_COUNT): 1, 2 or 4.
    virtual unsigned segments() const { return 1; }
    // The CSR address bits the design decodes: one 4-KiB register map per probe tap (the BAR
    // top has one; the switch top two, bit 12 picking the tap).
    virtual uint32_t csr_address_mask() const { return 0xFFFu; }
};

// pcie_scope_bar_top: the FPGA as the GPU's BAR endpoint (mode endpoint), Verilated with
// TLP_SEG_COUNT = segments; nullptr when this build has no such variant (bar_segments_built).
std::unique_ptr<Dut> make_bar_dut(VerilatedContext *ctx, unsigned segments = 1);
// Whether this build has the BAR top with that many segments (1 always; CMake's variants).
bool bar_segments_built(unsigned segments);

// Segment seg's header from a port's header words: bits [128*seg +: 128], word 4*seg holding its
// bits [31:0] = DW3 (the layout every top's *_hdr port has).
inline TlpHeader header_at(const uint32_t *words, unsigned seg)
{
    TlpHeader h;
    for (unsigned i = 0; i < 4; ++i)
        h.dw[3 - i] = words[4 * seg + i];
    return h;
}

// Copies the first min(N, M) words of one wide port to another (the rest of dst: zero).
template <std::size_t N, std::size_t M> void copy_words(VlWide<N> &dst, const VlWide<M> &src)
{
    for (std::size_t i = 0; i < N; ++i)
        dst[i] = i < M ? src[i] : 0;
}

// Copies the ports a DutPorts and a Verilated top share by name (the CSR side and reset; each mode
// drives its top's clock itself).
template <class Top> void put_csr_inputs(const DutPorts &p, Top &t)
{
    t.rst = p.rst;
    t.s_axil_awaddr = p.s_axil_awaddr;
    t.s_axil_awvalid = p.s_axil_awvalid;
    t.s_axil_wdata = p.s_axil_wdata;
    t.s_axil_wstrb = p.s_axil_wstrb;
    t.s_axil_wvalid = p.s_axil_wvalid;
    t.s_axil_bready = p.s_axil_bready;
    t.s_axil_araddr = p.s_axil_araddr;
    t.s_axil_arvalid = p.s_axil_arvalid;
    t.s_axil_rready = p.s_axil_rready;
}
template <class Top> void get_csr_outputs(const Top &t, DutPorts &p)
{
    p.s_axil_awready = t.s_axil_awready;
    p.s_axil_wready = t.s_axil_wready;
    p.s_axil_bresp = t.s_axil_bresp;
    p.s_axil_bvalid = t.s_axil_bvalid;
    p.s_axil_arready = t.s_axil_arready;
    p.s_axil_rdata = t.s_axil_rdata;
    p.s_axil_rresp = t.s_axil_rresp;
    p.s_axil_rvalid = t.s_axil_rvalid;
}

// PS_TWIN_CHECK_SETTLE=1 in the environment: each mode also makes the evaluation it skips (the
// twin's eval with the clock low, which has nothing to show while no output follows an input
// without a clock edge: twin_bar_top.v, twin_switch_top.v) and stops the twin with a message
// naming the mode if that evaluation changes an output. The tests run the twin so.
bool settle_check_enabled();
[[noreturn]] void settle_check_failed(const char *mode);

// The words of a design's outputs, in a fixed order, to compare before and after an evaluation.
class OutputWords {
public:
    template <std::size_t N> OutputWords &operator<<(const VlWide<N> &w)
    {
        for (std::size_t i = 0; i < N; ++i)
            words_.push_back(w[i]);
        return *this;
    }
    OutputWords &operator<<(uint32_t v)
    {
        words_.push_back(v);
        return *this;
    }
    bool operator==(const OutputWords &o) const { return words_ == o.words_; }
    bool operator!=(const OutputWords &o) const { return !(*this == o); }

private:
    std::vector<uint32_t> words_;
};

// The AXI4-Lite outputs of a top, into OutputWords.
template <class Top> OutputWords &csr_output_words(OutputWords &w, const Top &t)
{
    return w << t.s_axil_awready << t.s_axil_wready << t.s_axil_bresp << t.s_axil_bvalid
             << t.s_axil_arready << t.s_axil_rdata << t.s_axil_rresp << t.s_axil_rvalid;
}

// Whether the CSR ports should cross on this evaluation: while the twin uses the AXI4-Lite port
// (a valid or ready of its own raised), on the evaluation after, and in reset. An idle CSR's
// outputs do not change (ready high, no response pending: the twin takes every response it
// asks for), so the copies the twin holds of them stay exact without crossing every clock.
class CsrGate {
public:
    bool open(const DutPorts &p)
    {
        const bool now = p.rst || p.s_axil_awvalid || p.s_axil_wvalid || p.s_axil_bready
            || p.s_axil_arvalid || p.s_axil_rready;
        const bool cross = now || was_;
        was_ = now;
        return cross;
    }

private:
    bool was_ = true;
};

} // namespace ps

#endif
