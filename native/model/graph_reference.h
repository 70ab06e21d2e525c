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

} // namespace ps

#endif
