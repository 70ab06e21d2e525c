// pcie-scope link model: how many TLP bytes per FPGA clock a PCIe link carries, and a gate that
// a TLP must pass before it starts on the wire. It is what makes a 32-B read cost more than a
// quarter of a 128-B read in the twin: every TLP pays its header and framing (docs/pcie.md, bytes
// on the wire) and the link carries only so many bytes per clock (§7).
//
// Capacity per direction = lanes x GT/s x line coding / 8, less the DLLP (Ack, UpdateFC) and
// SKP allowance of pcie-bench/pcie-model at MPS 256 (docs/pcie.md). Gen6 flit mode is not
// modelled.
#ifndef PCIE_SCOPE_MODEL_LINK_H
#define PCIE_SCOPE_MODEL_LINK_H

#include <stdint.h>

namespace ps {

constexpr uint32_t kTlpFramingBytes = 8; // STP/seq + LCRC (Gen1-5)
constexpr uint32_t kCplHeaderBytes = 12; // 3DW completion header

// Wire bytes of one MRd: 4DW header above 4 GiB, 3DW below, plus framing.
inline uint32_t mrd_wire_bytes(uint64_t addr)
{
    return (addr >> 32 ? 16u : 12u) + kTlpFramingBytes;
}
// Wire bytes of one completion carrying `payload` bytes.
inline uint32_t cpl_wire_bytes(uint32_t payload)
{
    return kCplHeaderBytes + kTlpFramingBytes + payload;
}

struct LinkConfig {
    uint32_t gen = 3;    // 1..5
    uint32_t lanes = 16; // 1, 2, 4, 8, 16
    bool ideal = false;  // no serialisation limit at all
};

// TLP bytes per second one direction carries; 0 for an unsupported generation or width.
inline double link_tlp_bytes_per_second(const LinkConfig &c)
{
    // per lane: GT/s and coding; AckLimit = FC_Guide at MPS 256 (bytes), docs/pcie.md
    static const double gts[] = {0, 2.5, 5.0, 8.0, 16.0, 32.0};
    static const double ack_limit[] = {0, 72, 123, 168, 168, 168};
    if (c.gen < 1 || c.gen > 5)
        return 0;
    if (c.lanes != 1 && c.lanes != 2 && c.lanes != 4 && c.lanes != 8 && c.lanes != 16)
        return 0;
    const double coding = c.gen <= 2 ? 8.0 / 10.0 : 128.0 / 130.0;
    const double raw = c.lanes * gts[c.gen] * 1e9 * coding / 8.0;
    const double allowance = 8.0 / ack_limit[c.gen] + 8.0 / ack_limit[c.gen] + 4.0 / 1538.0;
    return raw * (1.0 - allowance);
}

// The link as a port's Link Status reports it (speed 1 = 2.5 GT/s .., width in lanes). An ideal
// link has no speed of its own: it reports the fastest generation modelled (5) at x16.
inline uint32_t link_status_speed(const LinkConfig &c) { return c.ideal ? 5 : c.gen; }
inline uint32_t link_status_width(const LinkConfig &c) { return c.ideal ? 16 : c.lanes; }

// Parses "gen3x16" or "ideal". Returns false on anything else.
inline bool parse_link(const char *s, LinkConfig *out)
{
    LinkConfig c;
    if (s[0] == 'i' && s[1] == 'd' && s[2] == 'e' && s[3] == 'a' && s[4] == 'l' && s[5] == 0) {
        c.ideal = true;
        *out = c;
        return true;
    }
    if (s[0] != 'g' || s[1] != 'e' || s[2] != 'n' || s[3] < '1' || s[3] > '9' || s[4] != 'x')
        return false;
    c.gen = (uint32_t)(s[3] - '0');
    uint32_t lanes = 0;
    const char *p = s + 5;
    if (!*p)
        return false;
    for (; *p; ++p) {
        if (*p < '0' || *p > '9' || lanes > 100)
            return false;
        lanes = lanes * 10 + (uint32_t)(*p - '0');
    }
    c.lanes = lanes;
    if (link_tlp_bytes_per_second(c) <= 0)
        return false;
    *out = c;
    return true;
}

// Byte-credit gate for one direction, in micro-bytes so that runs are exact and repeatable.
// A TLP may start while the credit is not negative; starting it spends its wire bytes (the
// credit may go negative: the TLP occupies the wire for the following clocks). Credit refills
// every clock and is capped at one large TLP, so an idle link banks no burst.
class LinkGate {
public:
    LinkGate() = default;
    LinkGate(const LinkConfig &c, uint64_t clock_hz)
        : ideal_(c.ideal),
          rate_ub_(
              c.ideal ? 0 : (int64_t)(link_tlp_bytes_per_second(c) * 1e6 / (double)clock_hz + 0.5)),
          cap_ub_(rate_ub_ > kCapUb ? rate_ub_ : kCapUb)
    {}

    bool open() const { return ideal_ || credit_ub_ >= 0; }
    void send(uint32_t wire_bytes)
    {
        if (!ideal_)
            credit_ub_ -= (int64_t)wire_bytes * 1000000;
    }
    void tick()
    {
        if (ideal_)
            return;
        credit_ub_ += rate_ub_;
        if (credit_ub_ > cap_ub_)
            credit_ub_ = cap_ub_;
    }
    // TLP bytes per clock (0 when ideal)
    double bytes_per_clock() const { return (double)rate_ub_ / 1e6; }

private:
    static constexpr int64_t kCapUb = (int64_t)(kCplHeaderBytes + kTlpFramingBytes + 256) * 1000000;
    bool ideal_ = true;
    int64_t rate_ub_ = 0;
    int64_t cap_ub_ = kCapUb;
    int64_t credit_ub_ = 0;
};

} // namespace ps

#endif
