#include "host_root_complex.h"

#include "dut.h"

#include "Vswitch.h"
#ifdef PS_TWIN_SWITCH_S2
#include "Vswitch_s2.h"
#endif
#ifdef PS_TWIN_SWITCH_S4
#include "Vswitch_s4.h"
#endif

namespace ps {

namespace {
constexpr uint32_t kBeatDws = sizeof(((Vswitch *)nullptr)->up_rx_data) / 4; // 16 at 512 bits
// TLP segments per beat of a switch top (its headers: 4 words each)
template <class Top> constexpr unsigned segments_of()
{
    return sizeof(((Top *)nullptr)->up_rx_hdr) / 16;
}
constexpr uint32_t kMaxPayloadBytes = 256; // MPS of the modelled root port

uint32_t type_of(const TlpHeader &h) { return (h.dw[0] >> 24) & 0x1Fu; }
uint32_t fmt_of(const TlpHeader &h) { return h.dw[0] >> 29; }

// Header plus framing (docs/pcie.md, "Bytes on the wire") plus payload.
uint32_t wire_bytes(const TlpHeader &h, uint32_t payload_bytes)
{
    return ((fmt_of(h) & 1u) ? 16u : 12u) + 8u + payload_bytes;
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

template <class Top> void HostRootComplex::sample(const Top &top)
{
    constexpr unsigned segs = segments_of<Top>();
    constexpr uint32_t seg_dws = kBeatDws / segs;
    if (top.up_tx_valid && top.up_tx_ready) {
        for (unsigned s = 0; s < segs; ++s) {
            if (!((top.up_tx_valid >> s) & 1u))
                continue;
            if ((top.up_tx_sop >> s) & 1u) {
                const TlpHeader h = header_at(&top.up_tx_hdr[0], s);
                const uint32_t type = type_of(h);
                const bool with_data = (fmt_of(h) & 2u) != 0;
                const uint32_t len = h.dw[0] & 0x3FFu;
                from_switch_.send(wire_bytes(h, with_data ? (len ? len : 1024) * 4 : 0));
                if (type == 0x00 && !with_data)
                    take_request(h, top.bar_jitter); // MRd
                else if (type == 0x0A)
                    take_completion(h, top.up_tx_data[s * seg_dws]);
                else
                    ++unexpected_; // writes, messages, locked reads: nothing the GPU model sends
            }
            rx_in_tlp_ = !((top.up_tx_eop >> s) & 1u);
        }
    }
    if (offered_ && top.up_rx_valid && top.up_rx_ready) {
        // the beat is taken: the TLPs that ended in it leave, the last may run on
        for (Sending &t : tx_)
            t.sent += t.in_beat;
        while (!tx_.empty() && tx_.front().sent >= tx_.front().dws)
            tx_.pop_front();
        offered_ = false;
    }
}

// Queues the next CplD of the head read if it is due; false when none is.
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
    Sending t{};
    t.hdr = make_cpl_header(true, len_dw, kCplStatusSC, byte_count & 0xFFFu, r.tag,
                            (uint8_t)(first & 0x7F), r.requester, kHostId);
    t.hdr.dw[0] |= r.tc_attr;
    t.dws = len_dw;
    t.first = (uint32_t)(first & ~3ull);
    tx_.push_back(t);
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

bool HostRootComplex::start_next(uint16_t latency, uint8_t split)
{
    if (!to_switch_.open())
        return false;
    if (!cfg_out_.empty()) {
        const ConfigTlp req = cfg_out_.front();
        cfg_out_.pop_front();
        Sending t{};
        t.is_cfg = true;
        t.hdr = req.hdr;
        t.cfg_data = req.data;
        t.dws = (fmt_of(req.hdr) & 2u) ? 1 : 0;
        tx_.push_back(t);
    } else if (!next_completion(latency, split)) {
        return false;
    }
    to_switch_.send(wire_bytes(tx_.back().hdr, tx_.back().dws * 4));
    return true;
}

// Fills the next up_rx beat: the TLP begun in an earlier beat from segment 0, then new TLPs, each
// from the segment after the last one's end, while segments are left and the wire lets them start.
template <class Top> void HostRootComplex::compose(Top &top)
{
    constexpr unsigned segs = segments_of<Top>();
    constexpr uint32_t seg_dws = kBeatDws / segs;
    top.up_rx_valid = 0;
    top.up_rx_sop = 0;
    top.up_rx_eop = 0;
    for (uint32_t j = 0; j < kBeatDws; ++j)
        top.up_rx_data[j] = 0;
    for (unsigned i = 0; i < 4 * segs; ++i)
        top.up_rx_hdr[i] = 0;
    uint32_t strb = 0;
    unsigned seg = 0;
    size_t i = 0;
    while (seg < segs) {
        if (i == tx_.size() && !start_next(top.bar_latency, top.cpl_split))
            break;
        Sending &t = tx_[i];
        const bool sop = t.sent == 0;
        const uint32_t left = t.dws - t.sent;
        const uint32_t room = (segs - seg) * seg_dws;
        const uint32_t n = left < room ? left : room;
        const unsigned used = n == 0 ? 1 : (n + seg_dws - 1) / seg_dws;
        if (sop)
            for (int w = 0; w < 4; ++w)
                top.up_rx_hdr[4 * seg + w] = t.hdr.dw[3 - w];
        // payload DW i of a CplD = its first DW's address + 4 i; a loop per case, so each
        // vectorises
        uint32_t *dw = &top.up_rx_data[seg * seg_dws];
        if (t.is_cfg) {
            for (uint32_t j = 0; j < n; ++j)
                dw[j] = t.cfg_data;
        } else {
            const uint32_t base = t.first + 4u * t.sent;
            for (uint32_t j = 0; j < n; ++j)
                dw[j] = base + 4u * j;
        }
        strb |= (uint32_t)(((1ull << n) - 1u) << (seg * seg_dws));
        for (unsigned k = 0; k < used; ++k)
            top.up_rx_valid |= (CData)(1u << (seg + k));
        if (sop)
            top.up_rx_sop |= (CData)(1u << seg);
        t.in_beat = n;
        seg += used;
        ++i;
        if (n < left)
            break; // runs on into the next beat
        top.up_rx_eop |= (CData)(1u << (seg - 1));
    }
    top.up_rx_strb = (SData)strb;
    offered_ = i > 0;
}

template <class Top> void HostRootComplex::drive(Top &top)
{
    ++cycle_;
    to_switch_.tick();
    from_switch_.tick();
    if (!offered_)
        compose(top);
    // a new TLP waits for the wire; a new read also for room for a beat of reads of
    // kMaxPayloadBytes in the completion buffer, as the BAR responder's (bar_responder.v): a full
    // one returns no non-posted credit, so np_ok is low and the switch holds the reads back while
    // posted TLPs and completions still go (ready stays high, as at a real root port); the rest
    // of a started TLP goes at once
    constexpr unsigned segs = segments_of<Top>();
    const bool buffer_full = top.cpl_buffer_bytes != 0
        && reserved_bytes_ + segs * kMaxPayloadBytes > top.cpl_buffer_bytes;
    top.up_tx_ready = rx_in_tlp_ || from_switch_.open();
    top.up_tx_np_ok = !buffer_full;
}

template void HostRootComplex::sample<Vswitch>(const Vswitch &);
template void HostRootComplex::drive<Vswitch>(Vswitch &);
#ifdef PS_TWIN_SWITCH_S2
template void HostRootComplex::sample<Vswitch_s2>(const Vswitch_s2 &);
template void HostRootComplex::drive<Vswitch_s2>(Vswitch_s2 &);
#endif
#ifdef PS_TWIN_SWITCH_S4
template void HostRootComplex::sample<Vswitch_s4>(const Vswitch_s4 &);
template void HostRootComplex::drive<Vswitch_s4>(Vswitch_s4 &);
#endif

} // namespace ps
