// Graph kernels (native/model/graph_kernels.h): the index arithmetic on hand-worked lists, the
// CPU BFS reference, and the traffic model's MRds for hand-worked graphs (graph_traffic.h).
#include <vector>

#include "graph.h"
#include "graph_kernels.h"
#include "graph_reference.h"
#include "graph_traffic.h"
#include "harness.h"

using namespace ps;

namespace {

// Element indexes that `lane` reads over its whole loop (active steps only).
std::vector<uint64_t> reads_of(GraphKernel k, uint64_t begin, uint64_t end, uint32_t id_bytes,
                               uint32_t lane)
{
    std::vector<uint64_t> out;
    for (uint64_t s = 0; s < graph_steps(k, begin, end, id_bytes); ++s) {
        uint64_t i;
        if (graph_edge_index(k, begin, end, id_bytes, lane, s, &i))
            out.push_back(i);
    }
    return out;
}

struct ModelRun {
    GraphTrafficCounts counts;
    std::vector<Mrd> mrds;
};

ModelRun run_model(GraphKernel k, const Csr &g, uint64_t source, L1Mode l1 = L1Mode::Ideal)
{
    GraphTrafficConfig cfg;
    cfg.kernel = k;
    cfg.graph = &g;
    cfg.source = source;
    cfg.base = 0x100000000ull;
    cfg.l1 = l1;
    GraphTrafficGenerator gen(cfg);
    ModelRun r;
    Mrd m;
    while (gen.next(&m))
        r.mrds.push_back(m);
    r.counts = gen.counts();
    return r;
}

// A star: vertex 0 joined to 1 .. n-1, so vertex 0's list is elements [0, n - 1).
Csr star(uint64_t n, uint32_t id_bytes)
{
    std::vector<EdgeTuple> t;
    for (uint64_t v = 1; v < n; ++v)
        t.push_back({0, v});
    return build_csr(n, t, id_bytes);
}

} // namespace

TEST(graph_kernel_names_come_from_the_spec)
{
    GraphKernel k;
    CHECK(graph_kernel_from_name("bfs-aligned", &k));
    CHECK(k == GraphKernel::BfsAligned);
    CHECK(!graph_kernel_from_name("bfs", &k));
    CHECK_EQ(std::string(graph_kernel_name(GraphKernel::BfsNaive)), std::string("bfs-naive"));
    CHECK(graph_id_bytes_valid(4) && graph_id_bytes_valid(8) && !graph_id_bytes_valid(16));
}

TEST(graph_naive_walks_its_own_list_one_id_per_step)
{
    // list [20, 50): 30 steps, step s reads 20 + s; a thread per vertex
    CHECK_EQ(graph_steps(GraphKernel::BfsNaive, 20, 50, 8), 30ull);
    uint64_t i;
    CHECK(graph_edge_index(GraphKernel::BfsNaive, 20, 50, 8, 0, 29, &i));
    CHECK_EQ(i, 49ull);
    CHECK(!graph_edge_index(GraphKernel::BfsNaive, 20, 50, 8, 0, 30, &i));
    CHECK_EQ(graph_vertex_of_thread(GraphKernel::BfsNaive, 77), 77ull);
    CHECK_EQ(graph_threads(GraphKernel::BfsNaive, 100), 100ull);
}

TEST(graph_merged_and_aligned_hand_worked)
{
    // list [20, 50) with 8-B ids (16 per line). merged: one step, lane l reads 20 + l, lanes
    // 30, 31 past the end.
    uint64_t i;
    CHECK_EQ(graph_steps(GraphKernel::BfsMerged, 20, 50, 8), 1ull);
    CHECK(graph_edge_index(GraphKernel::BfsMerged, 20, 50, 8, 29, 0, &i));
    CHECK_EQ(i, 49ull);
    CHECK(!graph_edge_index(GraphKernel::BfsMerged, 20, 50, 8, 30, 0, &i));
    // aligned: the loop starts at 16 (byte 128); lanes 0..3 (16..19) are off in step 0; two
    // steps: 16..47, 48..79 with 48, 49 active
    CHECK_EQ(graph_loop_first(GraphKernel::BfsAligned, 20, 8), 16ull);
    CHECK_EQ(graph_steps(GraphKernel::BfsAligned, 20, 50, 8), 2ull);
    CHECK(!graph_edge_index(GraphKernel::BfsAligned, 20, 50, 8, 3, 0, &i));
    CHECK_EQ(i, 19ull);
    CHECK(graph_edge_index(GraphKernel::BfsAligned, 20, 50, 8, 4, 0, &i));
    CHECK_EQ(i, 20ull);
    CHECK(graph_edge_index(GraphKernel::BfsAligned, 20, 50, 8, 1, 1, &i));
    CHECK_EQ(i, 49ull);
    CHECK(!graph_edge_index(GraphKernel::BfsAligned, 20, 50, 8, 2, 1, &i));
    // 4-B ids: 32 per line, the loop starts at 0
    CHECK_EQ(graph_loop_first(GraphKernel::BfsAligned, 20, 4), 0ull);
    CHECK_EQ(graph_steps(GraphKernel::BfsAligned, 20, 50, 4), 2ull);
    CHECK_EQ(graph_loop_first(GraphKernel::BfsAligned, 64, 4), 64ull); // already aligned
    CHECK_EQ(graph_steps(GraphKernel::BfsMerged, 7, 7, 8), 0ull);      // empty list
    CHECK_EQ(graph_steps(GraphKernel::BfsAligned, 7, 7, 8), 0ull);
    CHECK_EQ(graph_vertex_of_thread(GraphKernel::BfsMerged, 77), 2ull);
    CHECK_EQ(graph_lane_of_thread(GraphKernel::BfsMerged, 77), 13u);
}

TEST(graph_every_kernel_reads_each_element_once)
{
    int lists = 0;
    for (const GraphKernelInfo &info : kGraphKernels) {
        for (uint32_t id : {4u, 8u}) {
            for (uint64_t begin : {0ull, 1ull, 15ull, 16ull, 17ull, 31ull, 33ull, 100ull}) {
                for (uint64_t len : {0ull, 1ull, 2ull, 31ull, 32ull, 33ull, 64ull, 200ull}) {
                    std::vector<int> seen(begin + len + 64, 0);
                    const uint32_t lanes = graph_lanes_per_vertex(info.kernel);
                    for (uint32_t lane = 0; lane < lanes; ++lane)
                        for (uint64_t x : reads_of(info.kernel, begin, begin + len, id, lane))
                            ++seen[x];
                    bool once = true;
                    for (uint64_t x = 0; x < seen.size(); ++x)
                        once = once && seen[x] == (x >= begin && x < begin + len ? 1 : 0);
                    if (!once)
                        fprintf(stderr, "  %s id=%u begin=%llu len=%llu\n", info.name, id,
                                (unsigned long long)begin, (unsigned long long)len);
                    CHECK(once);
                    ++lists;
                }
            }
        }
    }
    CHECK_EQ(lists, (int)kGraphKernelCount * 2 * 8 * 8);
}

TEST(graph_aligned_steps_start_on_a_line)
{
    for (uint32_t id : {4u, 8u})
        for (uint64_t begin = 0; begin < 70; ++begin)
            CHECK_EQ(graph_edge_offset(graph_loop_first(GraphKernel::BfsAligned, begin, id), id)
                         % kLineBytes,
                     0ull);
}

TEST(bfs_reference_levels_hand_worked)
{
    // path 0-1-2-3, a triangle 1-4-5-1 hanging off 1, and 6-7 apart
    const Csr g = build_csr(8, {{0, 1}, {1, 2}, {2, 3}, {1, 4}, {4, 5}, {5, 1}, {6, 7}}, 8);
    const std::vector<uint32_t> l = bfs_levels(g, 0);
    CHECK((l == std::vector<uint32_t>{0, 1, 2, 3, 2, 2, kBfsUnreached, kBfsUnreached}));
    const BfsSummary s = bfs_summary(g, l);
    CHECK_EQ(s.depth, 3u);
    CHECK_EQ(s.reached, 6ull);
    CHECK_EQ(s.edges, 12ull);                      // 6 undirected edges among the reached vertices
    CHECK_EQ(bfs_default_source(g), 1ull);         // degree 4
    CHECK_EQ(bfs_levels(g, 99)[0], kBfsUnreached); // a source past the graph reaches nothing
}

TEST(graph_model_star_hand_worked)
{
    // Star of 65 vertices with 8-B ids: vertex 0's list is elements [0, 64) = bytes 0..511 (4
    // lines); leaf v's list is element 63 + v. Level 0 reads vertex 0's list, level 1 the leaves'.
    const Csr g = star(65, 8);
    // merged, level 0: 2 steps of 256 B = 4 x 128-B MRds. Level 1: 64 warps, each one lane at
    // element 63 + v: 64 one-id loads in the 16 sectors of bytes 512..1023 -> 16 x 32 B (4 ids
    // per sector, the later three hit the ideal L1)
    ModelRun m = run_model(GraphKernel::BfsMerged, g, 0);
    CHECK_EQ(m.counts.launches, 2u);
    CHECK_EQ(m.counts.loads, 128ull);
    CHECK_EQ(m.counts.by_size[3], 4ull);  // 128 B
    CHECK_EQ(m.counts.by_size[0], 16ull); // 32 B: 64 loads share 16 sectors (4 ids per sector)
    CHECK_EQ(m.counts.mrds, 20ull);
    CHECK_EQ(m.counts.instructions, 2ull + 64ull);
    // naive, level 0: one thread walks 64 ids: 64 one-lane instructions, 16 of them fetch a
    // 32-B sector (4 ids per sector). Level 1: warps 0 (leaves 1..31: bytes 512..759), 1
    // (32..63: 760..1015), 2 (64: 1016): lines 512, 640 from warp 0, 768, 896 from warp 1 (the
    // sector at 736 is pending), warp 2's sector pending: 4 x 128 B.
    ModelRun n = run_model(GraphKernel::BfsNaive, g, 0);
    CHECK_EQ(n.counts.instructions, 64ull + 3ull);
    CHECK_EQ(n.counts.by_size[0], 16ull);
    CHECK_EQ(n.counts.by_size[3], 4ull);
    CHECK_EQ(n.counts.mrds, 20ull);
    // bypassing L1, the naive walk fetches a sector per load
    ModelRun nb = run_model(GraphKernel::BfsNaive, g, 0, L1Mode::Off);
    CHECK_EQ(nb.counts.by_size[0] >= 64ull, true);
}

TEST(graph_model_merged_versus_aligned_hand_worked)
{
    // One list of 64 8-B ids starting at element 20 (byte 160): a star centre whose list follows
    // 20 one-edge vertices. merged: steps at bytes 160..415, 416..671 -> 96@160, 128@256, 32@384,
    // then 96@416 (sector 0 of line 384 is in L1), 128@512, 32@640 = 6 MRds. aligned: steps from
    // byte 128: 96@160 + 128@256, 128@384 + 128@512, 32@640 = 5 MRds.
    std::vector<EdgeTuple> t;
    for (uint64_t v = 0; v < 20; v += 2)
        t.push_back({v, v + 1}); // vertices 0..19 in pairs: 20 list entries before vertex 20
    for (uint64_t v = 21; v < 85; ++v)
        t.push_back({20, v});
    const Csr g = build_csr(85, t, 8);
    CHECK_EQ(g.offsets[20], 20ull);
    CHECK_EQ(g.degree(20), 64ull);
    const uint64_t base = 0x100000000ull;
    auto level0 = [&](GraphKernel k) {
        GraphTrafficConfig cfg;
        cfg.kernel = k;
        cfg.graph = &g;
        cfg.source = 20;
        cfg.base = base;
        GraphTrafficGenerator gen(cfg);
        std::vector<Mrd> out;
        Mrd m;
        while (gen.next(&m) && gen.counts().launches == 1)
            out.push_back(m);
        return out;
    };
    const std::vector<Mrd> merged = level0(GraphKernel::BfsMerged);
    const std::vector<Mrd> aligned = level0(GraphKernel::BfsAligned);
    const uint64_t want_m[][2] = {{160, 96}, {256, 128}, {384, 32},
                                  {416, 96}, {512, 128}, {640, 32}};
    const uint64_t want_a[][2] = {{160, 96}, {256, 128}, {384, 128}, {512, 128}, {640, 32}};
    CHECK_EQ(merged.size(), 6u);
    CHECK_EQ(aligned.size(), 5u);
    for (size_t i = 0; i < merged.size() && i < 6; ++i) {
        CHECK_EQ(merged[i].addr - base, want_m[i][0]);
        CHECK_EQ((uint64_t)merged[i].len, want_m[i][1]);
    }
    for (size_t i = 0; i < aligned.size() && i < 5; ++i) {
        CHECK_EQ(aligned[i].addr - base, want_a[i][0]);
        CHECK_EQ((uint64_t)aligned[i].len, want_a[i][1]);
    }
}

TEST(graph_model_reads_every_reached_edge_once)
{
    const Csr g = build_csr(1 << 12, kronecker_tuples(12, 5), 4);
    const uint64_t src = bfs_default_source(g);
    const BfsSummary s = bfs_summary(g, bfs_levels(g, src));
    for (const GraphKernelInfo &info : kGraphKernels) {
        if (graph_algorithm(info.kernel) != GraphAlgorithm::Bfs)
            continue; // test_graph_algorithms.cpp
        const ModelRun r = run_model(info.kernel, g, src);
        CHECK_EQ(r.counts.loads, s.edges);
        CHECK_EQ(r.counts.launches, s.depth + 1);
        CHECK_EQ(r.counts.useful_bytes, s.edges * 4);
        CHECK(r.counts.mrd_bytes >= r.counts.useful_bytes / 2); // sectors hold the useful bytes
        for (const Mrd &m : r.mrds)
            CHECK(m.len >= 32 && m.len <= 128 && (m.addr % 128) + m.len <= 128);
    }
    // the point of EMOGI: aligned needs fewer, larger reads than merged, merged than naive
    const ModelRun n = run_model(GraphKernel::BfsNaive, g, src);
    const ModelRun m = run_model(GraphKernel::BfsMerged, g, src);
    const ModelRun a = run_model(GraphKernel::BfsAligned, g, src);
    CHECK(a.counts.mrds < m.counts.mrds);
    CHECK(m.counts.mrds < n.counts.mrds);
    CHECK(a.counts.mrd_bytes / a.counts.mrds > n.counts.mrd_bytes / n.counts.mrds);
}
