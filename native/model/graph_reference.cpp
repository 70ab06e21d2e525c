// pcie-scope graph references (graph_reference.h).
#include "graph_reference.h"

#include <math.h>

#include <functional>
#include <queue>
#include <unordered_map>
#include <utility>

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

std::vector<uint32_t> sssp_distances(const Csr &g, uint64_t source)
{
    std::vector<uint32_t> dist(g.vertices, kSsspInfinity);
    if (source >= g.vertices)
        return dist;
    const std::vector<uint32_t> weight = g.edge_weights();
    using Item = std::pair<uint32_t, uint64_t>; // (distance, vertex), smallest first
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
    dist[source] = 0;
    heap.push({0, source});
    while (!heap.empty()) {
        const Item top = heap.top();
        heap.pop();
        if (top.first != dist[top.second])
            continue; // a stale entry: the vertex was settled nearer
        const uint64_t v = top.second;
        for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) {
            const uint64_t w = g.neighbours[i];
            const uint32_t d = top.first + weight[i];
            if (d < dist[w]) {
                dist[w] = d;
                heap.push({d, w});
            }
        }
    }
    return dist;
}

std::vector<uint32_t> cc_components(const Csr &g)
{
    std::vector<uint64_t> parent(g.vertices), size(g.vertices, 1);
    for (uint64_t v = 0; v < g.vertices; ++v)
        parent[v] = v;
    auto find = [&parent](uint64_t v) {
        while (parent[v] != v) {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        return v;
    };
    for (uint64_t v = 0; v < g.vertices; ++v) {
        for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) {
            uint64_t a = find(v), b = find(g.neighbours[i]);
            if (a == b)
                continue;
            if (size[a] < size[b])
                std::swap(a, b);
            parent[b] = a;
            size[a] += size[b];
        }
    }
    // name each component by its smallest vertex: the first vertex met in id order
    std::vector<uint32_t> label(g.vertices);
    std::vector<uint32_t> name_of_root(g.vertices, kBfsUnreached);
    for (uint64_t v = 0; v < g.vertices; ++v) {
        const uint64_t r = find(v);
        if (name_of_root[r] == kBfsUnreached)
            name_of_root[r] = (uint32_t)v;
        label[v] = name_of_root[r];
    }
    return label;
}

uint64_t partition_mismatches(const std::vector<uint32_t> &got, const std::vector<uint32_t> &want)
{
    if (got.size() != want.size())
        return got.size() > want.size() ? got.size() : want.size();
    std::unordered_map<uint32_t, uint32_t> got_to_want, want_to_got;
    uint64_t wrong = 0;
    for (size_t v = 0; v < got.size(); ++v) {
        const auto a = got_to_want.emplace(got[v], want[v]).first;
        const auto b = want_to_got.emplace(want[v], got[v]).first;
        wrong += a->second != want[v] || b->second != got[v];
    }
    return wrong;
}

std::vector<double> pagerank_scores(const Csr &g, uint32_t iterations, double damping)
{
    const double n = (double)g.vertices;
    std::vector<double> score(g.vertices, 1.0 / n), contrib(g.vertices);
    for (uint32_t it = 0; it < iterations; ++it) {
        for (uint64_t v = 0; v < g.vertices; ++v)
            contrib[v] = g.degree(v) ? score[v] / (double)g.degree(v) : 0.0;
        for (uint64_t v = 0; v < g.vertices; ++v) {
            double sum = 0;
            for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i)
                sum += contrib[g.neighbours[i]];
            score[v] = (1.0 - damping) / n + damping * sum;
        }
    }
    return score;
}

uint64_t pagerank_mismatches(const std::vector<float> &got, const std::vector<double> &want,
                             double tolerance)
{
    if (got.size() != want.size())
        return got.size() > want.size() ? got.size() : want.size();
    uint64_t wrong = 0;
    for (size_t v = 0; v < got.size(); ++v)
        wrong += !(fabs((double)got[v] - want[v]) <= tolerance * want[v]); // NaN counts
    return wrong;
}

} // namespace ps
