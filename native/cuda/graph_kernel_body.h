// pcie-scope graph kernels on the GPU: one BFS thread's work for a level, host- and
// device-compilable (PS_HD), so a C++ test runs every thread of every level on the CPU and checks
// the levels against the queue-based reference (test/native/cuda/test_graph_kernel_body.cpp).
//
// The index arithmetic is native/model/graph_kernels.h, the same the traffic model replays. A
// level-synchronous BFS (EMOGI's, topology-driven): every thread of every launch tests its vertex;
// a vertex of the current level walks its neighbour list and labels each unvisited neighbour
// level + 1. A neighbour labelled during this launch is not expanded until the next one, so the
// order in which threads run does not change the result.
#ifndef PCIE_SCOPE_CUDA_GRAPH_KERNEL_BODY_H
#define PCIE_SCOPE_CUDA_GRAPH_KERNEL_BODY_H

#include <stdint.h>
#include <string.h>

#include <vector>

#include "graph_kernels.h"

namespace ps::gpu {

// One thread of a BFS level launch. `load_id(i)` returns neighbour id i of the edge list (a
// zero-copy load on the GPU). Returns true when it labelled a vertex (the launch's "changed").
template <class LoadId>
PS_HD inline bool bfs_thread(GraphKernel k, uint64_t thread, uint64_t vertices, uint32_t level,
                             const uint64_t *offsets, uint32_t id_bytes, const LoadId &load_id,
                             uint32_t *labels)
{
    const uint64_t v = graph_vertex_of_thread(k, thread);
    if (v >= vertices || labels[v] != level)
        return false;
    const uint64_t begin = offsets[v], end = offsets[v + 1];
    const uint64_t steps = graph_steps(k, begin, end, id_bytes);
    const uint32_t lane = graph_lane_of_thread(k, thread);
    bool changed = false;
    for (uint64_t s = 0; s < steps; ++s) {
        uint64_t i;
        if (graph_edge_index(k, begin, end, id_bytes, lane, s, &i)) {
            const uint64_t w = load_id(i);
            if (labels[w] == kBfsUnreached) {
                labels[w] = level + 1;
                changed = true;
            }
        }
    }
    return changed;
}

// ---- host side: the same kernel run on the CPU (not guarded: nvcc's device pass sees it too) --

struct HostLoadId {
    const unsigned char *edges;
    uint32_t id_bytes;
    PS_HD uint64_t operator()(uint64_t i) const
    {
        uint64_t v = 0;
        memcpy(&v, edges + graph_edge_offset(i, id_bytes), id_bytes); // little-endian host
        return v;
    }
};

// Every thread of every launch, launch after launch until one changes nothing: the levels the
// GPU must produce. `launches` (may be null) gets the number of launches.
inline std::vector<uint32_t> bfs_levels_on_cpu(GraphKernel k, uint64_t vertices,
                                               const uint64_t *offsets, const unsigned char *edges,
                                               uint32_t id_bytes, uint64_t source,
                                               uint32_t *launches)
{
    std::vector<uint32_t> labels(vertices, kBfsUnreached);
    if (source < vertices)
        labels[source] = 0;
    const HostLoadId load{edges, id_bytes};
    const uint64_t threads = graph_threads(k, vertices);
    uint32_t level = 0;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint64_t t = 0; t < threads; ++t)
            changed = bfs_thread(k, t, vertices, level, offsets, id_bytes, load, labels.data())
                || changed;
        ++level;
    }
    if (launches)
        *launches = level;
    return labels;
}

} // namespace ps::gpu

#endif
