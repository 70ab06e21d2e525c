// The BFS kernels' per-thread work (native/cuda/graph_kernel_body.h) run on the CPU for every
// thread of every launch: the levels the GPU must produce equal the queue-based reference for
// every kernel x id width, on generated and hand-made graphs.
#include <vector>

#include "graph.h"
#include "graph_kernel_body.h"
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
