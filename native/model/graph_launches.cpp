// pcie-scope graph launches (graph_launches.h).
#include "graph_launches.h"

#include <string>

namespace ps {

namespace {

// BFS, SSSP, CC: launches until nothing changes. A launch reads `prev` and writes `next`, as the
// GPU's relax kernel reads the old values and atomicMins into the new ones.
void plan_min_relax(GraphAlgorithm a, const Csr &g, uint64_t source, GraphLaunchPlan *plan)
{
    std::vector<uint32_t> prev(g.vertices, kSsspInfinity);
    GraphLaunch frontier;
    if (a == GraphAlgorithm::Cc) {
        for (uint64_t v = 0; v < g.vertices; ++v) {
            prev[v] = (uint32_t)v;
            frontier.vertices.push_back(v);
        }
    } else {
        prev[source] = 0;
        frontier.vertices.push_back(source);
    }
    const std::vector<uint32_t> weight =
        a == GraphAlgorithm::Sssp ? g.edge_weights() : std::vector<uint32_t>();
    std::vector<uint32_t> next = prev;
    while (!frontier.vertices.empty()) {
        for (uint64_t v : frontier.vertices) {
            plan->edges_read += g.degree(v);
            for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) {
                const uint32_t offer =
                    graph_relax_value(a, prev[v], weight.empty() ? 0 : weight[i]);
                uint32_t &w = next[g.neighbours[i]];
                w = offer < w ? offer : w;
            }
        }
        plan->launches.push_back(std::move(frontier));
        frontier = GraphLaunch();
        for (uint64_t v = 0; v < g.vertices; ++v) {
            if (next[v] < prev[v]) {
                frontier.vertices.push_back(v);
                prev[v] = next[v];
            }
        }
    }
    for (uint64_t v = 0; v < g.vertices; ++v)
        plan->reached += prev[v] != kSsspInfinity;
    plan->values = std::move(prev);
}

} // namespace

GraphLaunchPlan graph_launch_plan(GraphKernel k, const Csr &g, uint64_t source)
{
    GraphLaunchPlan plan;
    const GraphAlgorithm a = graph_algorithm(k);
    if (a == GraphAlgorithm::PageRank) {
        for (uint32_t i = 0; i < kPageRankIterations; ++i) {
            GraphLaunch all;
            all.all = true;
            plan.launches.push_back(all);
        }
        plan.reached = g.vertices;
        plan.edges_read = (uint64_t)kPageRankIterations * g.edges();
        return plan;
    }
    if (a != GraphAlgorithm::Cc && source >= g.vertices)
        throw GraphError("PS_GRAPH_BAD_SOURCE",
                         "source " + std::to_string(source) + " is not a vertex (the graph has "
                             + std::to_string(g.vertices) + ")");
    plan_min_relax(a, g, source, &plan);
    return plan;
}

} // namespace ps
