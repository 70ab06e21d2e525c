#include "twin.h"

#include <stdio.h>

#include "dut.h"
#include "pcie_scope_regs.h"
#include "tlp.h"
#include "verilated.h"

namespace ps {

namespace {
constexpr uint32_t kBeatDws = sizeof(DutPorts::tx_cpl_tlp_data) / 4; // 16 at 512 bits
constexpr uint64_t kAxiTimeoutCycles = 100000;
constexpr uint64_t kWatchdogCycles = 4000000; // no completion for this long: give up

inline void set_hdr(VlWide<4> &port, const TlpHeader &h)
{
    for (int i = 0; i < 4; ++i)
        port[i] = h.dw[3 - i]; // word 0 = bits [31:0] = DW3
}
inline TlpHeader get_hdr(const VlWide<4> &port)
{
    TlpHeader h;
    for (int i = 0; i < 4; ++i)
        h.dw[3 - i] = port[i];
    return h;
}
} // namespace

Twin::Twin(uint32_t tag_budget, const DutFactory &make_dut)
    : tag_budget_(tag_budget), requester_id_(kGpuRequesterId), completer_id_(kBarCompleterId)
{
    if (tag_budget_ < 1)
        tag_budget_ = 1;
    if (tag_budget_ > 256)
        tag_budget_ = 256;
    for (uint32_t t = 0; t < tag_budget_; ++t)
        free_tags_[t] = (uint8_t)t;
    free_count_ = tag_budget_;
    for (auto &t : tags_)
        t = TagState{0, 0, 0, false};
    ctx_.reset(new VerilatedContext);
    top_ = make_dut(ctx_.get());
    top_->clk = 0;
    top_->rst = 1;
    top_->rx_req_tlp_valid = 0;
    top_->rx_req_tlp_sop = 1;
    top_->rx_req_tlp_eop = 1;
    top_->rx_req_tlp_strb = 0;
    top_->tx_cpl_tlp_ready = 1;
    top_->s_axil_awvalid = 0;
    top_->s_axil_wvalid = 0;
    top_->s_axil_wstrb = 0xF;
    top_->s_axil_bready = 0;
    top_->s_axil_arvalid = 0;
    top_->s_axil_rready = 0;
    top_->eval();
}

Twin::~Twin()
{
    if (top_)
        top_->final();
}

void Twin::reset()
{
    top_->rst = 1;
    for (int i = 0; i < 16; ++i)
        tick();
    top_->rst = 0;
    top_->eval();
    tick();
}

void Twin::set_link(const LinkConfig &link, uint64_t clock_hz)
{
    up_ = LinkGate(link, clock_hz);
    down_ = LinkGate(link, clock_hz);
}

void Twin::release_tag(uint8_t tag)
{
    if (!tags_[tag].active)
        return;
    tags_[tag].active = false;
    --outstanding_;
    free_tags_[(free_head_ + free_count_) % 256] = tag; // round-robin: back of the queue
    ++free_count_;
}

// Called before the rising edge for every accepted beat (tx_cpl_tlp_valid && tx_cpl_tlp_ready).
void Twin::sample_completion_beat()
{
    const uint32_t strb = top_->tx_cpl_tlp_strb;
    if (top_->tx_cpl_tlp_sop) {
        if (cpl_.active)
            ++res_.payload_errors; // previous one never saw eop
        cpl_ = CplRx{};
        cpl_.active = true;
        const CplInfo c = parse_cpl_header(get_hdr(top_->tx_cpl_tlp_hdr));
        down_.send(cpl_wire_bytes(c.has_data ? c.length_dw * 4 : 0)); // the TLP now owns the wire
        cpl_.tag = c.tag;
        cpl_.has_data = c.has_data;
        cpl_.dws_expected = c.length_dw;
        TagState &t = tags_[c.tag];
        if (!c.is_completion || !t.active || c.requester_id != requester_id_
            || c.completer_id != completer_id_) {
            cpl_.error = true;
            cpl_.last = false; // unexpected: retires nothing
            cpl_.tag = 0;
        } else {
            const uint64_t first = t.addr + (t.len - t.remaining); // first byte of this CplD
            cpl_.next_value = (uint32_t)(first & ~3ull);
            cpl_.last = cpl_is_last(c);
            if (!c.has_data || c.status != kCplStatusSC)
                cpl_.error = true;
            if (c.byte_count != t.remaining)
                cpl_.error = true;
            if (c.lower_addr != (uint8_t)(first & 0x7F))
                cpl_.error = true;
            const uint32_t room = c.length_dw * 4 - (c.lower_addr & 3u);
            cpl_.bytes = cpl_.last ? c.byte_count : room;
            if (cpl_.bytes > t.remaining)
                cpl_.error = true;
        }
    }
    if (!cpl_.active)
        return; // beat without a start: ignore (counted at eop below)
    if (cpl_.has_data) {
        for (uint32_t j = 0; j < kBeatDws; ++j) {
            if (!((strb >> j) & 1u))
                continue;
            const uint32_t v = top_->tx_cpl_tlp_data[j];
            if (v != cpl_.next_value)
                cpl_.error = true;
            cpl_.next_value += 4;
            ++cpl_.dws_seen;
        }
    }
    if (top_->tx_cpl_tlp_eop) {
        if (cpl_.dws_seen != cpl_.dws_expected)
            cpl_.error = true;
        ++res_.completions;
        if (cpl_.error)
            ++res_.payload_errors;
        TagState &t = tags_[cpl_.tag];
        if (t.active && (cpl_.bytes > 0 || cpl_.last)) {
            t.remaining = cpl_.bytes >= t.remaining ? 0 : t.remaining - cpl_.bytes;
            if (cpl_.last)
                release_tag(cpl_.tag);
        }
        last_progress_cycle_ = cycle_;
        cpl_.active = false;
    }
}

void Twin::drive_request()
{
    if (req_valid_)
        return; // held until accepted
    if (!have_next_ && gen_ && !cancelled_ && !gen_->exhausted())
        have_next_ = gen_->next(&next_);
    if (!have_next_ || free_count_ == 0 || outstanding_ >= tag_budget_ || !up_.open()) {
        top_->rx_req_tlp_valid = 0;
        return;
    }
    req_tag_ = free_tags_[free_head_];
    free_head_ = (free_head_ + 1) % 256;
    --free_count_;
    req_ = next_;
    have_next_ = false;
    set_hdr(top_->rx_req_tlp_hdr, make_mrd_header(req_.addr, req_.len, req_tag_, requester_id_));
    top_->rx_req_tlp_valid = 1;
    top_->rx_req_tlp_sop = 1;
    top_->rx_req_tlp_eop = 1;
    req_valid_ = true;
}

void Twin::tick()
{
    // 1. sample handshakes on the settled outputs (what the DUT will see at the edge)
    const bool req_fire = req_valid_ && top_->rx_req_tlp_ready;
    if (top_->tx_cpl_tlp_valid && top_->tx_cpl_tlp_ready)
        sample_completion_beat();
    const bool aw_fire = top_->s_axil_awvalid && top_->s_axil_awready;
    const bool w_fire = top_->s_axil_wvalid && top_->s_axil_wready;
    const bool b_fire = top_->s_axil_bvalid && top_->s_axil_bready;
    const bool ar_fire = top_->s_axil_arvalid && top_->s_axil_arready;
    const bool r_fire = top_->s_axil_rvalid && top_->s_axil_rready;
    if (r_fire)
        axi_rdata_ = top_->s_axil_rdata;

    // 2. rising edge
    top_->clk = 1;
    top_->eval();
    ++cycle_;

    // 3. drivers for the next cycle
    up_.tick();
    down_.tick();
    if (req_fire) {
        up_.send(mrd_wire_bytes(req_.addr));
        TagState &t = tags_[req_tag_];
        t = TagState{req_.addr, req_.len, req_.len, true};
        ++outstanding_;
        ++res_.mrds;
        res_.mrd_bytes += req_.len;
        ++res_.by_size[size_class_of(req_.len)];
        req_valid_ = false;
        top_->rx_req_tlp_valid = 0;
        last_progress_cycle_ = cycle_;
    }
    drive_request();
    // the core takes the rest of a started completion at once; a new one waits for the wire
    top_->tx_cpl_tlp_ready = cpl_.active || down_.open();
    if (axi_ == AxiState::Read) {
        if (ar_fire)
            top_->s_axil_arvalid = 0;
        if (r_fire) {
            top_->s_axil_rready = 0;
            axi_complete_ = true;
        }
    } else if (axi_ == AxiState::Write) {
        if (aw_fire)
            top_->s_axil_awvalid = 0;
        if (w_fire)
            top_->s_axil_wvalid = 0;
        if (b_fire) {
            top_->s_axil_bready = 0;
            axi_complete_ = true;
        }
    }
    if (gen_ && outstanding_ > 0 && cycle_ - last_progress_cycle_ > kWatchdogCycles) {
        // completions lost: retire every outstanding tag as an error and stop the workload
        fprintf(stderr, "pcie-scope-twin: %u completions lost, giving up the workload\n",
                outstanding_);
        res_.lost += outstanding_;
        res_.payload_errors += outstanding_;
        for (uint32_t t = 0; t < 256; ++t)
            if (tags_[t].active)
                release_tag((uint8_t)t);
        gave_up_ = true;
        done_ = true;
        done_cycle_ = cycle_;
    }

    if (gen_ && !done_ && outstanding_ == 0 && !req_valid_ && !have_next_ && !cpl_.active
        && (cancelled_ || gen_->exhausted())) {
        done_ = true;
        done_cycle_ = cycle_; // the cycle of the last completion's final beat
    }

    // 4. falling edge: settle the new inputs
    top_->clk = 0;
    top_->eval();
}

void Twin::run_cycles(uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i) {
        tick();
        if (done_)
            return;
    }
}

uint32_t Twin::axi_read(uint32_t offset)
{
    axi_ = AxiState::Read;
    axi_complete_ = false;
    top_->s_axil_araddr = offset & 0xFFFu;
    top_->s_axil_arvalid = 1;
    top_->s_axil_rready = 1;
    top_->eval();
    const uint64_t t0 = cycle_;
    while (!axi_complete_) {
        if (cycle_ - t0 > kAxiTimeoutCycles) {
            ++axi_timeouts_;
            top_->s_axil_arvalid = 0;
            top_->s_axil_rready = 0;
            top_->eval();
            axi_ = AxiState::Idle;
            return 0xFFFFFFFFu;
        }
        tick();
    }
    axi_ = AxiState::Idle;
    return axi_rdata_;
}

void Twin::axi_write(uint32_t offset, uint32_t value)
{
    axi_ = AxiState::Write;
    axi_complete_ = false;
    top_->s_axil_awaddr = offset & 0xFFFu;
    top_->s_axil_awvalid = 1;
    top_->s_axil_wdata = value;
    top_->s_axil_wstrb = 0xF;
    top_->s_axil_wvalid = 1;
    top_->s_axil_bready = 1;
    top_->eval();
    const uint64_t t0 = cycle_;
    while (!axi_complete_) {
        if (cycle_ - t0 > kAxiTimeoutCycles) {
            ++axi_timeouts_;
            top_->s_axil_awvalid = 0;
            top_->s_axil_wvalid = 0;
            top_->s_axil_bready = 0;
            top_->eval();
            break;
        }
        tick();
    }
    axi_ = AxiState::Idle;
}

void Twin::start_workload(const TrafficConfig &cfg)
{
    start_workload(std::unique_ptr<MrdSource>(new TrafficGenerator(cfg)));
}

void Twin::start_workload(std::unique_ptr<MrdSource> source)
{
    gen_ = std::move(source);
    res_ = WorkloadResult{};
    start_cycle_ = cycle_;
    last_progress_cycle_ = cycle_;
    gave_up_ = false;
    cancelled_ = false;
    done_ = false;
    done_cycle_ = 0;
    have_next_ = false;
}

void Twin::cancel_workload()
{
    cancelled_ = true;
    have_next_ = false; // drawn from the generator but never issued: not counted
}

bool Twin::workload_done() const { return gen_ && done_; }

WorkloadResult Twin::finish_workload()
{
    res_.sim_cycles = (done_ ? done_cycle_ : cycle_) - start_cycle_;
    gen_.reset();
    have_next_ = false;
    return res_;
}

} // namespace ps
