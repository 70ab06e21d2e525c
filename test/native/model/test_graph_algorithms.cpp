// SSSP, CC and PageRank (graph_kernels.h, graph_launches.h, graph_reference.h): the CPU references
// on hand-worked graphs, the launch plan's frontiers against the references, and the traffic
// model's MRds for hand-worked graphs and for every kernel on a generated one.
#include <math.h>
#include <string.h>

#include <vector>

#include "graph.h"
#include "graph_kernels.h"
#include "graph_launches.h"
#include "graph_reference.h"
#include "graph_traffic.h"
#include "harness.h"

using namespace ps;

namespace {

GraphTrafficCounts model_counts(GraphKernel k, const Csr &g, uint64_t source,
                                std::vector<Mrd> *mrds = nullptr)
{
    GraphTrafficConfig cfg;
    cfg.kernel = k;
    cfg.graph = &g;
    cfg.source = source;
    cfg.base = 0x100000000ull;
    GraphTrafficGenerator gen(cfg);
    Mrd m;
    while (gen.next(&m))
        if (mrds)
            mrds->push_back(m);
    return gen.counts();
}

Csr star(uint64_t n, uint32_t id_bytes)
{
    std::vector<EdgeTuple> t;
    for (uint64_t v = 1; v < n; ++v)
        t.push_back({0, v});
    return build_csr(n, t, id_bytes);
}

} // namespace

TEST(graph_kernels_split_into_algorithm_and_access)
{
    for (const GraphKernelInfo &info : kGraphKernels) {
        // the spec's lanes per vertex is the access form's
        CHECK_EQ(graph_lanes_per_vertex(info.kernel), info.lanes_per_vertex);
        const std::string name = info.name;
        const std::string algo = graph_algorithm_name(graph_algorithm(info.kernel));
        CHECK_EQ(name.substr(0, name.find('-')), algo);
    }
    CHECK(graph_access(GraphKernel::SsspAligned) == GraphAccess::Aligned);
    CHECK(graph_access(GraphKernel::PagerankMerged) == GraphAccess::Merged);
    CHECK(graph_access(GraphKernel::CcNaive) == GraphAccess::Naive);
    CHECK_EQ(graph_lanes_per_vertex(GraphKernel::SsspNaive), 1u);
    CHECK_EQ(graph_step_loads(GraphKernel::SsspMerged), 2u);
    CHECK_EQ(graph_step_loads(GraphKernel::CcAligned), 1u);
}

TEST(graph_edge_weights_are_symmetric_and_in_range)
{
    const Csr g = build_csr(1 << 9, urand_tuples(9, 3), 8);
    const std::vector<uint32_t> w = g.edge_weights();
    uint32_t lo = 255, hi = 1;
    for (uint64_t v = 0; v < g.vertices; ++v) {
        for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) {
            lo = w[i] < lo ? w[i] : lo;
            hi = w[i] > hi ? w[i] : hi;
            CHECK_EQ(w[i], graph_edge_weight(g.neighbours[i], v));
        }
    }
    CHECK(lo >= 1 && hi <= 255 && hi - lo > 200); // spread over the range
}

TEST(graph_sssp_host_memory_puts_the_weights_on_the_next_line)
{
    // 3 edges x 8 B = 24 B of ids; the weights from byte 128
    const Csr g = build_csr(3, {{0, 1}, {1, 2}}, 8);
    CHECK_EQ(g.edges(), 4ull);
    CHECK_EQ(graph_weight_offset(0, g.edges(), 8), 128ull);
    CHECK_EQ(graph_host_bytes(GraphKernel::SsspAligned, g.edges(), 8), 256ull);
    CHECK_EQ(graph_host_bytes(GraphKernel::CcAligned, g.edges(), 8), 128ull);
    const std::vector<unsigned char> m = g.host_bytes(GraphKernel::SsspMerged);
    CHECK_EQ(m.size(), 256u);
    uint32_t w3;
    memcpy(&w3, &m[128 + 3 * 4], 4);
    CHECK_EQ(w3, graph_edge_weight(2, 1)); // vertex 2's one edge, element 3
    CHECK_EQ(g.host_bytes(GraphKernel::BfsAligned).size(), 32u);
}

TEST(sssp_reference_hand_worked)
{
    // path 0-1-2 plus a chord 0-2: dist(2) is the lighter of the chord and the two-hop path
    const Csr g = build_csr(4, {{0, 1}, {1, 2}, {0, 2}}, 8);
    const std::vector<uint32_t> d = sssp_distances(g, 0);
    const uint32_t w01 = graph_edge_weight(0, 1), w12 = graph_edge_weight(1, 2),
                   w02 = graph_edge_weight(0, 2);
    CHECK_EQ(d[0], 0u);
    CHECK_EQ(d[1], std::min(w01, w02 + w12));
    CHECK_EQ(d[2], std::min(w02, w01 + w12));
    CHECK_EQ(d[3], kSsspInfinity); // vertex 3 has no edge
}

TEST(graph_plan_values_equal_the_references)
{
    for (uint32_t id : kGraphIdBytesValues) {
        const Csr graphs[] = {build_csr(1 << 10, kronecker_tuples(10, 2), id),
                              build_csr(1 << 9, urand_tuples(9, 4), id)};
        for (const Csr &g : graphs) {
            const uint64_t src = bfs_default_source(g);
            // BFS: the frontiers are the levels
            const GraphLaunchPlan b = graph_launch_plan(GraphKernel::BfsAligned, g, src);
            const std::vector<uint32_t> levels = bfs_levels(g, src);
            CHECK(b.values == levels);
            CHECK_EQ(b.edges_read, bfs_summary(g, levels).edges);
            CHECK_EQ((uint32_t)b.launches.size(), bfs_summary(g, levels).depth + 1);
            for (size_t l = 0; l < b.launches.size(); ++l)
                for (uint64_t v : b.launches[l].vertices)
                    CHECK_EQ(levels[v], (uint32_t)l);
            // SSSP: Bellman-Ford's fixed point is Dijkstra's; it re-reads lists whose distance
            // fell again
            const GraphLaunchPlan s = graph_launch_plan(GraphKernel::SsspMerged, g, src);
            CHECK(s.values == sssp_distances(g, src));
            CHECK_EQ(s.reached, b.reached);
            CHECK(s.edges_read >= b.edges_read);
            CHECK(s.launches.size() >= b.launches.size());
            // CC: min-label propagation names each component by its smallest vertex
            const GraphLaunchPlan c = graph_launch_plan(GraphKernel::CcAligned, g, src);
            CHECK(c.values == cc_components(g));
            CHECK_EQ(c.launches[0].vertices.size(), (size_t)g.vertices);
            // PageRank: every vertex in each of the fixed iterations
            const GraphLaunchPlan p = graph_launch_plan(GraphKernel::PagerankAligned, g, src);
            CHECK_EQ((uint32_t)p.launches.size(), kPageRankIterations);
            CHECK(p.launches[0].all);
            CHECK_EQ(p.edges_read, kPageRankIterations * g.edges());
        }
    }
    bool threw = false;
    try {
        graph_launch_plan(GraphKernel::SsspAligned, star(5, 8), 5);
    } catch (const GraphError &e) {
        threw = std::string(e.code()) == "PS_GRAPH_BAD_SOURCE";
    }
    CHECK(threw);
}

TEST(cc_reference_and_partition_compare)
{
    // components {0,1,2}, {3,4}, {5}
    const Csr g = build_csr(6, {{1, 2}, {0, 2}, {4, 3}}, 4);
    const std::vector<uint32_t> c = cc_components(g);
    CHECK((c == std::vector<uint32_t>{0, 0, 0, 3, 3, 5}));
    // the same partition under other names compares equal; a merged or split one does not
    CHECK_EQ(partition_mismatches({7, 7, 7, 1, 1, 9}, c), 0ull);
    CHECK(partition_mismatches({7, 7, 7, 7, 7, 9}, c) > 0);
    CHECK(partition_mismatches({7, 7, 8, 1, 1, 9}, c) > 0);
    CHECK(partition_mismatches({7, 7}, c) > 0);
}

TEST(pagerank_reference_hand_worked)
{
    // star of n: after one iteration the centre holds (1-d)/n + d (n-1)/n, a leaf
    // (1-d)/n + d / (n (n-1)); the scores keep summing to 1 (no dangling vertex)
    const uint64_t n = 9;
    const double d = kPageRankDamping;
    const Csr g = star(n, 8);
    const std::vector<double> one = pagerank_scores(g, 1, d);
    CHECK(fabs(one[0] - ((1 - d) / n + d * (n - 1) / n)) < 1e-12);
    CHECK(fabs(one[3] - ((1 - d) / n + d / (n * (n - 1.0)))) < 1e-12);
    const std::vector<double> ten = pagerank_scores(g, kPageRankIterations, d);
    double sum = 0;
    for (double x : ten)
        sum += x;
    CHECK(fabs(sum - 1.0) < 1e-9);
    // the tolerance check: relative to the reference
    std::vector<float> got(ten.begin(), ten.end());
    CHECK_EQ(pagerank_mismatches(got, ten, kPageRankTolerance), 0ull);
    got[2] *= (float)(1 + 2 * kPageRankTolerance);
    CHECK_EQ(pagerank_mismatches(got, ten, kPageRankTolerance), 1ull);
}

TEST(graph_model_sssp_star_hand_worked)
{
    // Star of 65, 8-B ids: 128 edges = 1024 B of ids, the weights at bytes 1024..1535. Launch 0
    // (the centre): 2 steps, each 256 B of ids (2 x 128-B MRds) then 128 B of weights (1 MRd).
    // Launch 1 (the 64 leaves, whose distance fell): one id at 512 + 8 (v-1) and one weight at
    // 1280 + 4 (v-1) each; the ideal L1 fetches each 32-B sector once: 16 + 8 x 32 B. Their
    // offers to the centre change nothing: 2 launches.
    const Csr g = star(65, 8);
    std::vector<Mrd> mrds;
    const GraphTrafficCounts c = model_counts(GraphKernel::SsspAligned, g, 0, &mrds);
    CHECK_EQ(c.launches, 2u);
    CHECK_EQ(c.instructions, 2ull * 2 + 64 * 2);
    CHECK_EQ(c.loads, 64ull * 2 + 64 * 2);
    CHECK_EQ(c.useful_bytes, 64ull * 12 + 64 * 12);
    CHECK_EQ(c.by_size[3], 6ull);  // 128 B
    CHECK_EQ(c.by_size[0], 24ull); // 32 B
    CHECK_EQ(c.mrds, 30ull);
    const uint64_t base = 0x100000000ull;
    CHECK_EQ(mrds[2].addr - base, 1024ull); // step 0's weights after its ids
    CHECK_EQ(mrds[5].addr - base, 1152ull);
}

TEST(graph_model_cc_and_pagerank_star_hand_worked)
{
    const Csr g = star(65, 8);
    // CC: launch 0, every vertex: the centre's 4 lines, the leaves' 16 sectors (the leaves'
    // labels fall to 0); launch 1, the 64 leaves again: their sectors again (a launch starts
    // with a cold L1)
    const GraphTrafficCounts c = model_counts(GraphKernel::CcMerged, g, 0);
    CHECK_EQ(c.launches, 2u);
    CHECK_EQ(c.by_size[3], 4ull);
    CHECK_EQ(c.by_size[0], 32ull);
    CHECK_EQ(c.loads, 128ull + 64);
    // PageRank: every list every iteration
    const GraphTrafficCounts p = model_counts(GraphKernel::PagerankAligned, g, 0);
    CHECK_EQ(p.launches, kPageRankIterations);
    CHECK_EQ(p.loads, 128ull * kPageRankIterations);
    CHECK_EQ(p.mrds, 20ull * kPageRankIterations);
}

TEST(graph_model_every_kernel_loads_what_its_plan_reads)
{
    const Csr g = build_csr(1 << 10, kronecker_tuples(10, 7), 8);
    const uint64_t src = bfs_default_source(g);
    for (const GraphKernelInfo &info : kGraphKernels) {
        const GraphLaunchPlan plan = graph_launch_plan(info.kernel, g, src);
        const GraphTrafficCounts c = model_counts(info.kernel, g, src);
        CHECK_EQ(c.launches, (uint32_t)plan.launches.size());
        CHECK_EQ(c.loads, plan.edges_read * graph_step_loads(info.kernel));
        CHECK(c.mrds > 0);
    }
    // aligned needs fewer reads than merged, merged than naive, for every algorithm
    const GraphKernel forms[][3] = {
        {GraphKernel::SsspNaive, GraphKernel::SsspMerged, GraphKernel::SsspAligned},
        {GraphKernel::CcNaive, GraphKernel::CcMerged, GraphKernel::CcAligned},
        {GraphKernel::PagerankNaive, GraphKernel::PagerankMerged, GraphKernel::PagerankAligned}};
    for (const auto &f : forms) {
        const uint64_t naive = model_counts(f[0], g, src).mrds;
        const uint64_t merged = model_counts(f[1], g, src).mrds;
        CHECK(model_counts(f[2], g, src).mrds < merged);
        CHECK(merged < naive);
    }
}
