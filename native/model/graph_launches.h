// pcie-scope graph launches: which vertices each launch of a graph kernel expands, computed on the
// CPU by the kernels' own rule (graph_kernels.h), so the traffic model replays the launches a
// correct GPU run makes, in the same order and with the same frontiers.
//
// BFS, SSSP and CC share one rule: a frontier vertex offers graph_relax_value(value, weight) to
// each neighbour, which keeps the minimum; offers read the values of the previous launch, and the
// next frontier is the vertices whose value fell. Launch after launch until a frontier is empty.
// BFS starts with the source at 0 (its frontiers are the BFS levels), SSSP with the source at 0
// and edge weights, CC with every vertex labelled by its id and in the frontier. PageRank
// expands every vertex in each of its kPageRankIterations launches.
#ifndef PCIE_SCOPE_MODEL_GRAPH_LAUNCHES_H
#define PCIE_SCOPE_MODEL_GRAPH_LAUNCHES_H

#include <stdint.h>

#include <vector>

#include "graph.h"
#include "graph_kernels.h"

namespace ps {

// One launch that reads host memory: its frontier.
struct GraphLaunch {
    bool all = false;               // every vertex (PageRank), `vertices` left empty
    std::vector<uint64_t> vertices; // else the frontier, ascending
};

struct GraphLaunchPlan {
    std::vector<GraphLaunch> launches;
    std::vector<uint32_t> values; // BFS levels, SSSP distances, CC labels after the last launch
                                  // (empty for PageRank)
    uint64_t reached = 0;         // vertices with a finite value (BFS, SSSP); every vertex (CC, PR)
    uint64_t edges_read = 0;      // neighbour ids loaded over all launches: the frontiers' degrees
};

// Throws GraphError PS_GRAPH_BAD_SOURCE when a BFS or SSSP source is not a vertex.
GraphLaunchPlan graph_launch_plan(GraphKernel k, const Csr &g, uint64_t source);

} // namespace ps

#endif
