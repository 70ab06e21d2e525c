// pcie-scope graph references (graph_reference.h).
#include "graph_reference.h"

namespace ps {

std::vector<uint32_t> bfs_levels(const Csr &g, uint64_t source)
{
    std::vector<uint32_t> level(g.vertices, kBfsUnreached);
    if (source >= g.vertices)
        return level;
    std::vector<uint64_t> queue;
    queue.reserve(g.vertices);
    level[source] = 0;
    queue.push_back(source);
    for (size_t head = 0; head < queue.size(); ++head) {
        const uint64_t v = queue[head];
        for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) {
            const uint64_t w = g.neighbours[i];
            if (level[w] == kBfsUnreached) {
                level[w] = level[v] + 1;
                queue.push_back(w);
            }
        }
    }
    return level;
}

BfsSummary bfs_summary(const Csr &g, const std::vector<uint32_t> &levels)
{
    BfsSummary s;
    for (uint64_t v = 0; v < g.vertices; ++v) {
        if (levels[v] == kBfsUnreached)
            continue;
        ++s.reached;
        s.edges += g.degree(v);
        if (levels[v] > s.depth)
            s.depth = levels[v];
    }
    return s;
}

uint64_t bfs_default_source(const Csr &g)
{
    uint64_t best = 0;
    const uint64_t n = g.vertices < 1024 ? g.vertices : 1024;
    for (uint64_t v = 1; v < n; ++v)
        if (g.degree(v) > g.degree(best))
            best = v;
    return best;
}

} // namespace ps
