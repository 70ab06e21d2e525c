// pcie-scope scheduled model: a kernel launch's blocks over the SMs of a GPU, each SM with its own
// capacity-limited L1 (l1_lru.h), so that L1 reuse, and its failure under pressure, comes out of
// the model instead of being assumed (docs/gpu-model.md).
//
//   Blocks    The grid's blocks (gpus.blockThreads threads = whole warps) start in block order:
//             first round-robin over the SMs (block b on SM b % sms) until every SM holds its
//             resident limit, min(maxBlocksPerSm, maxWarpsPerSm / warps per block); afterwards a
//             block starts on an SM when one of that SM's blocks ends. A block ends when its last
//             warp has issued its last load; a block with nothing to load ends at once.
//   Time      One global cycle issues one warp load instruction on each SM that has work, SMs in
//             index order; instructions with no active lane are not issued.
//   Warps     On an SM, resident warps in age order (block start, then warp in block):
//             RoundRobin issues one instruction per warp in turn; Greedy keeps issuing the same
//             warp until one of its instructions misses in L1 (its data is a round trip away),
//             then moves on to the next warp in age order.
//   L1        Per SM, cold at every launch; L1-bypassing loads skip it.
//
// What the warps load is a WarpProgram: the pattern arithmetic of patterns.h / graph_kernels.h
// stays there; the scheduler only asks each warp for its trip count and its instruction of a step.
#ifndef PCIE_SCOPE_MODEL_SM_SCHEDULE_H
#define PCIE_SCOPE_MODEL_SM_SCHEDULE_H

#include <stdint.h>

#include <vector>

#include "coalescer.h"
#include "l1_lru.h"

namespace ps {

// How default (non-bypassing) loads use L1: one ideal L1 that never forgets (what the twin teaches
// with), or the scheduled model with an LRU L1 per SM.
enum class L1Model : uint8_t {
    Ideal = 0,
    Lru = 1
};
constexpr const char *kL1ModelNameList = "ideal, lru";
const char *l1_model_name(L1Model m);
bool l1_model_from_name(const char *name, L1Model *out); // false for an unknown name

enum class WarpOrder : uint8_t {
    RoundRobin = 0,
    Greedy = 1
};
constexpr const char *kWarpOrderNameList = "round-robin, greedy";
const char *warp_order_name(WarpOrder o);
bool warp_order_from_name(const char *name, WarpOrder *out); // false for an unknown name

struct GpuModel {
    uint32_t sms = 1;
    uint32_t l1_bytes = 0;  // per SM
    bool l1_random = false; // random replacement (else least recently used)
    // a cached read merges into the same warp's read of the same line issued up to this many of
    // its load instructions before (coalescer.h R5); 0 = never
    uint32_t merge_window = 0;
    uint32_t max_blocks_per_sm = 1; // resident limits
    uint32_t max_warps_per_sm = 1;
    uint32_t block_threads = 32; // threads per block of the launch
    WarpOrder order = WarpOrder::RoundRobin;
};

// The spec's GPU (spec/workloads.json gpus) with the kernels' launch shape.
GpuModel gpu_model_of(const GpuInfo &gpu);
inline GpuModel default_gpu_model() { return gpu_model_of(kGpus[kGpuDefault]); }

// What one launch's warps do.
class WarpProgram {
public:
    virtual ~WarpProgram() = default;
    virtual uint64_t grid_warps() const = 0;              // warps of the grid's real threads
    virtual uint64_t warp_steps(uint64_t warp) const = 0; // loop trip count; 0 = exits at once
    // The warp's load instruction of loop step `step`: fills `load`, returns its active mask.
    virtual uint32_t warp_load(uint64_t warp, uint64_t step, WarpLoad *load) const = 0;
    // True when the warp's host loads follow each other with no other load between them (the
    // micro patterns): only then can a read merge into the warp's previous one (R5).
    virtual bool loads_back_to_back() const { return false; }
    // The default loads from GPU memory that follow the host load `host` (the warp's
    // instruction of step `step`), when the kernel makes any: they take L1 lines (and so evict
    // host-memory ones) but are no PCIe reads. Returns their active mask.
    virtual uint32_t warp_gpu_load(uint64_t /*warp*/, uint64_t /*step*/, const WarpLoad & /*host*/,
                                   WarpLoad * /*load*/) const
    {
        return 0;
    }
};

class SmScheduler {
public:
    explicit SmScheduler(const GpuModel &gpu);
    // A new launch of `program` (which must outlive it): every SM's L1 cold, blocks queued.
    // `bypass`: the loads skip L1.
    void launch(const WarpProgram *program, bool bypass);
    // Issues the next instruction: its MRds into `out` (kMaxMrdsPerInstruction), their number
    // returned; -1 once the launch has nothing left. `last_load()` is the instruction issued.
    int issue(Mrd *out);
    const WarpLoad &last_load() const { return load_; }
    uint32_t last_sm() const { return last_sm_; }
    const GpuModel &gpu() const { return gpu_; }
    uint32_t resident_blocks_limit() const { return blocks_per_sm_; }
    LruL1 &l1(uint32_t sm) { return l1_[sm]; }
    uint64_t blocks_started() const { return next_block_; }

private:
    struct Warp {
        uint64_t warp;
        uint64_t step, steps;
        uint32_t block; // index into the SM's block slots
    };
    struct Sm {
        std::vector<Warp> warps;          // resident, in age order
        std::vector<uint32_t> block_live; // per block slot: warps still running (0 = free)
        size_t cursor = 0;
    };
    bool start_block(uint32_t sm); // the next queued block that has work; false when none is left
    void retire(Sm &sm, size_t i); // warp i issued its last step

    GpuModel gpu_;
    uint32_t warps_per_block_ = 1;
    uint32_t blocks_per_sm_ = 1;
    const WarpProgram *program_ = nullptr;
    bool bypass_ = false;
    uint64_t blocks_ = 0, next_block_ = 0;
    std::vector<Sm> sms_;
    std::vector<LruL1> l1_;
    std::vector<uint32_t> active_; // SMs with resident warps, in index order
    size_t turn_ = 0;              // index into active_
    WarpLoad load_{}, gpu_load_{};
    WarpLoad ahead_[kMaxMergeWindow];         // the warp's next loads, for R5
    Mrd gpu_fetches_[kMaxMrdsPerInstruction]; // what GPU-memory loads fetch: not on PCIe
    uint32_t last_sm_ = 0;
};

} // namespace ps

#endif
