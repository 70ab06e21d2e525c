#include <chrono>
#include <cstdio>

#include "harness.h"
#include "traffic.h"

using namespace ps;

namespace {

constexpr uint64_t kBase = 0x100000000ull; // 4 GiB: 64-bit addresses

TrafficCounts drain(TrafficConfig cfg, uint64_t *last_addr = nullptr, bool *ascending = nullptr)
{
    TrafficGenerator g(cfg);
    Mrd m;
    uint64_t prev = 0;
    bool asc = true, first = true;
    while (g.next(&m)) {
        if (!first && m.addr <= prev)
            asc = false;
        CHECK(m.len <= 128 && (m.addr % 128) + m.len <= 128 && m.len % 32 == 0);
        prev = m.addr;
        first = false;
    }
    CHECK(g.exhausted());
    CHECK(!g.next(&m));
    if (last_addr)
        *last_addr = prev;
    if (ascending)
        *ascending = asc;
    return g.counts();
}

TrafficConfig cfg_of(Pattern p, uint64_t bytes, uint32_t offset, L1Mode l1 = L1Mode::Ideal,
                     uint32_t element_bytes = 4, uint64_t chunk = kChunkBytesDefault,
                     uint32_t merge_window = 0)
{
    TrafficConfig c;
    c.spec = make_pattern_spec(p, bytes, offset, element_bytes, kDefaultGridWarps, chunk);
    c.gpu.merge_window = merge_window;
    c.base = kBase;
    c.l1 = l1;
    return c;
}

} // namespace

TEST(merged_aligned_1mib_only_128)
{
    bool asc = false;
    uint64_t last = 0;
    const uint64_t n = 1 << 20;
    auto c = drain(cfg_of(Pattern::MergedAligned, n, 0), &last, &asc);
    CHECK_EQ(c.mrds, n / 128);
    CHECK_EQ(c.by_size[3], n / 128);
    CHECK_EQ(c.mrd_bytes, n);
    CHECK_EQ(c.instructions, n / 128);
    CHECK(asc); // whole grid resident: address order
    CHECK_EQ(last, kBase + n - 128);
}

TEST(strided_ideal_l1_bytes_over_32)
{
    const uint64_t n = 1 << 20;
    auto c = drain(cfg_of(Pattern::Strided, n, 0));
    CHECK_EQ(c.mrds, n / 32);
    CHECK_EQ(c.by_size[0], n / 32);
    CHECK_EQ(c.mrd_bytes, n);
    CHECK_EQ(c.instructions, n / 128); // one instruction per (warp, iteration) = bytes/128
}

TEST(strided_l1_off_bytes_over_4)
{
    const uint64_t n = 1 << 20;
    auto c = drain(cfg_of(Pattern::Strided, n, 0, L1Mode::Off));
    CHECK_EQ(c.mrds, n / 4);
    CHECK_EQ(c.by_size[0], n / 4);
    CHECK_EQ(c.mrd_bytes, n * 8);
}

TEST(merged_misaligned_32_equal_96_and_32)
{
    const uint64_t n = 1 << 20;
    auto c = drain(cfg_of(Pattern::MergedMisaligned, n, 32));
    CHECK_EQ(c.by_size[0], n / 128);
    CHECK_EQ(c.by_size[2], n / 128);
    CHECK_EQ(c.by_size[1] + c.by_size[3] + c.by_size[4], 0ull);
    CHECK_EQ(c.mrd_bytes, n);
}

TEST(merged_misaligned_64_and_96)
{
    const uint64_t n = 1 << 16;
    auto c64 = drain(cfg_of(Pattern::MergedMisaligned, n, 64));
    CHECK_EQ(c64.by_size[1], 2 * n / 128);
    CHECK_EQ(c64.mrds, 2 * n / 128);
    auto c96 = drain(cfg_of(Pattern::MergedMisaligned, n, 96));
    CHECK_EQ(c96.by_size[0], n / 128);
    CHECK_EQ(c96.by_size[2], n / 128);
}

TEST(merged_misaligned_l1_off_same_counts)
{
    // no sector is shared between instructions: L1 does not matter
    const uint64_t n = 1 << 16;
    auto a = drain(cfg_of(Pattern::MergedMisaligned, n, 32, L1Mode::Off));
    CHECK_EQ(a.by_size[0], n / 128);
    CHECK_EQ(a.by_size[2], n / 128);
}

// Element widths 4/8/16 x L1 ideal/bypass: counts and size mix per pattern (docs/gpu-coalescing.md,
// "Lane widths"). 1 MiB of useful data; by_size index 0..3 = 32, 64, 96, 128 B.
TEST(strided_widths)
{
    const uint64_t n = 1 << 20;
    for (uint32_t e : {4u, 8u, 16u}) {
        // ideal L1: every sector fetched once, as a 32-B read, whatever the width
        auto c = drain(cfg_of(Pattern::Strided, n, 0, L1Mode::Ideal, e));
        CHECK_EQ(c.mrds, n / 32);
        CHECK_EQ(c.by_size[0], n / 32);
        CHECK_EQ(c.instructions, (n / 128 / 32) * (128 / e)); // warps x (128 / E) iterations
        // bypass: one 32-B read per load (each load lies in one sector)
        auto b = drain(cfg_of(Pattern::Strided, n, 0, L1Mode::Off, e));
        CHECK_EQ(b.mrds, n / e);
        CHECK_EQ(b.by_size[0], n / e);
        CHECK_EQ(b.mrd_bytes, n / e * 32);
    }
}

TEST(merged_aligned_widths)
{
    const uint64_t n = 1 << 20;
    for (uint32_t e : {4u, 8u, 16u}) {
        for (L1Mode m : {L1Mode::Ideal, L1Mode::Off}) {
            bool asc = false;
            auto c = drain(cfg_of(Pattern::MergedAligned, n, 0, m, e), nullptr, &asc);
            CHECK_EQ(c.instructions, n / (32 * e)); // one span of 32 E bytes per instruction
            CHECK_EQ(c.mrds, n / 128);              // E / 4 whole lines per instruction
            CHECK_EQ(c.by_size[3], n / 128);
            CHECK_EQ(c.mrd_bytes, n);
            CHECK(asc);
        }
    }
}

TEST(merged_misaligned_widths)
{
    const uint64_t n = 1 << 20;
    for (uint32_t e : {4u, 8u, 16u}) {
        const uint64_t spans = n / (32 * e);
        for (L1Mode m : {L1Mode::Ideal, L1Mode::Off}) {
            // at +32 a span of E / 4 lines splits into 96 + (E / 4 - 1) x 128 + 32
            auto c = drain(cfg_of(Pattern::MergedMisaligned, n, 32, m, e));
            CHECK_EQ(c.mrds, spans * (e / 4 + 1));
            CHECK_EQ(c.by_size[0], spans);
            CHECK_EQ(c.by_size[2], spans);
            CHECK_EQ(c.by_size[3], spans * (e / 4 - 1));
            CHECK_EQ(c.mrd_bytes, n);
        }
        // at +64: 64 + (E / 4 - 1) x 128 + 64
        auto c = drain(cfg_of(Pattern::MergedMisaligned, n, 64, L1Mode::Ideal, e));
        CHECK_EQ(c.by_size[1], 2 * spans);
        CHECK_EQ(c.by_size[3], spans * (e / 4 - 1));
    }
}

TEST(partial_sizes)
{
    // 1000 bytes merged-aligned: 7 full lines + 104 B (4-B lanes) -> 7 x 128 + 1 x 128 (sectors
    // 0..3)
    auto c = drain(cfg_of(Pattern::MergedAligned, 1000, 0));
    CHECK_EQ(c.mrds, 8ull);
    CHECK_EQ(c.by_size[3], 8ull);
    // 4 + 128 bytes strided: chunk 0 -> 4 x 32 B, chunk 1 -> one 32-B read
    auto s = drain(cfg_of(Pattern::Strided, 132, 0));
    CHECK_EQ(s.mrds, 5ull);
    // 96 bytes merged-aligned: one 96-B MRd
    auto m = drain(cfg_of(Pattern::MergedAligned, 96, 0));
    CHECK_EQ(m.mrds, 1ull);
    CHECK_EQ(m.by_size[2], 1ull);
}

TEST(resident_set_changes_order_not_counts)
{
    for (uint32_t r : {1u, 3u, 64u, 100000u}) {
        TrafficConfig c = cfg_of(Pattern::Strided, 1 << 18, 0);
        c.resident_warps = r;
        auto s = drain(c);
        CHECK_EQ(s.mrds, (uint64_t)(1 << 18) / 32);
        TrafficConfig m = cfg_of(Pattern::MergedMisaligned, 1 << 18, 32);
        m.resident_warps = r;
        m.spec.grid_warps = 7;
        auto t = drain(m);
        CHECK_EQ(t.by_size[0], (uint64_t)(1 << 18) / 128);
        CHECK_EQ(t.by_size[2], (uint64_t)(1 << 18) / 128);
    }
}

TEST(strided_issue_order_round_robin)
{
    // resident set 2 warps, 256 threads (8 warps): first MRds are warp 0 iter 0 (32 lines),
    // then warp 1 iter 0, then (iterations 1..7 hit) warp 0 iter 8 -> sector 1 of its lines.
    TrafficConfig c = cfg_of(Pattern::Strided, 128 * 256, 0);
    c.resident_warps = 2;
    TrafficGenerator g(c);
    Mrd m;
    for (int i = 0; i < 32; ++i) {
        CHECK(g.next(&m));
        CHECK_EQ(m.addr, kBase + 128ull * i);
    }
    for (int i = 0; i < 32; ++i) {
        CHECK(g.next(&m));
        CHECK_EQ(m.addr, kBase + 128ull * (32 + i));
    }
    CHECK(g.next(&m));
    CHECK_EQ(m.addr, kBase + 32);
}

TEST(lazy_1gib_merged_aligned)
{
    const uint64_t n = 1ull << 30;
    auto t0 = std::chrono::steady_clock::now();
    TrafficGenerator g(cfg_of(Pattern::MergedAligned, n, 0));
    Mrd m;
    uint64_t count = 0;
    while (g.next(&m))
        ++count;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK_EQ(count, n / 128);
    CHECK_EQ(g.counts().by_size[3], n / 128);
    std::printf("     1 GiB merged-aligned: %llu MRds in %.2f s (%.1f M MRd/s)\n",
                (unsigned long long)count, s, count / s / 1e6);
}

TEST(lazy_1gib_strided)
{
    const uint64_t n = 1ull << 30;
    auto t0 = std::chrono::steady_clock::now();
    TrafficGenerator g(cfg_of(Pattern::Strided, n, 0));
    Mrd m;
    uint64_t count = 0;
    while (g.next(&m))
        ++count;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK_EQ(count, n / 32);
    std::printf("     1 GiB strided: %llu MRds in %.2f s (%.1f M MRd/s)\n",
                (unsigned long long)count, s, count / s / 1e6);
}

// warp_load builds a warp from two pattern_index calls (the index is affine in the lane): every
// lane must still be what pattern_access says, for every pattern, width, offset, partial size
// and iteration, the last warp and one iteration past the end included; merged-chunked also with
// chunks shorter than a warp's span (the warp's tail lanes past the chunk stay inactive).
TEST(warp_load_matches_pattern_access_lane_by_lane)
{
    const Pattern patterns[] = {Pattern::Strided, Pattern::MergedAligned, Pattern::MergedMisaligned,
                                Pattern::MergedChunked};
    const uint32_t widths[] = {4, 8, 16};
    const uint64_t sizes[] = {4096, 100000, 1u << 20};
    uint64_t lanes_checked = 0, runs_marked = 0;
    for (Pattern p : patterns)
        for (uint32_t w : widths)
            for (uint64_t bytes : sizes)
                for (uint64_t chunk :
                     {kChunkBytesDefault, (uint64_t)128, (uint64_t)256, (uint64_t)720}) {
                    if (chunk != kChunkBytesDefault
                        && (p != Pattern::MergedChunked || chunk % w != 0))
                        continue;
                    const uint64_t size = bytes / w * w;
                    for (uint32_t offset : {0u, 32u, 48u}) {
                        TrafficGenerator g(cfg_of(p, size, offset, L1Mode::Ideal, w, chunk));
                        const PatternShape &shape = g.shape();
                        const PatternSpec &spec = g.config().spec;
                        const uint64_t warps[] = {0, 1, shape.warps / 2, shape.warps - 1};
                        for (uint64_t warp : warps)
                            for (uint32_t iter = 0; iter <= shape.iterations; ++iter) {
                                WarpLoad load{};
                                const uint32_t active = g.warp_load(warp, iter, &load);
                                CHECK_EQ(active, load.active);
                                if (load.lanes_in_run) { // the coalescer trusts it: it must hold
                                    CHECK_EQ(active, 0xFFFFFFFFu);
                                    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
                                        CHECK_EQ(load.addr[lane],
                                                 load.addr[0] + lane * load.lane_bytes);
                                    ++runs_marked;
                                }
                                for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
                                    uint64_t off = 0;
                                    const bool on = pattern_access(
                                        spec, shape, warp * kWarpSize + lane, iter, &off);
                                    CHECK_EQ(on, ((active >> lane) & 1u) != 0);
                                    if (on)
                                        CHECK_EQ(load.addr[lane], kBase + off);
                                    ++lanes_checked;
                                }
                            }
                    }
                }
    CHECK(lanes_checked > 80000); // the loops ran
    CHECK(runs_marked > 100);     // the merged patterns' whole warps are marked
}

// The two access forms of the same misaligned bytes: without the merge window (R5) both pay two
// reads per line (96 + 32 B at +32); with a window of one load the chunked form's split lines,
// read by ONE warp one instruction apart, merge into whole-line reads, while the grid-stride
// form's, split between two warps, do not; bypassing loads never merge.
TEST(merged_chunked_merge_window)
{
    const uint64_t n = 1 << 20, chunk = 4096, lines = n / 128;
    for (uint32_t e : {4u, 8u, 16u}) {
        const uint64_t spans = n / (32 * e);
        const auto grid = drain(cfg_of(Pattern::MergedMisaligned, n, 32, L1Mode::Ideal, e, 0, 1));
        const auto chunked0 =
            drain(cfg_of(Pattern::MergedChunked, n, 32, L1Mode::Ideal, e, chunk, 0));
        const auto chunked1 =
            drain(cfg_of(Pattern::MergedChunked, n, 32, L1Mode::Ideal, e, chunk, 1));
        const auto bypass1 = drain(cfg_of(Pattern::MergedChunked, n, 32, L1Mode::Off, e, chunk, 1));
        CHECK_EQ(grid.mrds, spans * (e / 4 + 1));
        CHECK_EQ(chunked0.mrds, grid.mrds);
        CHECK_EQ(bypass1.mrds, grid.mrds);
        // merged: each chunk of 4096 B at +32 touches 33 lines, one read each
        CHECK_EQ(chunked1.mrds, (n / chunk) * (chunk / 128 + 1));
        CHECK_EQ(chunked1.mrd_bytes, n);
        CHECK(chunked1.by_size[3] == (n / chunk) * (chunk / 128 - 1));
    }
    // at offset 0 the chunks are whole lines: nothing to merge, one 128-B read per line
    const auto aligned = drain(cfg_of(Pattern::MergedChunked, n, 0, L1Mode::Ideal, 4, chunk, 1));
    CHECK_EQ(aligned.mrds, lines);
    // the scheduled model merges the same reads
    TrafficConfig lru = cfg_of(Pattern::MergedChunked, n, 32, L1Mode::Ideal, 4, chunk, 1);
    lru.l1_model = L1Model::Lru;
    lru.gpu.merge_window = 1;
    CHECK_EQ(drain(lru).mrds, (n / chunk) * (chunk / 128 + 1));
}

// Every offset 0..124 and lane width the spec allows runs, and reads each byte once.
TEST(merged_chunked_every_offset)
{
    for (uint32_t e : {4u, 8u, 16u})
        for (uint32_t o = 0; o <= 124; o += e) {
            const auto c =
                drain(cfg_of(Pattern::MergedChunked, 64 * 1024, o, L1Mode::Ideal, e, 1024, 1));
            // every sector the data touch, once (the ideal L1 is shared by all warps)
            const uint64_t sectors = (o + 64 * 1024 + 31) / 32 - o / 32;
            CHECK_EQ(c.mrd_bytes, 32 * sectors);
        }
}

TEST(empty_workload)
{
    TrafficGenerator g(cfg_of(Pattern::Strided, 0, 0));
    Mrd m;
    CHECK(!g.next(&m));
    CHECK(g.exhausted());
}
