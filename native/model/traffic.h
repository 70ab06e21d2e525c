// pcie-scope traffic generator: a pattern (patterns.h) -> the MRd stream the GPU puts on the
// wire, lazily, in instruction order (never materialised: buffers of many GiB are fine; memory
// is the L1 bitmap, 1 bit per 32-B sector = 4 MiB per GiB of buffer).
//
// Issue order: the warps of the launch are issued through a RESIDENT SET of `resident_warps`
// slots, round-robin: each step issues the next instruction (loop iteration) of the warp in the
// current slot, then moves to the next slot; a warp that finished its loop is replaced by the
// next not-yet-started warp (in warp order). Instructions with no active lane are skipped (the
// kernel's loop would have exited). The order changes timing (which MRds are close together),
// never the counts: every instruction is coalesced on its own (R4) and the ideal L1 never
// forgets.
//
// With the default resident set (the whole reference grid) the merged (grid-stride) patterns come
// out in address order; for strided, iteration i of 32 consecutive threads is one instruction
// touching 32 lines, and iteration i of every resident warp is issued before iteration i + 1.
#ifndef PCIE_SCOPE_MODEL_TRAFFIC_H
#define PCIE_SCOPE_MODEL_TRAFFIC_H

#include <stddef.h>
#include <stdint.h>

#include <vector>

#include "coalescer.h"
#include "patterns.h"
#include "sm_schedule.h"

namespace ps {

// The reference grid (8 x 132 blocks of 256 threads) fits the H200 at once (132 SMs x 64 warps):
// by default every warp of that grid is resident.
constexpr uint32_t kDefaultResidentWarps = (uint32_t)kDefaultGridWarps;

struct TrafficConfig {
    PatternSpec spec;
    uint64_t base = 0; // 128-B aligned byte address of the buffer
    L1Mode l1 = L1Mode::Ideal;
    uint32_t resident_warps = kDefaultResidentWarps; // the ideal model's issue order
    // Ideal: one L1 that never forgets, warps through the resident set above. Lru: the scheduled
    // model (sm_schedule.h) on `gpu`; the same counts as Ideal for the patterns, whose lines are
    // each read by one warp, as long as the L1 holds every line in flight. Both take the merge
    // window (R5) of `gpu` for default loads.
    L1Model l1_model = L1Model::Ideal;
    GpuModel gpu = default_gpu_model();
};

struct TrafficCounts {
    uint64_t instructions = 0; // dynamic load instructions issued (with >= 1 active lane)
    uint64_t mrds = 0;
    uint64_t mrd_bytes = 0;
    uint64_t by_size[kSizeClassCount] = {}; // by size class (generated/workloads.h)
};

// A lazy MRd stream, as the twin's requester pulls it: the microbenchmarks (TrafficGenerator)
// or a graph kernel (graph_traffic.h).
class MrdSource {
public:
    virtual ~MrdSource() = default;
    // Next MRd of the stream; false once the stream is exhausted.
    virtual bool next(Mrd *out) = 0;
    virtual bool exhausted() const = 0;
};

class TrafficGenerator : public MrdSource {
public:
    explicit TrafficGenerator(const TrafficConfig &cfg);
    // Next MRd of the stream; false once the stream is exhausted.
    bool next(Mrd *out) override;
    bool exhausted() const override { return done_; }
    const TrafficCounts &counts() const { return counts_; }
    const PatternShape &shape() const { return shape_; }
    const TrafficConfig &config() const { return cfg_; }
    // Warp `warp`'s loads in loop iteration `iter` (the pattern's arithmetic, offset and bounds:
    // lane l as pattern_access gives it); returns the active-lane mask.
    uint32_t warp_load(uint64_t warp, uint32_t iter, WarpLoad *load) const;

private:
    struct Slot {
        uint64_t warp;
        uint32_t iter;
        bool live;
    };
    // The pattern's warps as the scheduler sees them (patterns.h arithmetic).
    class Program : public WarpProgram {
    public:
        explicit Program(const TrafficGenerator &g) : g_(g) {}
        uint64_t grid_warps() const override { return g_.shape_.warps; }
        uint64_t warp_steps(uint64_t) const override { return g_.shape_.iterations; }
        uint32_t warp_load(uint64_t warp, uint64_t step, WarpLoad *load) const override
        {
            return g_.warp_load(warp, (uint32_t)step, load);
        }
        bool loads_back_to_back() const override { return true; }

    private:
        const TrafficGenerator &g_;
    };
    bool issue_instruction(); // fills buf_; false when no warp is left
    bool issue_scheduled();
    void fill_slot(Slot &s);

    TrafficConfig cfg_;
    PatternShape shape_;
    SectorBitmap l1_;
    Program program_{*this};
    std::vector<SmScheduler> scheduler_; // one, with L1Model::Lru
    std::vector<Slot> slots_;
    size_t cursor_ = 0;
    size_t slots_live_ = 0;
    uint64_t next_warp_ = 0;
    Mrd buf_[kMaxMrdsPerInstruction];
    WarpLoad ahead_[kMaxMergeWindow]; // R5: the warp's next loads
    int count_ = 0, pos_ = 0;
    bool done_ = false;
    TrafficCounts counts_;
};

} // namespace ps

#endif
