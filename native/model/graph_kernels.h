// pcie-scope graph kernels: the ONE definition of each EMOGI-style traversal kernel's index
// arithmetic, shared by the CUDA kernels (native/cuda/graph_kernel_body.h) and the traffic model
// (graph_traffic.h), like patterns.h for the microbenchmarks.
//
// The graph is a CSR (graph.h): vertex offsets and all per-vertex state live in GPU memory; only
// the edge list (neighbour ids of `id_bytes` = 4 or 8 B, from a 128-B aligned base) lives in
// host memory, so only its loads cross PCIe. Vertex v's list is elements [begin, end) =
// [offsets[v], offsets[v + 1]). A kernel is written as its threads compute it:
//
//     v = graph_vertex_of_thread(k, thread); lane = graph_lane_of_thread(k, thread);
//     if (v is in this level's frontier)
//         for (step = 0; step < graph_steps(k, begin, end, id_bytes); ++step)
//             if (graph_edge_index(k, begin, end, id_bytes, lane, step, &i))
//                 visit(load(edges + i * id_bytes));   // one id_bytes-wide load per lane
//
// Kernels (spec/workloads.json `graphs.kernels`, docs/gpu-coalescing.md §5 after EMOGI):
//   bfs-naive    a thread per vertex: step s reads element begin + s. The 32 lanes of a warp walk
//                32 unrelated lists, so one instruction touches up to 32 lines.
//   bfs-merged   a warp per vertex: lane l of step s reads begin + 32 s + l, so a step reads 32
//                consecutive ids (128 B with 4-B ids, 256 B with 8-B), split at every line
//                boundary the list's start puts inside the span.
//   bfs-aligned  as merged, but the loop starts at `begin` rounded down to a 128-B boundary
//                (32 ids of 4 B, 16 of 8 B): lane l of step s reads first + 32 s + l and is
//                active only at or after `begin`, so every step's span starts on a line.
//
// A warp's loop runs max(steps) of its active threads; a thread past its own steps is an
// inactive lane of that instruction (the model masks it the same way).
#ifndef PCIE_SCOPE_MODEL_GRAPH_KERNELS_H
#define PCIE_SCOPE_MODEL_GRAPH_KERNELS_H

#include <stdint.h>

#include "patterns.h"

namespace ps {

constexpr uint32_t kBfsUnreached = 0xFFFFFFFFu; // a BFS level no vertex has yet

// Threads that share one vertex: 1 (thread per vertex) or the warp.
PS_HD inline uint32_t graph_lanes_per_vertex(GraphKernel k)
{
    switch (k) {
    case GraphKernel::BfsNaive:
        return 1;
    case GraphKernel::BfsMerged:
    case GraphKernel::BfsAligned:
        return kWarpSize;
    }
    return 1;
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
// 128-B line that holds it.
PS_HD inline uint64_t graph_loop_first(GraphKernel k, uint64_t begin, uint32_t id_bytes)
{
    switch (k) {
    case GraphKernel::BfsNaive:
    case GraphKernel::BfsMerged:
        return begin;
    case GraphKernel::BfsAligned: {
        const uint64_t ids_per_line = kLineBytes / id_bytes;
        return begin - begin % ids_per_line;
    }
    }
    return begin;
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
