// The graph kernels' per-thread work (native/cuda/graph_kernel_body.h) run on the CPU for every
// thread of every launch: BFS levels equal the queue-based reference, SSSP distances Dijkstra's,
// CC labels union-find's components (as a partition), PageRank scores the double-precision
// reference within the spec's tolerance, for every kernel x id width.
#include <vector>

#include "graph.h"
#include "graph_kernel_body.h"
#include "graph_launches.h"
#include "graph_reference.h"
#include "harness.h"

using namespace ps;
using namespace ps::gpu;

namespace {

bool kernel_matches_reference(GraphKernel k, const Csr &g, uint64_t source, uint32_t *launches)
{
    const std::vector<unsigned char> edges = g.edge_bytes();
    const std::vector<uint32_t> got = bfs_levels_on_cpu(k, g.vertices, g.offsets.data(),
                                                        edges.data(), g.id_bytes, source, launches);
    return got == bfs_levels(g, source);
}

} // namespace

TEST(bfs_kernel_body_matches_the_reference_on_every_kernel_and_width)
{
    int cases = 0;
    for (const GraphKernelInfo &info : kGraphKernels) {
        if (graph_algorithm(info.kernel) != GraphAlgorithm::Bfs)
            continue;
        for (uint32_t id : kGraphIdBytesValues) {
            const Csr graphs[] = {
                build_csr(1 << 10, kronecker_tuples(10, 4), id),
                build_csr(1 << 9, urand_tuples(9, 2), id),
                build_csr(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}}, id), // a path and a lone vertex
            };
            for (const Csr &g : graphs) {
                uint32_t launches = 0;
                const uint64_t src = bfs_default_source(g);
                const bool ok = kernel_matches_reference(info.kernel, g, src, &launches);
                if (!ok)
                    fprintf(stderr, "  %s id=%u vertices=%llu\n", info.name, id,
                            (unsigned long long)g.vertices);
                CHECK(ok);
                // one launch per level: the one at the deepest level labels nothing and ends the
                // loop (the traffic model replays the same launches)
                CHECK_EQ(launches, bfs_summary(g, bfs_levels(g, src)).depth + 1);
                ++cases;
            }
        }
    }
    CHECK_EQ(cases, 3 * 2 * 3);
}

TEST(bfs_kernel_body_path_hand_worked)
{
    // path 0-1-2-3-4 from vertex 2: levels 2 1 0 1 2; vertex 5 unreached
    const Csr g = build_csr(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}}, 8);
    const std::vector<unsigned char> e = g.edge_bytes();
    uint32_t launches = 0;
    const std::vector<uint32_t> l =
        bfs_levels_on_cpu(GraphKernel::BfsAligned, 6, g.offsets.data(), e.data(), 8, 2, &launches);
    CHECK((l == std::vector<uint32_t>{2, 1, 0, 1, 2, kBfsUnreached}));
    CHECK_EQ(launches, 3u);
}

TEST(relax_kernel_body_matches_dijkstra_and_union_find)
{
    int cases = 0;
    for (const GraphKernelInfo &info : kGraphKernels) {
        const GraphAlgorithm a = graph_algorithm(info.kernel);
        if (a != GraphAlgorithm::Sssp && a != GraphAlgorithm::Cc)
            continue;
        for (uint32_t id : kGraphIdBytesValues) {
            const Csr graphs[] = {
                build_csr(1 << 9, kronecker_tuples(9, 4), id),
                build_csr(1 << 8, urand_tuples(8, 2), id),
                build_csr(7, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {5, 6}}, id), // two paths, apart
            };
            for (const Csr &g : graphs) {
                const uint64_t src = bfs_default_source(g);
                const std::vector<unsigned char> mem = g.host_bytes(info.kernel);
                uint32_t launches = 0;
                const std::vector<uint32_t> got =
                    relax_values_on_cpu(info.kernel, g.vertices, g.offsets.data(), mem.data(),
                                        g.edges(), id, src, &launches);
                const bool ok = a == GraphAlgorithm::Sssp
                    ? got == sssp_distances(g, src)
                    : partition_mismatches(got, cc_components(g)) == 0;
                if (!ok)
                    fprintf(stderr, "  %s id=%u vertices=%llu\n", info.name, id,
                            (unsigned long long)g.vertices);
                CHECK(ok);
                // the traffic model replays the same launches
                CHECK_EQ((size_t)launches, graph_launch_plan(info.kernel, g, src).launches.size());
                ++cases;
            }
        }
    }
    CHECK_EQ(cases, 6 * 2 * 3);
}

TEST(pagerank_kernel_body_within_tolerance_of_the_reference)
{
    int cases = 0;
    for (const GraphKernelInfo &info : kGraphKernels) {
        if (graph_algorithm(info.kernel) != GraphAlgorithm::PageRank)
            continue;
        for (uint32_t id : kGraphIdBytesValues) {
            const Csr g = build_csr(1 << 10, kronecker_tuples(10, 6), id);
            const std::vector<unsigned char> e = g.edge_bytes();
            const std::vector<float> got =
                pagerank_on_cpu(info.kernel, g.vertices, g.offsets.data(), e.data(), id);
            const std::vector<double> want =
                pagerank_scores(g, kPageRankIterations, kPageRankDamping);
            CHECK_EQ(pagerank_mismatches(got, want, kPageRankTolerance), 0ull);
            ++cases;
        }
    }
    CHECK_EQ(cases, 3 * 2);
}

TEST(graph_warp_sum_is_the_shuffle_tree)
{
    // lane l holds l: lane 0 ends with the total; lane 1, which the tree pairs with 17, then 9
    // (+ 25), 5, 3 (and theirs), with the odd lanes' sum
    float lanes[kWarpSize];
    for (uint32_t l = 0; l < kWarpSize; ++l)
        lanes[l] = (float)l;
    CHECK_EQ(graph_warp_sum(lanes), 496.0f);
    CHECK_EQ(lanes[1], 1.0f + 17 + 9 + 25 + 5 + 21 + 13 + 29 + 3 + 19 + 11 + 27 + 7 + 23 + 15 + 31);
}
