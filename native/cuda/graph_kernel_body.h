// pcie-scope graph kernels on the GPU: one thread's work in a launch of each algorithm, host- and
// device-compilable (PS_HD), so a C++ test runs every thread of every launch on the CPU and checks
// the answer against the CPU references (test/native/cuda/test_graph_kernel_body.cpp).
//
// The index arithmetic is native/model/graph_kernels.h, the same the traffic model replays.
//   BFS       level-synchronous (EMOGI's, topology-driven): every thread of every launch tests its
//             vertex; a vertex of the current level walks its neighbour list and labels each
//             unvisited neighbour level + 1. A neighbour labelled during this launch is not
//             expanded until the next one, so the order in which threads run does not matter.
//   SSSP, CC  relax_thread: a frontier vertex offers graph_relax_value(prev[v], weight) to each
//             neighbour w, min'ed into next[w] (atomicMin on the GPU); then relax_update, a
//             thread per vertex, makes the vertices whose value fell the next frontier. Offers
//             read `prev`, written only between launches, so thread order does not matter.
//   PageRank  pagerank_lane_sum: each lane sums contrib[w] (score / degree, computed per vertex
//             before the launch) over its share of the list; the warp adds the lanes' sums in a
//             fixed tree (shuffles on the GPU, graph_warp_sum on the CPU).
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

// One thread of an SSSP or CC launch. `load_weight(i)` returns edge i's weight (SSSP only; a
// zero-copy load beside the edge list). `min_into(&x, y)` keeps min(x, y) in x (atomicMin on the
// GPU).
template <class LoadId, class LoadWeight, class MinInto>
PS_HD inline void relax_thread(GraphKernel k, uint64_t thread, uint64_t vertices,
                               const uint64_t *offsets, uint32_t id_bytes, const LoadId &load_id,
                               const LoadWeight &load_weight, const unsigned char *frontier,
                               const uint32_t *prev, uint32_t *next, const MinInto &min_into)
{
    const uint64_t v = graph_vertex_of_thread(k, thread);
    if (v >= vertices || !frontier[v])
        return;
    const GraphAlgorithm a = graph_algorithm(k);
    const uint64_t begin = offsets[v], end = offsets[v + 1];
    const uint64_t steps = graph_steps(k, begin, end, id_bytes);
    const uint32_t lane = graph_lane_of_thread(k, thread);
    const uint32_t value = prev[v];
    for (uint64_t s = 0; s < steps; ++s) {
        uint64_t i;
        if (graph_edge_index(k, begin, end, id_bytes, lane, s, &i)) {
            const uint64_t w = load_id(i);
            const uint32_t weight = a == GraphAlgorithm::Sssp ? load_weight(i) : 0;
            const uint32_t offer = graph_relax_value(a, value, weight);
            if (offer < next[w])
                min_into(&next[w], offer);
        }
    }
}

// After a relax launch, a thread per vertex: v joins the next frontier when its value fell.
// Returns true when it did (the launch's "changed").
PS_HD inline bool relax_update(uint64_t v, const uint32_t *next, uint32_t *prev,
                               unsigned char *frontier)
{
    const bool fell = next[v] < prev[v];
    frontier[v] = fell ? 1 : 0;
    if (fell)
        prev[v] = next[v];
    return fell;
}

// PageRank before each pull launch, a thread per vertex: what v gives each neighbour.
PS_HD inline float pagerank_contrib(uint64_t v, const uint64_t *offsets, const float *score)
{
    const uint64_t degree = offsets[v + 1] - offsets[v];
    return degree ? score[v] / (float)degree : 0.0f;
}

// One lane's share of vertex v's pull sum.
template <class LoadId>
PS_HD inline float pagerank_lane_sum(GraphKernel k, uint64_t thread, uint64_t vertices,
                                     const uint64_t *offsets, uint32_t id_bytes,
                                     const LoadId &load_id, const float *contrib)
{
    const uint64_t v = graph_vertex_of_thread(k, thread);
    if (v >= vertices)
        return 0.0f;
    const uint64_t begin = offsets[v], end = offsets[v + 1];
    const uint64_t steps = graph_steps(k, begin, end, id_bytes);
    const uint32_t lane = graph_lane_of_thread(k, thread);
    float sum = 0.0f;
    for (uint64_t s = 0; s < steps; ++s) {
        uint64_t i;
        if (graph_edge_index(k, begin, end, id_bytes, lane, s, &i))
            sum += contrib[load_id(i)];
    }
    return sum;
}

// The new score of a vertex whose neighbours' contributions add up to `sum`.
PS_HD inline float pagerank_score(float sum, uint64_t vertices)
{
    return (float)((1.0 - kPageRankDamping) / (double)vertices) + (float)kPageRankDamping * sum;
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

// The warp's sum of its 32 lanes' values in the order of the GPU's shuffle tree
// (x += __shfl_down_sync(x, 16), then 8, 4, 2, 1: lane 0 ends with the total).
inline float graph_warp_sum(float lanes[kWarpSize])
{
    for (uint32_t off = kWarpSize / 2; off > 0; off /= 2)
        for (uint32_t l = 0; l < off; ++l)
            lanes[l] += lanes[l + off];
    return lanes[0];
}

struct HostLoadWeight {
    const unsigned char *memory; // the kernel's host memory (Csr::host_bytes)
    uint64_t edges;
    uint32_t id_bytes;
    PS_HD uint32_t operator()(uint64_t i) const
    {
        uint32_t w;
        memcpy(&w, memory + graph_weight_offset(i, edges, id_bytes), sizeof w);
        return w;
    }
};

struct HostMinInto {
    PS_HD void operator()(uint32_t *x, uint32_t y) const { *x = y < *x ? y : *x; }
};

// SSSP distances or CC labels: every thread of every relax launch, then the update, until no
// value falls. `memory` is Csr::host_bytes(k); `launches` (may be null) gets the relax launches.
inline std::vector<uint32_t> relax_values_on_cpu(GraphKernel k, uint64_t vertices,
                                                 const uint64_t *offsets,
                                                 const unsigned char *memory, uint64_t edges,
                                                 uint32_t id_bytes, uint64_t source,
                                                 uint32_t *launches)
{
    const bool cc = graph_algorithm(k) == GraphAlgorithm::Cc;
    std::vector<uint32_t> prev(vertices, kSsspInfinity);
    std::vector<unsigned char> frontier(vertices, cc ? 1 : 0);
    for (uint64_t v = 0; cc && v < vertices; ++v)
        prev[v] = (uint32_t)v;
    if (!cc && source < vertices) {
        prev[source] = 0;
        frontier[source] = 1;
    }
    std::vector<uint32_t> next = prev;
    const HostLoadId load{memory, id_bytes};
    const HostLoadWeight weight{memory, edges, id_bytes};
    const HostMinInto min_into;
    const uint64_t threads = graph_threads(k, vertices);
    uint32_t n = 0;
    bool changed = true;
    while (changed) {
        for (uint64_t t = 0; t < threads; ++t)
            relax_thread(k, t, vertices, offsets, id_bytes, load, weight, frontier.data(),
                         prev.data(), next.data(), min_into);
        ++n;
        changed = false;
        for (uint64_t v = 0; v < vertices; ++v)
            changed = relax_update(v, next.data(), prev.data(), frontier.data()) || changed;
    }
    if (launches)
        *launches = n;
    return prev;
}

// PageRank scores after kPageRankIterations pull launches, lanes summed as the warp does.
inline std::vector<float> pagerank_on_cpu(GraphKernel k, uint64_t vertices, const uint64_t *offsets,
                                          const unsigned char *edges, uint32_t id_bytes)
{
    std::vector<float> score(vertices, 1.0f / (float)vertices), contrib(vertices);
    const HostLoadId load{edges, id_bytes};
    const uint32_t lanes = graph_lanes_per_vertex(k);
    for (uint32_t it = 0; it < kPageRankIterations; ++it) {
        for (uint64_t v = 0; v < vertices; ++v)
            contrib[v] = pagerank_contrib(v, offsets, score.data());
        for (uint64_t v = 0; v < vertices; ++v) {
            float part[kWarpSize] = {};
            for (uint32_t l = 0; l < lanes; ++l)
                part[l] = pagerank_lane_sum(k, v * lanes + l, vertices, offsets, id_bytes, load,
                                            contrib.data());
            score[v] = pagerank_score(lanes == 1 ? part[0] : graph_warp_sum(part), vertices);
        }
    }
    return score;
}

} // namespace ps::gpu

#endif
