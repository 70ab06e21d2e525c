// pcie-scope graph traffic: a graph kernel of graph_kernels.h -> the MRd stream its host-memory
// loads put on the wire, lazily, launch by launch (BFS levels, SSSP and CC relaxation rounds,
// PageRank iterations: graph_launches.h, the frontiers a correct kernel reproduces).
//
// Per launch, the warps whose vertices are in the launch's frontier issue their loop steps as
// warp load instructions with the active-lane mask (SSSP's step is two: the ids, then their
// weights), through a resident set of `resident_warps` slots, round-robin (traffic.h's
// order): each turn issues one step of the warp in the slot; a finished warp's slot takes the
// next frontier warp in vertex order. Only edge-list loads cross PCIe (offsets and levels live in
// GPU memory). The ideal L1 is cleared at every launch: a kernel starts with a cold L1, and
// system-memory data never stays in L2 (docs/gpu-coalescing.md R2, R3).
//
// The ideal L1 is one sector bitmap over the edge list, shared by all warps: where two warps on
// different SMs read the same line (neighbouring lists share their boundary line), the GPU fetches
// it twice and the model once, so counts are a lower bound there; --l1 bypass is the upper bound.
//
// With l1_model Lru every launch's whole grid goes through the scheduled model instead
// (sm_schedule.h, docs/gpu-model.md): blocks over the SMs, an LRU L1 per SM, the same host loads
// (ids and SSSP's weights) as instructions of the warps' steps, and after each step the per-edge
// read of vertex state in GPU memory that shares the L1 (BFS labels[w], SSSP/CC next[w],
// PageRank contrib[w]: LevelProgram::warp_gpu_load).
#ifndef PCIE_SCOPE_MODEL_GRAPH_TRAFFIC_H
#define PCIE_SCOPE_MODEL_GRAPH_TRAFFIC_H

#include <stdint.h>

#include <vector>

#include "coalescer.h"
#include "graph.h"
#include "graph_kernels.h"
#include "graph_launches.h"
#include "traffic.h"

namespace ps {

struct GraphTrafficConfig {
    GraphKernel kernel = GraphKernel::BfsAligned;
    const Csr *graph = nullptr;
    uint64_t source = 0; // BFS, SSSP (CC and PageRank have none)
    uint64_t base = 0;   // 128-B aligned byte address of the edge list
    L1Mode l1 = L1Mode::Ideal;
    uint32_t resident_warps = kDefaultResidentWarps; // the ideal model's issue order
    // Ideal: one L1 over the edge list shared by all warps (above). Lru: each launch's whole grid
    // through the scheduled model (sm_schedule.h) on `gpu`, an LRU L1 per SM.
    L1Model l1_model = L1Model::Ideal;
    GpuModel gpu = default_gpu_model();
};

struct GraphTrafficCounts : TrafficCounts {
    uint32_t launches = 0;     // kernels launched so far that read host memory
    uint64_t loads = 0;        // lane loads of neighbour ids (and of SSSP's weights)
    uint64_t useful_bytes = 0; // the bytes those loads asked for
};

class GraphTrafficGenerator : public MrdSource {
public:
    // Throws GraphError PS_GRAPH_BAD_SOURCE when the kernel needs a source and it is not a vertex.
    explicit GraphTrafficGenerator(const GraphTrafficConfig &cfg);
    bool next(Mrd *out) override; // next MRd; false once the last level is done
    bool exhausted() const override { return done_; }
    const GraphTrafficCounts &counts() const { return counts_; }
    const GraphLaunchPlan &plan() const { return plan_; }

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
        uint32_t warp_gpu_load(uint64_t warp, uint64_t step, const WarpLoad &host,
                               WarpLoad *load) const override;

    private:
        const GraphTrafficGenerator &g_;
    };
    bool start_level();             // the next launch's frontier warps; false after the last
    bool fill(Slot *s);             // the next frontier warp of this launch into s
    bool expands(uint64_t v) const; // v is in the current launch's frontier
    uint64_t warp_steps(uint64_t warp) const;
    uint32_t warp_lanes(uint64_t warp, uint64_t step, WarpLoad *load) const;
    bool issue_instruction();
    bool issue_scheduled();
    void count_loads(const WarpLoad &load);

    GraphTrafficConfig cfg_;
    GraphLaunchPlan plan_;
    uint32_t level_ = 0; // the current launch
    bool started_ = false;
    std::vector<uint32_t> in_frontier_;    // level_ + 1 where the vertex is in the current frontier
    std::vector<uint64_t> frontier_warps_; // of the current launch, ascending
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
