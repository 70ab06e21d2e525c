// pcie-scope coalescer: one warp's dynamic load instruction -> PCIe memory reads (MRds).
//
// Rules (docs/gpu-coalescing.md):
//   R1  each active lane's bytes map to 32-B sectors of 128-B lines;
//   R2  L1 (per SM): mode Ideal = a sector present OR pending is not fetched again (default
//       loads, __ldg); mode Off = every instruction fetches (ld.cg, volatile);
//   R3  no L2 reuse: every L1 miss is a PCIe read;
//   R4  per (instruction, line) with missing sectors: ONE MRd at line + 32*lo, length
//       32*(hi - lo + 1), lo/hi = lowest/highest missing sector; holes are over-fetched;
//       32/64/96/128 B, never across a 128-B line; MRds of one instruction in ascending address;
//   R5  merge window (per GPU, spec gpus mergeWindow = W): a cached read of a line merges with
//       the reads of the same line that the same warp's next W load instructions make, when those
//       follow it directly (no other load between): the sectors they miss join this
//       instruction's read (one MRd from the lowest to the highest), and the later instructions
//       find them pending. Bypassing loads never merge. W = 0 is the per-instruction model.
//
// The ideal L1 is one sector bitmap over the buffer. That equals a per-SM ideal L1 whenever a
// line is only ever touched by warps of one SM, which holds for every pattern in patterns.h (a
// line is read by one warp, or one thread). Sectors outside the bitmap are never cached.
#ifndef PCIE_SCOPE_MODEL_COALESCER_H
#define PCIE_SCOPE_MODEL_COALESCER_H

#include <stddef.h>
#include <stdint.h>

#include <vector>

#include "patterns.h"

namespace ps {

enum class L1Mode : uint8_t {
    Ideal = 0,
    Off = 1
};

// The spec's L1 load kinds (spec/workloads.json `l1`): bypass loads (ld.global.cg) are mode Off.
inline L1Mode l1_mode_of(L1Load l)
{
    switch (l) {
    case L1Load::Ideal:
        return L1Mode::Ideal;
    case L1Load::Bypass:
        return L1Mode::Off;
    }
    return L1Mode::Ideal;
}

struct Mrd {
    uint64_t addr;
    uint32_t len;
};

// One warp's dynamic load instruction.
struct WarpLoad {
    uint64_t addr[kWarpSize]; // byte address of each lane's load
    uint32_t active;          // bit l = lane l active
    uint32_t lane_bytes;      // 1, 2, 4, 8 or 16
    // Set by a producer that knows it (every lane active, lane l at addr[0] + l * lane_bytes),
    // so the coalescer skips checking it lane by lane; false: the coalescer checks. Every
    // producer sets it with the lanes.
    bool lanes_in_run = false;
};

// 32 lanes, each touching at most two lines (lane_bytes <= 16): at most 64 MRds.
constexpr int kMaxMrdsPerInstruction = 2 * kWarpSize;
// The longest merge window the model takes (R5).
constexpr uint32_t kMaxMergeWindow = 8;

// An L1 as the coalescer sees it (R2): per line, which of an instruction's sectors must be
// fetched. The ideal L1 (SectorBitmap) and the capacity-limited one (l1_lru.h) implement it.
class SectorCache {
public:
    virtual ~SectorCache() = default;
    // The sectors of `mask` (bit s = sector s) of the 128-B line at `line_addr` that are neither
    // present nor pending; records them as pending.
    virtual uint32_t fetch(uint64_t line_addr, uint32_t mask) = 0;
};

// Sector bitmap: "present or pending" sectors of [base, base + bytes); the ideal L1.
class SectorBitmap : public SectorCache {
public:
    SectorBitmap() = default;
    SectorBitmap(uint64_t base, uint64_t bytes) { reset(base, bytes); }
    void reset(uint64_t base, uint64_t bytes);
    void clear();
    // Per-line view: bit s = sector s of the 128-B line at `line_addr` is present.
    uint32_t line_mask(uint64_t line_addr) const;
    void set_line_mask(uint64_t line_addr, uint32_t mask);
    uint32_t fetch(uint64_t line_addr, uint32_t mask) override;
    uint64_t base() const { return base_; }
    uint64_t bytes() const { return bytes_; }

private:
    bool covers(uint64_t line_addr) const
    {
        return line_addr >= base_ && line_addr - base_ < bytes_;
    }
    uint64_t base_ = 0;          // 128-B aligned
    uint64_t bytes_ = 0;         // multiple of 128
    std::vector<uint64_t> bits_; // 4 bits per line, 16 lines per word
};

// Coalesces one instruction. `l1` may be null (treated as Off). Writes the MRds to `out`
// (capacity kMaxMrdsPerInstruction) in ascending address order and returns their number.
int coalesce(const WarpLoad &load, L1Mode mode, SectorBitmap *l1, Mrd *out);
// The same through any L1 model; `l1` null = no L1 (bypassing loads).
int coalesce_through(const WarpLoad &load, SectorCache *l1, Mrd *out);
// R5: `load` with the same warp's next `n_ahead` loads merged into its reads (lines this
// instruction reads with missing sectors take the sectors the later loads miss in the same
// line). `l1` null: no merging (bypassing loads), as coalesce_through.
int coalesce_ahead(const WarpLoad &load, const WarpLoad *ahead, uint32_t n_ahead, SectorCache *l1,
                   Mrd *out);

} // namespace ps

#endif
