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

// segment s's header: bits [128*s +: 128], word 4s = its bits [31:0] = DW3
inline void set_hdr(VlWide<4 * kMaxSegments> &port, unsigned s, const TlpHeader &h)
{
    for (unsigned i = 0; i < 4; ++i)
        port[4 * s + i] = h.dw[3 - i];
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
    segments_ = top_->segments();
    const LinkConfig ideal{0, 0, true}; // the link is ideal until set_link
    top_->link_gen = (CData)link_status_speed(ideal);
    top_->link_width = (CData)link_status_width(ideal);
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
    top_->link_gen = (CData)link_status_speed(link);
    top_->link_width = (CData)link_status_width(link);
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

// Called before the rising edge for every accepted beat (a valid segment and tx_cpl_tlp_ready):
// its segments in order, each continuing the completion in flight or starting one.
void Twin::sample_completion_beat()
{
    const uint32_t strb = top_->tx_cpl_tlp_strb;
    const uint32_t seg_dws = kBeatDws / segments_;
    for (unsigned s = 0; s < segments_; ++s) {
        if (!((top_->tx_cpl_tlp_valid >> s) & 1u))
            continue;
        if ((top_->tx_cpl_tlp_sop >> s) & 1u)
            start_completion(header_at(&top_->tx_cpl_tlp_hdr[0], s));
        if (!cpl_.active)
            continue; // segment without a start: ignore (counted at eop below)
        if (cpl_.has_data)
            check_payload_dws(strb, s * seg_dws, seg_dws);
        if ((top_->tx_cpl_tlp_eop >> s) & 1u)
            end_completion();
    }
}

// payload DW i of a CplD must read its address; enabled DWs are a run from the segment's start
// in every beat the responder sends, so that case compares without a branch per DW
void Twin::check_payload_dws(uint32_t strb, uint32_t first, uint32_t count)
{
    const uint32_t mask = (count >= 32 ? ~0u : ((1u << count) - 1u)) << first;
    const uint32_t enabled = strb & mask;
    if (first == 0 && count == kBeatDws && enabled == mask) {
        // a whole beat of payload, the commonest case: a loop of fixed length, which the
        // compiler turns into vector compares
        uint32_t diff = 0;
        for (uint32_t i = 0; i < kBeatDws; ++i)
            diff |= top_->tx_cpl_tlp_data[i] ^ (cpl_.next_value + 4 * i);
        if (diff != 0)
            cpl_.error = true;
        cpl_.next_value += 4 * kBeatDws;
        cpl_.dws_seen += kBeatDws;
        return;
    }
    const uint32_t run = (uint32_t)__builtin_popcount(enabled);
    if (enabled == ((run >= 32 ? ~0u : ((1u << run) - 1u)) << first)) {
        uint32_t diff = 0;
        for (uint32_t i = 0; i < run; ++i)
            diff |= top_->tx_cpl_tlp_data[first + i] ^ (cpl_.next_value + 4 * i);
        if (diff != 0)
            cpl_.error = true;
        cpl_.next_value += 4 * run;
        cpl_.dws_seen += run;
        return;
    }
    for (uint32_t j = first; j < first + count; ++j) { // scattered strobes: one DW at a time
        if (!((strb >> j) & 1u))
            continue;
        if (top_->tx_cpl_tlp_data[j] != cpl_.next_value)
            cpl_.error = true;
        cpl_.next_value += 4;
        ++cpl_.dws_seen;
    }
}

void Twin::start_completion(const TlpHeader &hdr)
{
    if (cpl_.active)
        ++res_.payload_errors; // previous one never saw eop
    cpl_ = CplRx{};
    cpl_.active = true;
    const CplInfo c = parse_cpl_header(hdr);
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

void Twin::end_completion()
{
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

// Puts up to segments_ MRds on the request stream, one per segment from segment 0, while the
// model has reads, tags are free and the link would carry them.
void Twin::drive_request()
{
    if (req_valid_)
        return;          // held until accepted
    LinkGate gate = up_; // the wire as it stands after the MRds already in this beat
    unsigned n = 0;
    while (n < segments_) {
        if (!have_next_ && gen_ && !cancelled_ && !gen_->exhausted())
            have_next_ = gen_->next(&next_);
        if (!have_next_ || free_count_ == 0 || outstanding_ + n >= tag_budget_ || !gate.open())
            break;
        req_tag_[n] = free_tags_[free_head_];
        free_head_ = (free_head_ + 1) % 256;
        --free_count_;
        req_[n] = next_;
        have_next_ = false;
        set_hdr(top_->rx_req_tlp_hdr, n,
                make_mrd_header(req_[n].addr, req_[n].len, req_tag_[n], requester_id_));
        gate.send(mrd_wire_bytes(req_[n].addr));
        ++n;
    }
    req_count_ = n;
    if (n == 0) {
        top_->rx_req_tlp_valid = 0;
        return;
    }
    const CData mask = (CData)((1u << n) - 1u);
    top_->rx_req_tlp_valid = mask;
    top_->rx_req_tlp_sop = mask;
    top_->rx_req_tlp_eop = mask;
    req_valid_ = true;
}

void Twin::tick()
{
    // 1. sample handshakes on the settled outputs (what the DUT will see at the edge)
    const bool req_fire = req_valid_ && top_->rx_req_tlp_ready;
    if (top_->tx_cpl_tlp_valid && top_->tx_cpl_tlp_ready)
        sample_completion_beat(); // any valid segment
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
        for (unsigned i = 0; i < req_count_; ++i) {
            const Mrd &r = req_[i];
            up_.send(mrd_wire_bytes(r.addr));
            tags_[req_tag_[i]] = TagState{r.addr, r.len, r.len, true};
            ++outstanding_;
            ++res_.mrds;
            res_.mrd_bytes += r.len;
            ++res_.by_size[size_class_of(r.len)];
        }
        req_count_ = 0;
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
    top_->s_axil_araddr = static_cast<SData>(offset & top_->csr_address_mask());
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
    top_->s_axil_awaddr = static_cast<SData>(offset & top_->csr_address_mask());
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
