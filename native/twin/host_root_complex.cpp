#include "host_root_complex.h"

#include "Vswitch.h"

namespace ps {

namespace {
constexpr uint32_t kBeatDws = sizeof(((Vswitch *)nullptr)->up_rx_data) / 4; // 16 at 512 bits
constexpr uint32_t kMaxPayloadBytes = 256; // MPS of the modelled root port

uint32_t type_of(const TlpHeader &h) { return (h.dw[0] >> 24) & 0x1Fu; }
uint32_t fmt_of(const TlpHeader &h) { return h.dw[0] >> 29; }

// Header plus framing (docs/pcie.md, "Bytes on the wire") plus payload.
uint32_t wire_bytes(const TlpHeader &h, uint32_t payload_bytes)
{
    return ((fmt_of(h) & 1u) ? 16u : 12u) + 8u + payload_bytes;
}

TlpHeader header_of(const VlWide<4> &port)
{
    TlpHeader h;
    for (int i = 0; i < 4; ++i)
        h.dw[3 - i] = port[i];
    return h;
}

uint32_t lowest_set(uint32_t be)
{
    uint32_t i = 0;
    while (i < 4 && !((be >> i) & 1u))
        ++i;
    return i;
}
uint32_t highest_set(uint32_t be)
{
    uint32_t i = 3;
    while (i > 0 && !((be >> i) & 1u))
        --i;
    return i;
}
} // namespace

HostRootComplex::HostRootComplex() = default;

void HostRootComplex::set_link(const LinkConfig &link, uint64_t clock_hz)
{
    to_switch_ = LinkGate(link, clock_hz);
    from_switch_ = LinkGate(link, clock_hz);
}

uint8_t HostRootComplex::cfg_issue(const CfgTarget &t, bool write, uint32_t data,
                                   uint8_t byte_enables)
{
    const uint8_t tag = next_tag_++;
    ConfigTlp req{};
    const uint32_t type = t.type1 ? 0x05u : 0x04u;
    req.hdr.dw[0] = ((write ? 2u : 0u) << 29) | (type << 24) | 1u;
    req.hdr.dw[1] = ((uint32_t)kHostId << 16) | ((uint32_t)tag << 8) | (byte_enables & 0xFu);
    req.hdr.dw[2] = ((uint32_t)t.bus << 24) | ((uint32_t)(t.device & 0x1F) << 19)
        | ((uint32_t)(t.function & 7) << 16) | ((uint32_t)(t.reg & 0x3FF) << 2);
    req.hdr.dw[3] = 0;
    req.data = data;
    cfg_done_.erase(tag);
    cfg_out_.push_back(req);
    return tag;
}

bool HostRootComplex::cfg_take(uint8_t tag, CfgResult *out)
{
    const auto it = cfg_done_.find(tag);
    if (it == cfg_done_.end())
        return false;
    *out = it->second;
    cfg_done_.erase(it);
    return true;
}

void HostRootComplex::take_request(const TlpHeader &h, uint16_t jitter)
{
    const uint32_t len = h.dw[0] & 0x3FFu;
    const uint32_t len_dw = len ? len : 1024;
    const uint32_t fbe = h.dw[1] & 0xFu;
    const uint32_t lbe = (h.dw[1] >> 4) & 0xFu;
    const uint64_t addr_dw =
        (fmt_of(h) & 1u) ? ((((uint64_t)h.dw[2]) << 32) | h.dw[3]) >> 2 : (uint64_t)(h.dw[2] >> 2);
    Read r{};
    const uint32_t lead = fbe ? lowest_set(fbe) : 0;
    const uint32_t trail = 3 - highest_set(len_dw == 1 ? fbe : lbe);
    r.addr = addr_dw * 4 + lead;
    r.bytes = (len_dw == 1 && fbe == 0) ? 0 : len_dw * 4 - lead - trail;
    r.requester = (uint16_t)(h.dw[1] >> 16);
    r.tag = (uint8_t)(h.dw[1] >> 8);
    r.tc_attr = h.dw[0] & 0x00F83000u; // T9, TC, T8, Attr2, Attr
    // the responder's draw: the LFSR scaled onto 0..jitter (multiply, keep the high half), then
    // the LFSR steps (x^16 + x^14 + x^13 + x^11 + 1); the read is due that much later
    const uint32_t draw = (uint32_t)(((uint64_t)lfsr_ * ((uint64_t)jitter + 1)) >> 16);
    lfsr_ = (uint16_t)((lfsr_ >> 1) ^ ((lfsr_ & 1u) ? 0xB400u : 0u));
    r.taken = cycle_ + 1 + draw;
    r.reserved = len_dw * 4;
    reserved_bytes_ += r.reserved;
    reads_.push_back(r);
}

void HostRootComplex::take_completion(const TlpHeader &h, uint32_t data0)
{
    const CplInfo c = parse_cpl_header(h);
    if (c.requester_id != kHostId) {
        ++unexpected_;
        return;
    }
    CfgResult r{};
    r.status = c.status;
    r.data = (c.status == kCplStatusSC && c.has_data) ? data0 : 0xFFFFFFFFu;
    cfg_done_[c.tag] = r;
}

void HostRootComplex::sample(const Vswitch &top)
{
    if (top.up_tx_valid && top.up_tx_ready) {
        if (top.up_tx_sop) {
            const TlpHeader h = header_of(top.up_tx_hdr);
            const uint32_t type = type_of(h);
            const bool with_data = (fmt_of(h) & 2u) != 0;
            const uint32_t len = h.dw[0] & 0x3FFu;
            from_switch_.send(wire_bytes(h, with_data ? (len ? len : 1024) * 4 : 0));
            if (type == 0x00 && !with_data)
                take_request(h, top.bar_jitter); // MRd
            else if (type == 0x0A)
                take_completion(h, top.up_tx_data[0]);
            else
                ++unexpected_; // writes, messages, locked reads: nothing the GPU model sends
        }
        rx_in_tlp_ = !top.up_tx_eop;
    }
    if (tx_.active && top.up_rx_valid && top.up_rx_ready) {
        tx_.sent += tx_.dws - tx_.sent < kBeatDws ? tx_.dws - tx_.sent : kBeatDws;
        if (top.up_rx_eop)
            tx_.active = false;
    }
}

// Builds the next CplD of the head read if it is due; false when none is.
bool HostRootComplex::next_completion(uint16_t latency, uint8_t split)
{
    if (reads_.empty())
        return false;
    const Read &r = reads_.front();
    const uint64_t wait = latency < 2 ? 2 : latency;
    if (split_done_ == 0 && cycle_ + 1 < r.taken + wait)
        return false;
    const bool split_on = split == 64 || split == 128;
    const uint64_t end_all = r.addr + r.bytes;
    const uint64_t first = r.addr + split_done_;
    const uint32_t remaining = r.bytes - split_done_;
    uint64_t end = end_all;
    const uint64_t rcb = split_on ? split : kMaxPayloadBytes;
    const uint64_t bound = (first | (rcb - 1)) + 1; // the next boundary above the first byte
    if (end > bound)
        end = bound;
    const bool last = end == end_all;
    const uint32_t len_dw = r.bytes == 0 ? 1 : (uint32_t)(((end + 3) >> 2) - (first >> 2));
    const uint32_t byte_count = r.bytes == 0 ? 1 : remaining;
    tx_ = Sending{};
    tx_.active = true;
    tx_.hdr = make_cpl_header(true, len_dw, kCplStatusSC, byte_count & 0xFFFu, r.tag,
                              (uint8_t)(first & 0x7F), r.requester, kHostId);
    tx_.hdr.dw[0] |= r.tc_attr;
    tx_.dws = len_dw;
    tx_.first = (uint32_t)(first & ~3ull);
    if (last) {
        reserved_bytes_ -= r.reserved;
        reads_.pop_front();
        split_done_ = 0;
        ++reads_answered_;
    } else {
        split_done_ += (uint32_t)(end - first);
    }
    return true;
}

void HostRootComplex::present(Vswitch &top)
{
    top.up_rx_valid = tx_.active;
    if (!tx_.active)
        return;
    top.up_rx_sop = tx_.sent == 0;
    const uint32_t left = tx_.dws - tx_.sent;
    const uint32_t n = left < kBeatDws ? left : kBeatDws;
    top.up_rx_eop = left <= kBeatDws;
    if (top.up_rx_sop)
        for (int i = 0; i < 4; ++i)
            top.up_rx_hdr[i] = tx_.hdr.dw[3 - i];
    uint32_t strb = 0;
    for (uint32_t j = 0; j < kBeatDws; ++j) {
        const bool on = j < n;
        top.up_rx_data[j] = !on ? 0u : tx_.is_cfg ? tx_.cfg_data : tx_.first + 4u * (tx_.sent + j);
        strb |= (on ? 1u : 0u) << j;
    }
    top.up_rx_strb = (SData)strb;
}

void HostRootComplex::drive(Vswitch &top)
{
    ++cycle_;
    to_switch_.tick();
    from_switch_.tick();
    if (!tx_.active && to_switch_.open()) {
        if (!cfg_out_.empty()) {
            const ConfigTlp req = cfg_out_.front();
            cfg_out_.pop_front();
            tx_ = Sending{};
            tx_.active = true;
            tx_.is_cfg = true;
            tx_.hdr = req.hdr;
            tx_.cfg_data = req.data;
            tx_.dws = (fmt_of(req.hdr) & 2u) ? 1 : 0;
        } else {
            next_completion(top.bar_latency, top.cpl_split);
        }
        if (tx_.active)
            to_switch_.send(wire_bytes(tx_.hdr, tx_.dws * 4));
    }
    present(top);
    // the rest of a started TLP at once; a new one waits for the wire, and for room for one more
    // read of kMaxPayloadBytes in the completion buffer, as the BAR responder's (bar_responder.v):
    // a full one returns no non-posted credit (only reads go up during a run)
    const bool buffer_full =
        top.cpl_buffer_bytes != 0 && reserved_bytes_ + kMaxPayloadBytes > top.cpl_buffer_bytes;
    top.up_tx_ready = rx_in_tlp_ || (from_switch_.open() && !buffer_full);
}

} // namespace ps
