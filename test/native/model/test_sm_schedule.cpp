// The scheduled model (native/model/sm_schedule.h): block schedule, limits, and its L1 against the
// ideal and bypass models at the two ends of capacity.
#include <vector>

#include "graph.h"
#include "graph_reference.h"
#include "graph_traffic.h"
#include "harness.h"
#include "sm_schedule.h"
#include "traffic.h"

using namespace ps;

namespace {

constexpr uint64_t kBase = 0x100000000ull;

GpuModel small_gpu(uint32_t sms, uint32_t l1_bytes)
{
    GpuModel g;
    g.sms = sms;
    g.l1_bytes = l1_bytes;
    g.max_blocks_per_sm = 32;
    g.max_warps_per_sm = 64;
    g.block_threads = 256;
    return g;
}

TrafficCounts run(Pattern p, uint64_t bytes, uint32_t e, L1Mode l1, L1Model model,
                  const GpuModel &gpu)
{
    TrafficConfig c;
    c.spec = make_pattern_spec(p, bytes, pattern_default_offset(p), e);
    c.base = kBase;
    c.l1 = l1;
    c.l1_model = model;
    c.gpu = gpu;
    TrafficGenerator g(c);
    Mrd m;
    while (g.next(&m)) {
    }
    return g.counts();
}

bool same(const TrafficCounts &a, const TrafficCounts &b)
{
    for (int k = 0; k < kSizeClassCount; ++k)
        if (a.by_size[k] != b.by_size[k])
            return false;
    return a.mrds == b.mrds && a.mrd_bytes == b.mrd_bytes && a.instructions == b.instructions;
}

// A program that records which SM issued each warp's instructions, in issue order.
class Recorder : public WarpProgram {
public:
    Recorder(uint64_t warps, SmScheduler *s) : warps_(warps), s_(s) {}
    uint64_t grid_warps() const override { return warps_; }
    uint64_t warp_steps(uint64_t w) const override { return w % 8 == 7 ? 0 : 1 + w % 5; }
    uint32_t warp_load(uint64_t w, uint64_t step, WarpLoad *load) const override
    {
        load->lane_bytes = 4;
        load->active = 1;
        load->addr[0] = kBase + 128 * (w * 8 + step);
        issued.push_back({w, step});
        return 1;
    }
    struct Issue {
        uint64_t warp, step;
    };
    mutable std::vector<Issue> issued;

private:
    uint64_t warps_;
    SmScheduler *s_;
};

} // namespace

TEST(sm_schedule_with_an_l1_that_holds_everything_counts_what_the_ideal_l1_counts)
{
    const GpuModel big = small_gpu(4, 64u << 20);
    for (const PatternInfo &p : kPatterns)
        for (uint32_t e : kElementBytesValues)
            for (uint64_t bytes : {(uint64_t)1 << 20, (uint64_t)(3 << 16) + 48}) {
                const TrafficCounts ideal =
                    run(p.pattern, bytes, e, L1Mode::Ideal, L1Model::Ideal, big);
                const TrafficCounts lru =
                    run(p.pattern, bytes, e, L1Mode::Ideal, L1Model::Lru, big);
                CHECK(same(ideal, lru));
            }
}

TEST(sm_schedule_with_no_l1_counts_what_bypassing_loads_count)
{
    const GpuModel none = small_gpu(4, 0);
    for (const PatternInfo &p : kPatterns)
        for (uint32_t e : kElementBytesValues) {
            const TrafficCounts bypass =
                run(p.pattern, 1 << 20, e, L1Mode::Off, L1Model::Ideal, none);
            CHECK(same(bypass, run(p.pattern, 1 << 20, e, L1Mode::Ideal, L1Model::Lru, none)));
            CHECK(
                same(bypass,
                     run(p.pattern, 1 << 20, e, L1Mode::Off, L1Model::Lru, small_gpu(4, 1 << 20))));
        }
}

// One SM with 8 resident blocks of 256 threads: the strided walk keeps 2048 lines in flight. An L1
// of 2048 lines gives the ideal 4 reads per line; 64 lines fewer and LRU, which evicts exactly the
// line the round-robin order needs next, refetches at every step (32 per line for 4-B lanes).
TEST(sm_schedule_strided_walk_thrashes_an_lru_l1_smaller_than_its_lines_in_flight)
{
    GpuModel g = small_gpu(1, 2048 * 128);
    g.max_blocks_per_sm = 8;
    const uint64_t bytes = 8 * 256 * 128; // one block per 256 lines: exactly 8 blocks
    CHECK_EQ(run(Pattern::Strided, bytes, 4, L1Mode::Ideal, L1Model::Lru, g).mrds, bytes / 32);
    g.l1_bytes = 1984 * 128;
    CHECK_EQ(run(Pattern::Strided, bytes, 4, L1Mode::Ideal, L1Model::Lru, g).mrds, bytes / 4);
    // half the blocks resident at once: 1024 lines fit again, whatever the waves
    g.max_blocks_per_sm = 4;
    CHECK_EQ(run(Pattern::Strided, bytes, 4, L1Mode::Ideal, L1Model::Lru, g).mrds, bytes / 32);
}

TEST(sm_schedule_starts_blocks_round_robin_then_where_one_ends)
{
    GpuModel g = small_gpu(3, 0);
    g.max_blocks_per_sm = 2;
    g.block_threads = 64; // 2 warps per block
    SmScheduler s(g);
    CHECK_EQ(s.resident_blocks_limit(), 2u);
    Recorder p(40, &s);
    s.launch(&p, false);
    std::vector<uint32_t> sm_of_warp(40, 99);
    Mrd out[kMaxMrdsPerInstruction];
    std::vector<uint32_t> order; // SM of every instruction
    while (s.issue(out) >= 0) {
        sm_of_warp[p.issued.back().warp] = s.last_sm();
        order.push_back(s.last_sm());
    }
    // the first wave: block b (warps 2b, 2b + 1) on SM b % 3, two rounds
    for (uint64_t b = 0; b < 6; ++b)
        CHECK_EQ(sm_of_warp[2 * b], (uint32_t)(b % 3));
    // one instruction per SM per cycle, SMs in order while all are busy
    CHECK_EQ(order[0], 0u);
    CHECK_EQ(order[1], 1u);
    CHECK_EQ(order[2], 2u);
    // every instruction once: warps with w % 8 == 7 have no steps, the others 1 + w % 5
    uint64_t want = 0;
    for (uint64_t w = 0; w < 40; ++w)
        want += p.warp_steps(w);
    CHECK_EQ((uint64_t)p.issued.size(), want);
    CHECK_EQ(s.blocks_started(), 20u);
    // a later block runs on the SM whose block ended first: block 6 goes where blocks 0-5 freed
    // a slot first; and the whole schedule is the same when run again
    Recorder q(40, &s);
    s.launch(&q, false);
    std::vector<uint32_t> again;
    while (s.issue(out) >= 0)
        again.push_back(s.last_sm());
    CHECK(again == order);
    CHECK_EQ(q.issued.size(), p.issued.size());
    bool same_issues = true;
    for (size_t i = 0; i < p.issued.size(); ++i)
        same_issues = same_issues && p.issued[i].warp == q.issued[i].warp
            && p.issued[i].step == q.issued[i].step;
    CHECK(same_issues);
}

TEST(sm_schedule_round_robin_interleaves_an_sms_warps_greedy_runs_one_until_it_misses)
{
    GpuModel g = small_gpu(1, 1 << 20);
    g.max_blocks_per_sm = 1;
    g.block_threads = 64; // warps 0 and 1 on the one SM
    // warp w's step s reads line w * 8 + s: every step misses (a new line)
    for (WarpOrder o : {WarpOrder::RoundRobin, WarpOrder::Greedy}) {
        g.order = o;
        SmScheduler s(g);
        Recorder p(2, &s);
        s.launch(&p, false);
        Mrd out[kMaxMrdsPerInstruction];
        while (s.issue(out) >= 0) {
        }
        // both orders alternate while every instruction misses
        CHECK_EQ(p.issued.size(), 3u); // warp 0: 1 step, warp 1: 2 steps
        CHECK_EQ(p.issued[0].warp, 0u);
        CHECK_EQ(p.issued[1].warp, 1u);
    }
}

// BFS on a small Kronecker graph: one SM with an L1 that never fills is the ideal model exactly
// (the labels' lines take room but evict nothing); 132 SMs fetch lines shared by lists on
// different SMs more than once, never less.
TEST(sm_schedule_bfs_on_one_sm_with_room_for_everything_is_the_ideal_model)
{
    const Csr g = build_csr(1u << 9, kronecker_tuples(9, 1), 8);
    for (const GraphKernelInfo &k : kGraphKernels) {
        if (graph_algorithm(k.kernel) != GraphAlgorithm::Bfs)
            continue; // the other algorithms: below
        GraphTrafficConfig c;
        c.kernel = k.kernel;
        c.graph = &g;
        c.base = kBase;
        auto drain = [&](L1Model m, const GpuModel &gpu) {
            c.l1_model = m;
            c.gpu = gpu;
            GraphTrafficGenerator gen(c);
            Mrd x;
            while (gen.next(&x)) {
            }
            return gen.counts();
        };
        const GraphTrafficCounts ideal = drain(L1Model::Ideal, small_gpu(1, 0));
        const GraphTrafficCounts one = drain(L1Model::Lru, small_gpu(1, 64u << 20));
        CHECK(same(ideal, one));
        CHECK_EQ(ideal.loads, one.loads);
        CHECK_EQ(ideal.launches, one.launches);
        const GraphTrafficCounts many = drain(L1Model::Lru, default_gpu_model());
        CHECK(many.mrds >= ideal.mrds);
        CHECK_EQ(many.loads, ideal.loads);
    }
}

// Every graph kernel (SSSP: two host loads a step, the ids then their weights, then the next[w]
// gather; CC: next[w]; PageRank: every vertex in each launch, contrib[w]), 4- and 8-B ids.
// Issuing one warp at a time in both models (one resident warp; one SM holding one one-warp block)
// the scheduled model with an L1 that never fills is the ideal model exactly: the per-edge gathers
// take room but evict nothing. With 64 warps in flight the two interleave differently (the ideal
// model refills a finished warp's slot at once, the SM only when the whole block is done), which
// changes only how R4 groups a line's missing sectors when several warps read it (aligned lists
// sharing a line): the same instructions and loads, reads within 1 %. On the spec's GPU lines
// shared by lists on different SMs are fetched once per SM, never fewer times.
TEST(sm_schedule_every_graph_kernel_with_room_for_everything_is_the_ideal_model)
{
    for (const uint32_t id_bytes : {4u, 8u}) {
        const Csr g = build_csr(1u << 8, kronecker_tuples(8, 3), id_bytes);
        for (const GraphKernelInfo &k : kGraphKernels) {
            GraphTrafficConfig c;
            c.kernel = k.kernel;
            c.graph = &g;
            c.base = kBase;
            c.source = bfs_default_source(g); // a vertex of largest degree: many launches
            uint64_t edges_read = 0;
            auto drain = [&](L1Model m, const GpuModel &gpu, uint32_t resident) {
                c.l1_model = m;
                c.gpu = gpu;
                c.resident_warps = resident;
                GraphTrafficGenerator gen(c);
                Mrd x;
                while (gen.next(&x)) {
                }
                edges_read = gen.plan().edges_read;
                return gen.counts();
            };
            GpuModel serial = small_gpu(1, 64u << 20);
            serial.block_threads = kWarpSize;
            serial.max_blocks_per_sm = serial.max_warps_per_sm = 1;
            const GraphTrafficCounts ideal1 = drain(L1Model::Ideal, small_gpu(1, 0), 1);
            const GraphTrafficCounts lru1 = drain(L1Model::Lru, serial, 1);
            CHECK(same(ideal1, lru1));
            CHECK_EQ(ideal1.loads, lru1.loads);
            CHECK_EQ(ideal1.launches, lru1.launches);
            CHECK_EQ(lru1.loads, edges_read * graph_step_loads(k.kernel)); // SSSP: ids, weights
            if (graph_algorithm(k.kernel) == GraphAlgorithm::PageRank)
                CHECK_EQ(lru1.launches, kPageRankIterations);

            const GraphTrafficCounts ideal = drain(L1Model::Ideal, small_gpu(1, 0), 64);
            const GraphTrafficCounts one = drain(L1Model::Lru, small_gpu(1, 64u << 20), 64);
            CHECK_EQ(ideal.instructions, one.instructions);
            CHECK_EQ(ideal.loads, one.loads);
            CHECK_EQ(ideal.launches, one.launches);
            CHECK(one.mrds * 100 <= ideal.mrds * 101 && ideal.mrds * 100 <= one.mrds * 101);
            const GraphTrafficCounts many = drain(L1Model::Lru, default_gpu_model(), 64);
            CHECK(many.mrds >= ideal.mrds);
            CHECK_EQ(many.loads, ideal.loads);
        }
    }
}

TEST(sm_schedule_gpu_model_comes_from_the_spec)
{
    const GpuModel g = default_gpu_model();
    CHECK_EQ(g.sms, kGpus[kGpuDefault].sm_count);
    CHECK_EQ(g.l1_bytes, kGpus[kGpuDefault].l1_bytes);
    CHECK_EQ(g.block_threads, kGpuBlockThreads);
    SmScheduler s(g); // 256-thread blocks: 8 warps, 64 warps per SM: 8 blocks
    CHECK_EQ(s.resident_blocks_limit(),
             kGpus[kGpuDefault].max_warps_per_sm / (kGpuBlockThreads / 32));
    L1Model m;
    CHECK(l1_model_from_name("lru", &m) && m == L1Model::Lru);
    CHECK(l1_model_from_name("ideal", &m) && m == L1Model::Ideal);
    CHECK(!l1_model_from_name("random", &m));
}
