#include "coalescer.h"

namespace ps {

void SectorBitmap::reset(uint64_t base, uint64_t bytes)
{
    base_ = base & ~(uint64_t)(kLineBytes - 1);
    const uint64_t end = base + bytes;
    bytes_ = ((end + kLineBytes - 1) & ~(uint64_t)(kLineBytes - 1)) - base_;
    const uint64_t lines = bytes_ / kLineBytes;
    bits_.assign((size_t)((lines + 15) / 16), 0);
}

void SectorBitmap::clear()
{
    for (auto &w : bits_)
        w = 0;
}

uint32_t SectorBitmap::line_mask(uint64_t line_addr) const
{
    if (!covers(line_addr))
        return 0;
    const uint64_t line = (line_addr - base_) / kLineBytes;
    return (uint32_t)(bits_[line / 16] >> (4 * (line % 16))) & 0xFu;
}

void SectorBitmap::set_line_mask(uint64_t line_addr, uint32_t mask)
{
    if (!covers(line_addr))
        return;
    const uint64_t line = (line_addr - base_) / kLineBytes;
    const unsigned sh = (unsigned)(4 * (line % 16));
    uint64_t &w = bits_[line / 16];
    w = (w & ~(0xFull << sh)) | ((uint64_t)(mask & 0xFu) << sh);
}

uint32_t SectorBitmap::fetch(uint64_t line_addr, uint32_t mask)
{
    const uint32_t present = line_mask(line_addr);
    const uint32_t missing = mask & ~present;
    if (missing)
        set_line_mask(line_addr, present | missing); // now pending
    return missing;
}

int coalesce(const WarpLoad &load, L1Mode mode, SectorBitmap *l1, Mrd *out)
{
    return coalesce_through(load, mode == L1Mode::Ideal ? l1 : nullptr, out);
}

namespace {

// R1 for a warp whose 32 lanes are all active and consecutive (lane i at addr[0] + i * w), the
// commonest load: its sectors are one run, so the (line, mask) pairs follow from the run's ends
// without a per-lane search. Returns the pairs' number, or -1 when the load is not such a warp.
int contiguous_lines(const WarpLoad &load, uint32_t w, uint64_t *lines, uint32_t *masks)
{
    if (load.active != 0xFFFFFFFFu)
        return -1;
    const uint64_t a0 = load.addr[0];
    if (!load.lanes_in_run)
        for (uint32_t lane = 1; lane < kWarpSize; ++lane)
            if (load.addr[lane] != a0 + (uint64_t)lane * w)
                return -1;
    const uint64_t first = a0 / kSectorBytes;
    const uint64_t last = (a0 + (uint64_t)kWarpSize * w - 1) / kSectorBytes;
    int n = 0;
    for (uint64_t s = first; s <= last; ++s) {
        const uint64_t line = (s * kSectorBytes) & ~(uint64_t)(kLineBytes - 1);
        const uint32_t bit = 1u << (s % kSectorsPerLine);
        if (n > 0 && lines[n - 1] == line) {
            masks[n - 1] |= bit;
        } else {
            if (n == kMaxMrdsPerInstruction)
                return -1; // the general path keeps the first lines; so must this
            lines[n] = line;
            masks[n] = bit;
            ++n;
        }
    }
    return n;
}

// R1 for any warp: lane by lane, each sector's line found among those seen (the first
// kMaxMrdsPerInstruction lines kept). Returns the pairs' number.
int lane_lines(const WarpLoad &load, uint32_t w, uint64_t *lines, uint32_t *masks)
{
    int n = 0;
    uint64_t max_line = 0;
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
        if (!((load.active >> lane) & 1u))
            continue;
        const uint64_t first = load.addr[lane];
        const uint64_t last = first + w - 1;
        for (uint64_t s = first / kSectorBytes; s <= last / kSectorBytes; ++s) {
            const uint64_t line = (s * kSectorBytes) & ~(uint64_t)(kLineBytes - 1);
            const uint32_t bit = 1u << (s % kSectorsPerLine);
            int i = -1;
            if (n > 0 && line <= max_line) { // lanes usually ascend: only search otherwise
                i = n - 1;
                while (i >= 0 && lines[i] != line)
                    --i;
            }
            if (i >= 0) {
                masks[i] |= bit;
            } else if (n < kMaxMrdsPerInstruction) {
                lines[n] = line;
                masks[n] = bit;
                if (n == 0 || line > max_line)
                    max_line = line;
                ++n;
            }
        }
    }
    return n;
}

// R1 for one instruction: its (line, sector mask) pairs.
int lines_of(const WarpLoad &load, uint64_t *lines, uint32_t *masks)
{
    const uint32_t w = load.lane_bytes ? load.lane_bytes : 1;
    const int n = contiguous_lines(load, w, lines, masks);
    return n < 0 ? lane_lines(load, w, lines, masks) : n;
}

// R4: one MRd from the lowest to the highest sector of `missing`.
Mrd read_of(uint64_t line, uint32_t missing)
{
    uint32_t lo = 0, hi = kSectorsPerLine - 1;
    while (!((missing >> lo) & 1u))
        ++lo;
    while (!((missing >> hi) & 1u))
        --hi;
    return Mrd{line + (uint64_t)kSectorBytes * lo, kSectorBytes * (hi - lo + 1)};
}

// R1 + R2: the instruction's lines in ascending order with the sectors each must fetch.
int coalesce_lines(const WarpLoad &load, SectorCache *l1, uint64_t *lines, uint32_t *masks,
                   uint32_t *missing)
{
    int n = lines_of(load, lines, masks);
    // Ascending line order (insertion sort: n is small and usually already sorted).
    for (int i = 1; i < n; ++i) {
        const uint64_t l = lines[i];
        const uint32_t m = masks[i];
        int j = i - 1;
        while (j >= 0 && lines[j] > l) {
            lines[j + 1] = lines[j];
            masks[j + 1] = masks[j];
            --j;
        }
        lines[j + 1] = l;
        masks[j + 1] = m;
    }
    // R2.
    for (int i = 0; i < n; ++i)
        missing[i] = l1 ? l1->fetch(lines[i], masks[i]) : masks[i];
    return n;
}

// Index of `line` among the ascending, distinct `lines`, or -1: a binary search, as a strided
// warp's 32 lines against its next load's 32 would otherwise cost a thousand compares.
int find_line(const uint64_t *lines, int n, uint64_t line)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (lines[mid] < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && lines[lo] == line ? lo : -1;
}

} // namespace

int coalesce_ahead(const WarpLoad &load, const WarpLoad *ahead, uint32_t n_ahead, SectorCache *l1,
                   Mrd *out)
{
    if (!l1 || n_ahead == 0)
        return coalesce_through(load, l1, out);
    uint64_t lines[kMaxMrdsPerInstruction];
    uint32_t masks[kMaxMrdsPerInstruction];
    uint32_t missing[kMaxMrdsPerInstruction];
    const int n = coalesce_lines(load, l1, lines, masks, missing);
    uint64_t next_lines[kMaxMrdsPerInstruction];
    uint32_t next_masks[kMaxMrdsPerInstruction];
    for (uint32_t a = 0; a < n_ahead; ++a) {
        const int m = lines_of(ahead[a], next_lines, next_masks);
        for (int j = 0; j < m; ++j) {
            const int i = find_line(lines, n, next_lines[j]);
            if (i >= 0 && missing[i])
                missing[i] |= l1->fetch(lines[i], next_masks[j]);
        }
    }
    int k = 0;
    for (int i = 0; i < n; ++i)
        if (missing[i])
            out[k++] = read_of(lines[i], missing[i]);
    return k;
}

int coalesce_through(const WarpLoad &load, SectorCache *l1, Mrd *out)
{
    uint64_t lines[kMaxMrdsPerInstruction];
    uint32_t masks[kMaxMrdsPerInstruction];
    uint32_t missing[kMaxMrdsPerInstruction];
    const int n = coalesce_lines(load, l1, lines, masks, missing);
    int k = 0;
    for (int i = 0; i < n; ++i)
        if (missing[i])
            out[k++] = read_of(lines[i], missing[i]);
    return k;
}

} // namespace ps
