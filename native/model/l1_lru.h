// pcie-scope capacity-limited L1 of one SM (docs/gpu-model.md): fully associative, 128-B lines
// of four 32-B sectors, least-recently-used replacement (or random: the victim drawn from every
// held line by a seeded xorshift, so runs repeat), sector fill.
//
// A load whose line is absent allocates the line (evicting the least recently used one when
// full) and fetches only its own sectors; a load whose line is present fetches the sectors it
// needs that are neither present nor pending (an earlier fetch in flight counts as present, R2).
// Every access makes its line the most recently used. Capacity 0 keeps nothing: every load
// fetches all its sectors, as an L1-bypassing load does.
#ifndef PCIE_SCOPE_MODEL_L1_LRU_H
#define PCIE_SCOPE_MODEL_L1_LRU_H

#include <stdint.h>

#include <vector>

#include "coalescer.h"

namespace ps {

class LruL1 : public SectorCache {
public:
    explicit LruL1(uint32_t capacity_bytes = 0, bool random = false);
    void seed(uint64_t s) { rng_ = s * 0x9E3779B97F4A7C15ull | 1; }
    uint32_t fetch(uint64_t line_addr, uint32_t mask) override;
    void clear(); // a kernel launch starts cold
    uint32_t capacity_lines() const { return (uint32_t)slots_.size(); }
    uint32_t lines_held() const { return used_; }
    // The line's present-or-pending sectors, 0 when it is not held (tests).
    uint32_t sectors_of(uint64_t line_addr) const;
    uint64_t evictions() const { return evictions_; }

private:
    // Compact state (16 B a slot, 8 B a table entry): an SM's L1 is probed at random by gathers,
    // so the model's speed is its cache misses. Up to 65 535 lines, line addresses below 2^55.
    static constexpr uint32_t kNone = 0xFFFFu;
    static constexpr uint64_t kEmpty = ~0ull;
    struct Slot {
        uint64_t line; // line address
        uint16_t newer, older;
        uint8_t mask; // present-or-pending sectors
    };
    uint32_t find(uint64_t line_addr) const; // slot or kNone
    size_t home(uint64_t line_addr) const;
    void table_insert(uint64_t line_addr, uint32_t slot);
    void table_erase(uint64_t line_addr);
    void unlink(uint32_t s);
    void push_newest(uint32_t s);

    std::vector<Slot> slots_;
    // open addressing, linear probing, at most half full: (line address / 128) << 16 | slot, the
    // key kept with the slot so a probe reads one cache line; kEmpty = empty
    std::vector<uint64_t> table_;
    size_t table_mask_ = 0;
    uint32_t used_ = 0;
    uint32_t newest_ = kNone, oldest_ = kNone;
    uint64_t evictions_ = 0;
    bool random_ = false;
    uint64_t rng_ = 0x9E3779B97F4A7C15ull;
};

} // namespace ps

#endif
