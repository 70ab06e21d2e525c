// pcie-scope graph traffic: a BFS kernel of graph_kernels.h -> the MRd stream its edge-list loads
// put on the wire, lazily, level by level (a level-synchronous BFS launches one kernel per level).
//
// Per level L (0 .. depth, the last launch finds nothing new and ends the loop), the warps whose
// vertices are in the frontier (BFS level L; the model takes the levels from the CPU reference,
// which a correct kernel reproduces) issue their loop steps as warp load instructions with the
// active-lane mask, through a resident set of `resident_warps` slots, round-robin (traffic.h's
// order): each turn issues one step of the warp in the slot; a finished warp's slot takes the
// next frontier warp in vertex order. Only edge-list loads cross PCIe (offsets and levels live in
// GPU memory). The ideal L1 is cleared at every launch: a kernel starts with a cold L1, and
// system-memory data never stays in L2 (docs/gpu-coalescing.md R2, R3).
//
// The ideal L1 is one sector bitmap over the edge list, shared by all warps: where two warps on
// different SMs read the same line (neighbouring lists share their boundary line), the GPU fetches
// it twice and the model once, so counts are a lower bound there; --l1 bypass is the upper bound.
#ifndef PCIE_SCOPE_MODEL_GRAPH_TRAFFIC_H
#define PCIE_SCOPE_MODEL_GRAPH_TRAFFIC_H

#include <stdint.h>

#include <vector>

#include "coalescer.h"
#include "graph.h"
#include "graph_kernels.h"
#include "traffic.h"

namespace ps {

struct GraphTrafficConfig {
    GraphKernel kernel = GraphKernel::BfsAligned;
    const Csr *graph = nullptr;
    uint64_t source = 0;
    uint64_t base = 0; // 128-B aligned byte address of the edge list
    L1Mode l1 = L1Mode::Ideal;
    uint32_t resident_warps = kDefaultResidentWarps; // the ideal model's issue order
    // Ideal: one L1 over the edge list shared by all warps (above). Lru: each launch's whole grid
    // through the scheduled model (sm_schedule.h) on `gpu`, an LRU L1 per SM.
    L1Model l1_model = L1Model::Ideal;
    GpuModel gpu = default_gpu_model();
};

struct GraphTrafficCounts : TrafficCounts {
    uint32_t launches = 0;     // kernels launched so far (levels)
    uint64_t loads = 0;        // lane loads of neighbour ids (each id_bytes wide)
    uint64_t useful_bytes = 0; // loads x id_bytes: the bytes the kernel asked for
};

class GraphTrafficGenerator : public MrdSource {
public:
    explicit GraphTrafficGenerator(const GraphTrafficConfig &cfg);
    bool next(Mrd *out) override; // next MRd; false once the last level is done
    bool exhausted() const override { return done_; }
    const GraphTrafficCounts &counts() const { return counts_; }
    const std::vector<uint32_t> &levels() const { return levels_; }
    uint32_t depth() const { return depth_; }

private:
    struct Slot {
        uint64_t warp;
        uint64_t step;
        uint64_t steps;
    };
    // One launch's grid as the scheduler sees it (graph_kernels.h arithmetic).
    class LevelProgram : public WarpProgram {
    public:
        explicit LevelProgram(const GraphTrafficGenerator &g) : g_(g) {}
        uint64_t grid_warps() const override;
        uint64_t warp_steps(uint64_t warp) const override { return g_.warp_steps(warp); }
        uint32_t warp_load(uint64_t warp, uint64_t step, WarpLoad *load) const override
        {
            return g_.warp_lanes(warp, step, load);
        }
        uint32_t warp_gpu_load(const WarpLoad &ids, WarpLoad *load) const override;

    private:
        const GraphTrafficGenerator &g_;
    };
    bool start_level(); // the next launch's frontier warps; false after the last
    bool fill(Slot *s); // the next frontier warp of this launch into s
    uint64_t warp_steps(uint64_t warp) const;
    uint32_t warp_lanes(uint64_t warp, uint64_t step, WarpLoad *load) const;
    bool issue_instruction();
    bool issue_scheduled();
    void count_loads(const WarpLoad &load);

    GraphTrafficConfig cfg_;
    std::vector<uint32_t> levels_;
    uint32_t depth_ = 0;
    uint32_t level_ = 0;
    bool started_ = false;
    std::vector<std::vector<uint64_t>> frontier_warps_; // per level, ascending
    size_t next_in_level_ = 0;
    std::vector<Slot> live_;
    size_t cursor_ = 0;
    SectorBitmap l1_;
    LevelProgram program_{*this};
    std::vector<SmScheduler> scheduler_; // one, with L1Model::Lru
    bool level_live_ = false;            // the scheduler holds a launch with work left
    Mrd buf_[kMaxMrdsPerInstruction];
    int count_ = 0, pos_ = 0;
    bool done_ = false;
    GraphTrafficCounts counts_;
};

} // namespace ps

#endif
