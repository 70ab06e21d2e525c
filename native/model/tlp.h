// pcie-scope TLP header images: layout, byte enables and the last-completion rule (docs/pcie.md).
//
// A header image is 128 bits in wire order, big-endian: DW0 in [127:96], DW1 [95:64], DW2 [63:32],
// DW3 [31:0] (zero for a 3DW header). Here it is `TlpHeader::dw[0..3]` with dw[0] = DW0, or two
// uint64 (`hi()` = {DW0, DW1}, `lo()` = {DW2, DW3}). For a Verilated 128-bit port (VlWide<4>,
// word 0 = bits [31:0]) word i = dw[3 - i].
#ifndef PCIE_SCOPE_MODEL_TLP_H
#define PCIE_SCOPE_MODEL_TLP_H

#include <stdint.h>

#include "patterns.h" // PS_HD

namespace ps {

constexpr uint16_t kGpuRequesterId = 0x0100; // bus 1, device 0, function 0
constexpr uint16_t kBarCompleterId = 0x0200; // docs/contracts.md §1

enum : uint8_t {
    kTlpByte0MRd32 = 0x00,
    kTlpByte0MRd64 = 0x20,
    kTlpByte0Cpl = 0x0A,
    kTlpByte0CplD = 0x4A,
};

enum : uint8_t {
    kCplStatusSC = 0,
    kCplStatusUR = 1,
    kCplStatusCRS = 2,
    kCplStatusCA = 4
};

struct TlpHeader {
    uint32_t dw[4];
    PS_HD uint64_t hi() const { return ((uint64_t)dw[0] << 32) | dw[1]; }
    PS_HD uint64_t lo() const { return ((uint64_t)dw[2] << 32) | dw[3]; }
    PS_HD static TlpHeader from_u64(uint64_t hi, uint64_t lo)
    {
        TlpHeader h;
        h.dw[0] = (uint32_t)(hi >> 32);
        h.dw[1] = (uint32_t)hi;
        h.dw[2] = (uint32_t)(lo >> 32);
        h.dw[3] = (uint32_t)lo;
        return h;
    }
};

// MRd for `len` bytes (1..4096) at byte address `addr`, 8-bit tag. 3DW below 4 GiB, 4DW above
// (docs/pcie.md, header image). Byte enables from the address and length (§3): Length 1 -> Last BE
// 0000.
PS_HD inline TlpHeader make_mrd_header(uint64_t addr, uint32_t len, uint8_t tag,
                                       uint16_t requester_id = kGpuRequesterId)
{
    const uint64_t first_dw = addr >> 2;
    const uint64_t last_dw = (addr + len - 1) >> 2;
    const uint32_t ndw = (uint32_t)(last_dw - first_dw + 1);
    const uint32_t lead = (uint32_t)(addr & 3);
    const uint32_t end = (uint32_t)((addr + len) & 3); // bytes used in the last DW, 0 = all 4
    uint32_t first_be = (0xFu << lead) & 0xFu;
    uint32_t last_be = end ? (0xFu >> (4 - end)) : 0xFu;
    if (ndw == 1) {
        first_be &= last_be;
        last_be = 0;
    }
    const bool is64 = (addr >> 32) != 0;
    TlpHeader h;
    h.dw[0] = ((uint32_t)(is64 ? kTlpByte0MRd64 : kTlpByte0MRd32) << 24) | (ndw & 0x3FFu);
    h.dw[1] = ((uint32_t)requester_id << 16) | ((uint32_t)tag << 8) | (last_be << 4) | first_be;
    if (is64) {
        h.dw[2] = (uint32_t)(addr >> 32);
        h.dw[3] = (uint32_t)addr & ~3u;
    } else {
        h.dw[2] = (uint32_t)addr & ~3u;
        h.dw[3] = 0;
    }
    return h;
}

struct CplInfo {
    uint8_t fmt;        // 3 bits
    uint8_t type;       // 5 bits
    bool is_completion; // Type 0101x
    bool has_data;      // CplD
    bool poisoned;      // EP
    uint32_t length_dw; // 1..1024 (0 in the header = 1024); 0 for a Cpl without data
    uint16_t completer_id;
    uint8_t status;
    uint32_t byte_count; // 1..4096 (0 in the header = 4096)
    uint16_t requester_id;
    uint8_t tag;
    uint8_t lower_addr; // 7 bits
};

PS_HD inline CplInfo parse_cpl_header(const TlpHeader &h)
{
    CplInfo c;
    c.fmt = (uint8_t)(h.dw[0] >> 29);
    c.type = (uint8_t)((h.dw[0] >> 24) & 0x1F);
    c.is_completion = (c.type >> 1) == 0x5;
    c.has_data = (c.fmt & 0x2) != 0;
    c.poisoned = ((h.dw[0] >> 14) & 1) != 0;
    const uint32_t len = h.dw[0] & 0x3FF;
    c.length_dw = c.has_data ? (len ? len : 1024) : 0;
    c.completer_id = (uint16_t)(h.dw[1] >> 16);
    c.status = (uint8_t)((h.dw[1] >> 13) & 0x7);
    const uint32_t bc = h.dw[1] & 0xFFF;
    c.byte_count = bc ? bc : 4096;
    c.requester_id = (uint16_t)(h.dw[2] >> 16);
    c.tag = (uint8_t)(h.dw[2] >> 8);
    c.lower_addr = (uint8_t)(h.dw[2] & 0x7F);
    return c;
}

// docs/pcie.md, completions: the completion is the last of its request iff BC <= room.
PS_HD inline bool cpl_is_last(const CplInfo &c)
{
    if (!c.has_data || c.status != kCplStatusSC)
        return true;
    const uint32_t room = c.length_dw * 4 - (c.lower_addr & 3u);
    return c.byte_count <= room;
}

// Builds a CplD/Cpl header (used by tests and stand-ins).
PS_HD inline TlpHeader make_cpl_header(bool with_data, uint32_t length_dw, uint8_t status,
                                       uint32_t byte_count, uint8_t tag, uint8_t lower_addr,
                                       uint16_t requester_id = kGpuRequesterId,
                                       uint16_t completer_id = kBarCompleterId)
{
    TlpHeader h;
    h.dw[0] = ((uint32_t)(with_data ? kTlpByte0CplD : kTlpByte0Cpl) << 24)
        | (with_data ? (length_dw & 0x3FFu) : 0u);
    h.dw[1] =
        ((uint32_t)completer_id << 16) | ((uint32_t)(status & 7u) << 13) | (byte_count & 0xFFFu);
    h.dw[2] = ((uint32_t)requester_id << 16) | ((uint32_t)tag << 8) | (lower_addr & 0x7Fu);
    h.dw[3] = 0;
    return h;
}

} // namespace ps

#endif
