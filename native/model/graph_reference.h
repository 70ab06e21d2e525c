// pcie-scope graph references: the CPU answers the graph kernels are checked against.
#ifndef PCIE_SCOPE_MODEL_GRAPH_REFERENCE_H
#define PCIE_SCOPE_MODEL_GRAPH_REFERENCE_H

#include <stdint.h>

#include <vector>

#include "graph.h"
#include "graph_kernels.h"

namespace ps {

// BFS level of every vertex from `source` (0 for the source, kBfsUnreached where no path leads),
// by a queue: the answer a level-synchronous kernel must reproduce.
std::vector<uint32_t> bfs_levels(const Csr &g, uint64_t source);

struct BfsSummary {
    uint32_t depth = 0;   // deepest level reached
    uint64_t reached = 0; // vertices with a level
    uint64_t edges = 0;   // directed edges of the reached vertices: the ones a BFS reads
};
BfsSummary bfs_summary(const Csr &g, const std::vector<uint32_t> &levels);

// A default source with at least one edge: the first vertex of largest degree among the first
// 1024 (deterministic; the hubs of a permuted Kronecker graph are anywhere).
uint64_t bfs_default_source(const Csr &g);

// SSSP distance of every vertex from `source` over Csr::edge_weights (kSsspInfinity where no path
// leads), by Dijkstra with a binary heap.
std::vector<uint32_t> sssp_distances(const Csr &g, uint64_t source);

// Connected components by union-find (union by size, path halving): a component id per vertex,
// the smallest vertex id of its component.
std::vector<uint32_t> cc_components(const Csr &g);

// Vertices where labelling `got` and labelling `want` disagree as partitions: v counts when the
// label got[v] was first seen with a different want label, or want[v] with a different got one
// (0 when the two name the same components, whatever the names).
uint64_t partition_mismatches(const std::vector<uint32_t> &got, const std::vector<uint32_t> &want);

// PageRank, pull, `iterations` rounds in double precision (GAP's recipe: every score starts at
// 1 / V; score(v) = (1 - damping) / V + damping * sum over neighbours u of score(u) / degree(u)).
std::vector<double> pagerank_scores(const Csr &g, uint32_t iterations, double damping);

// Vertices whose score lies further than `tolerance` x the reference from it.
uint64_t pagerank_mismatches(const std::vector<float> &got, const std::vector<double> &want,
                             double tolerance);

} // namespace ps

#endif
