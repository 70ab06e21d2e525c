// pcie-scope graph kernels: the ONE definition of each EMOGI-style graph kernel's index
// arithmetic, shared by the CUDA kernels (native/cuda/graph_kernel_body.h) and the traffic model
// (graph_traffic.h), like patterns.h for the microbenchmarks.
//
// The graph is a CSR (graph.h): vertex offsets and all per-vertex state live in GPU memory; only
// the edge list (neighbour ids of `id_bytes` = 4 or 8 B, from a 128-B aligned base) and, for
// SSSP, the edge weights (4 B each, a second array from the next 128-B boundary after the edge
// list, graph_weight_offset) live in host memory, so only their loads cross PCIe. Vertex v's
// list is elements [begin, end) = [offsets[v], offsets[v + 1]). A kernel is written as its
// threads compute it:
//
//     v = graph_vertex_of_thread(k, thread); lane = graph_lane_of_thread(k, thread);
//     if (v is in this launch's frontier)
//         for (step = 0; step < graph_steps(k, begin, end, id_bytes); ++step)
//             if (graph_edge_index(k, begin, end, id_bytes, lane, step, &i))
//                 visit(load(edges + i * id_bytes)   // one id_bytes-wide load per lane
//                       [, load(weights + 4 i)]);    // SSSP: then its weight
//
// Each kernel is an algorithm (what a visit does and which vertices are in a launch's frontier)
// in an access form (which lane reads which element; every algorithm has all three, EMOGI shipped
// naive for BFS only), docs/gpu-coalescing.md §5 after EMOGI:
//   naive    a thread per vertex: step s reads element begin + s. The 32 lanes of a warp walk
//            32 unrelated lists, so one instruction touches up to 32 lines.
//   merged   a warp per vertex: lane l of step s reads begin + 32 s + l, so a step reads 32
//            consecutive ids (128 B with 4-B ids, 256 B with 8-B), split at every line
//            boundary the list's start puts inside the span.
//   aligned  as merged, but the loop starts at `begin` rounded down to a 128-B boundary of the
//            edge list (32 ids of 4 B, 16 of 8 B): lane l of step s reads first + 32 s + l and is
//            active only at or after `begin`, so every step's span of ids starts on a line.
// Algorithms (the frontier of each launch: graph_launches.h; the CPU answers: graph_reference.h):
//   bfs       level-synchronous: launch L's frontier is the vertices of level L; a visit labels
//             an unreached neighbour L + 1.
//   sssp      frontier Bellman-Ford: a frontier vertex offers dist + weight to each neighbour
//             (atomicMin into the next distances); the next frontier is the vertices whose
//             distance fell. Relaxation reads the distances of the previous launch, so the
//             frontiers do not depend on thread order (Harish & Narayanan's two-kernel SSSP).
//   cc        min-label propagation, the same rule with weight 0 and every vertex starting in
//             the frontier with its own id as label.
//   pagerank  pull, every vertex every iteration (kPageRankIterations launches): a vertex sums
//             its neighbours' contributions score / degree; no atomics, so no order effects.
//
// A warp's loop runs max(steps) of its active threads; a thread past its own steps is an
// inactive lane of that instruction (the model masks it the same way).
#ifndef PCIE_SCOPE_MODEL_GRAPH_KERNELS_H
#define PCIE_SCOPE_MODEL_GRAPH_KERNELS_H

#include <stdint.h>

#include "patterns.h"

namespace ps {

constexpr uint32_t kBfsUnreached = 0xFFFFFFFFu; // a BFS level no vertex has yet
constexpr uint32_t kSsspInfinity = 0xFFFFFFFFu; // an SSSP distance no path gives yet
constexpr uint32_t kGraphWeightBytes = 4;       // SSSP's edge weights: u32, 1..255 (graph.h)

enum class GraphAlgorithm : uint8_t {
    Bfs,
    Sssp,
    Cc,
    PageRank
};
enum class GraphAccess : uint8_t {
    Naive,
    Merged,
    Aligned
};

// No default in these switches: a kernel added to the spec without its meaning fails the build
// (-Werror=switch).
PS_HD inline GraphAlgorithm graph_algorithm(GraphKernel k)
{
    switch (k) {
    case GraphKernel::BfsNaive:
    case GraphKernel::BfsMerged:
    case GraphKernel::BfsAligned:
        return GraphAlgorithm::Bfs;
    case GraphKernel::SsspNaive:
    case GraphKernel::SsspMerged:
    case GraphKernel::SsspAligned:
        return GraphAlgorithm::Sssp;
    case GraphKernel::CcNaive:
    case GraphKernel::CcMerged:
    case GraphKernel::CcAligned:
        return GraphAlgorithm::Cc;
    case GraphKernel::PagerankNaive:
    case GraphKernel::PagerankMerged:
    case GraphKernel::PagerankAligned:
        return GraphAlgorithm::PageRank;
    }
    return GraphAlgorithm::Bfs;
}

PS_HD inline GraphAccess graph_access(GraphKernel k)
{
    switch (k) {
    case GraphKernel::BfsNaive:
    case GraphKernel::SsspNaive:
    case GraphKernel::CcNaive:
    case GraphKernel::PagerankNaive:
        return GraphAccess::Naive;
    case GraphKernel::BfsMerged:
    case GraphKernel::SsspMerged:
    case GraphKernel::CcMerged:
    case GraphKernel::PagerankMerged:
        return GraphAccess::Merged;
    case GraphKernel::BfsAligned:
    case GraphKernel::SsspAligned:
    case GraphKernel::CcAligned:
    case GraphKernel::PagerankAligned:
        return GraphAccess::Aligned;
    }
    return GraphAccess::Naive;
}

// Threads that share one vertex: 1 (thread per vertex) or the warp.
PS_HD inline uint32_t graph_lanes_per_vertex(GraphKernel k)
{
    return graph_access(k) == GraphAccess::Naive ? 1 : kWarpSize;
}

// Host-memory loads per loop step: the neighbour id, and for SSSP then its weight.
PS_HD inline uint32_t graph_step_loads(GraphKernel k)
{
    return graph_algorithm(k) == GraphAlgorithm::Sssp ? 2 : 1;
}

// The value a visit offers neighbour w of a frontier vertex holding `value` over an edge of
// `weight`: BFS levels, SSSP distances and CC labels all keep the minimum offered.
PS_HD inline uint32_t graph_relax_value(GraphAlgorithm a, uint32_t value, uint32_t weight)
{
    switch (a) {
    case GraphAlgorithm::Bfs:
        return value + 1;
    case GraphAlgorithm::Sssp:
        return value + weight;
    case GraphAlgorithm::Cc:
    case GraphAlgorithm::PageRank:
        return value;
    }
    return value;
}

// Threads to launch for `vertices` vertices (before rounding up to whole blocks).
PS_HD inline uint64_t graph_threads(GraphKernel k, uint64_t vertices)
{
    return vertices * graph_lanes_per_vertex(k);
}

PS_HD inline uint64_t graph_vertex_of_thread(GraphKernel k, uint64_t thread)
{
    return thread / graph_lanes_per_vertex(k);
}

// The thread's lane within its vertex's group (always 0 for a thread per vertex).
PS_HD inline uint32_t graph_lane_of_thread(GraphKernel k, uint64_t thread)
{
    return (uint32_t)(thread % graph_lanes_per_vertex(k));
}

// First element index of the loop: the list's start, or (aligned) the start rounded down to the
// 128-B line of the edge list that holds it.
PS_HD inline uint64_t graph_loop_first(GraphKernel k, uint64_t begin, uint32_t id_bytes)
{
    if (graph_access(k) != GraphAccess::Aligned)
        return begin;
    const uint64_t ids_per_line = kLineBytes / id_bytes;
    return begin - begin % ids_per_line;
}

// Loop trip count of a thread on the list [begin, end).
PS_HD inline uint64_t graph_steps(GraphKernel k, uint64_t begin, uint64_t end, uint32_t id_bytes)
{
    if (end <= begin)
        return 0;
    const uint64_t first = graph_loop_first(k, begin, id_bytes);
    const uint64_t lanes = graph_lanes_per_vertex(k);
    return ps_div_ceil(end - first, lanes);
}

// Element index read by `lane` in loop step `step` of the list [begin, end); false when the lane
// is inactive in that step (before the list's start, or past its end).
PS_HD inline bool graph_edge_index(GraphKernel k, uint64_t begin, uint64_t end, uint32_t id_bytes,
                                   uint32_t lane, uint64_t step, uint64_t *index)
{
    const uint64_t first = graph_loop_first(k, begin, id_bytes);
    const uint64_t i = first + step * graph_lanes_per_vertex(k) + lane;
    *index = i;
    return i >= begin && i < end;
}

// Byte offset of element `index` from the edge list's 128-B aligned base.
PS_HD inline uint64_t graph_edge_offset(uint64_t index, uint32_t id_bytes)
{
    return index * id_bytes;
}

// Byte offset of the weight of element `index` from the same base: the weights follow the edge
// list of `edges` ids from its next 128-B boundary.
PS_HD inline uint64_t graph_weight_offset(uint64_t index, uint64_t edges, uint32_t id_bytes)
{
    return ps_div_ceil(edges * id_bytes, kLineBytes) * kLineBytes + index * kGraphWeightBytes;
}

// Bytes of host memory a kernel reads from, whole lines: the edge list, and SSSP's weights.
PS_HD inline uint64_t graph_host_bytes(GraphKernel k, uint64_t edges, uint32_t id_bytes)
{
    const uint64_t end = graph_step_loads(k) == 2 ? graph_weight_offset(edges, edges, id_bytes)
                                                  : graph_edge_offset(edges, id_bytes);
    return ps_div_ceil(end, kLineBytes) * kLineBytes;
}

// Byte offset read by load `load` (0: the id, 1: SSSP's weight) of element `index`.
PS_HD inline uint64_t graph_load_offset(uint32_t load, uint64_t index, uint64_t edges,
                                        uint32_t id_bytes)
{
    return load == 0 ? graph_edge_offset(index, id_bytes)
                     : graph_weight_offset(index, edges, id_bytes);
}

// Width of load `load`'s lane accesses.
PS_HD inline uint32_t graph_load_bytes(uint32_t load, uint32_t id_bytes)
{
    return load == 0 ? id_bytes : kGraphWeightBytes;
}

// "bfs", "sssp", "cc", "pagerank": the GPU run's progress phase.
PS_HD inline const char *graph_algorithm_name(GraphAlgorithm a)
{
    switch (a) {
    case GraphAlgorithm::Bfs:
        return "bfs";
    case GraphAlgorithm::Sssp:
        return "sssp";
    case GraphAlgorithm::Cc:
        return "cc";
    case GraphAlgorithm::PageRank:
        return "pagerank";
    }
    return "?";
}

#if !defined(__CUDA_ARCH__)
inline const char *graph_kernel_name(GraphKernel k)
{
    for (const GraphKernelInfo &info : kGraphKernels)
        if (info.kernel == k)
            return info.name;
    return "?";
}

// Returns false for an unknown name.
inline bool graph_kernel_from_name(const char *name, GraphKernel *out)
{
    for (const GraphKernelInfo &info : kGraphKernels) {
        if (ps_str_eq(info.name, name)) {
            *out = info.kernel;
            return true;
        }
    }
    return false;
}

inline bool graph_id_bytes_valid(uint64_t e)
{
    for (uint32_t v : kGraphIdBytesValues)
        if (v == e)
            return true;
    return false;
}
#endif

} // namespace ps

#endif
