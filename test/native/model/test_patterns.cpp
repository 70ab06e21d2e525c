#include <string>
#include <vector>

#include "harness.h"
#include "patterns.h"

using namespace ps;

TEST(strided_shape_and_addresses)
{
    const PatternSpec s = make_pattern_spec(Pattern::Strided, 1 << 20, 0);
    const PatternShape sh = pattern_shape(s);
    CHECK_EQ(sh.threads, (uint64_t)(1 << 20) / 128);
    CHECK_EQ(sh.warps, sh.threads / 32);
    CHECK_EQ(sh.iterations, 32u);
    CHECK_EQ(sh.lane_bytes, 4u);
    uint64_t off = 0;
    CHECK(pattern_access(s, sh, 5, 7, &off));
    CHECK_EQ(off, 5ull * 128 + 28);
    CHECK(pattern_access(s, sh, sh.threads - 1, 31, &off));
    CHECK_EQ(off, (uint64_t)(1 << 20) - 4);
    CHECK(!pattern_access(s, sh, 0, 32, &off));
}

TEST(strided_partial_chunk_is_masked)
{
    const PatternSpec s = make_pattern_spec(Pattern::Strided, 128 * 33 + 8, 0);
    const PatternShape sh = pattern_shape(s);
    CHECK_EQ(sh.threads, 64ull); // 34 chunks -> 2 warps
    uint64_t off;
    CHECK(pattern_access(s, sh, 33, 1, &off));
    CHECK(!pattern_access(s, sh, 33, 2, &off));
    CHECK(!pattern_access(s, sh, 34, 0, &off));
}

TEST(merged_aligned_grid_stride)
{
    const PatternSpec s = make_pattern_spec(Pattern::MergedAligned, 128 * 1000, 0, 4, 64);
    const PatternShape sh = pattern_shape(s);
    CHECK_EQ(sh.warps, 64ull);
    CHECK_EQ(sh.iterations, 16u); // ceil(1000 / 64)
    uint64_t off;
    CHECK(pattern_access(s, sh, 3 * 32 + 5, 2, &off)); // warp 3, lane 5, k = 2 -> line 131
    CHECK_EQ(off, 131ull * 128 + 20);
    CHECK(pattern_access(s, sh, 39 * 32, 15, &off));  // line 999
    CHECK(!pattern_access(s, sh, 40 * 32, 15, &off)); // line 1000: past the end
    // every line is read by exactly one (warp, k), every byte once
    std::vector<int> seen(1000 * 32, 0);
    for (uint64_t t = 0; t < sh.threads; ++t)
        for (uint32_t i = 0; i < sh.iterations; ++i)
            if (pattern_access(s, sh, t, i, &off))
                seen[off / 4]++;
    int bad = 0;
    for (int v : seen)
        bad += v != 1;
    CHECK_EQ(bad, 0);
}

TEST(merged_small_buffer_uses_one_warp_per_line)
{
    const PatternSpec s = make_pattern_spec(Pattern::MergedAligned, 128 * 10, 0);
    const PatternShape sh = pattern_shape(s);
    CHECK_EQ(sh.warps, 10ull);
    CHECK_EQ(sh.iterations, 1u);
}

TEST(misaligned_offset_shifts)
{
    const PatternSpec s = make_pattern_spec(Pattern::MergedMisaligned, 4096, 32);
    const PatternShape sh = pattern_shape(s);
    uint64_t off;
    CHECK(pattern_access(s, sh, 0, 0, &off));
    CHECK_EQ(off, 32ull);
    CHECK(pattern_access(s, sh, 31, 0, &off));
    CHECK_EQ(off, 32ull + 124);
}

TEST(width_shapes_and_addresses)
{
    // strided, 8-B loads: 16 iterations walk the thread's 128-B chunk
    const PatternSpec s8 = make_pattern_spec(Pattern::Strided, 1 << 16, 0, 8);
    const PatternShape a = pattern_shape(s8);
    CHECK_EQ(a.iterations, 16u);
    CHECK_EQ(a.lane_bytes, 8u);
    CHECK_EQ(a.threads, (uint64_t)(1 << 16) / 128);
    uint64_t off;
    CHECK(pattern_access(s8, a, 3, 15, &off));
    CHECK_EQ(off, 3ull * 128 + 120);
    CHECK(!pattern_access(s8, a, 3, 16, &off));
    // merged, 16-B lanes: a warp instruction covers 512 B = 4 lines
    const PatternSpec m16 = make_pattern_spec(Pattern::MergedAligned, 512 * 100, 0, 16, 32);
    const PatternShape b = pattern_shape(m16);
    CHECK_EQ(b.span_bytes, 512ull);
    CHECK_EQ(b.warps, 32ull);
    CHECK_EQ(b.iterations, 4u);                          // ceil(100 / 32)
    CHECK(pattern_access(m16, b, 2 * 32 + 31, 1, &off)); // warp 2, k 1 -> span 34, lane 31
    CHECK_EQ(off, 34ull * 512 + 31 * 16);
    CHECK(!pattern_access(m16, b, 4 * 32, 3, &off)); // span 100: past the end
    // every byte read exactly once, for every pattern x width x offset
    for (Pattern p : {Pattern::Strided, Pattern::MergedAligned, Pattern::MergedMisaligned,
                      Pattern::MergedChunked}) {
        for (uint32_t e : {4u, 8u, 16u}) {
            for (uint32_t o : {0u, 16u, 32u, 96u}) {
                const uint64_t n = 128 * 77 + 2 * 16; // partial last chunk / span
                const PatternSpec s = make_pattern_spec(p, n, o, e, 8);
                const PatternShape sh = pattern_shape(s);
                std::vector<int> seen(n / 4, 0);
                int misaligned = 0, outside = 0;
                for (uint64_t t = 0; t < sh.threads; ++t)
                    for (uint32_t i = 0; i < sh.iterations; ++i)
                        if (pattern_access(s, sh, t, i, &off)) {
                            misaligned += off % e != 0;
                            if (off < o || off + e > o + n) {
                                ++outside;
                                continue;
                            }
                            for (uint32_t w = 0; w < e / 4; ++w)
                                seen[(off - o) / 4 + w]++;
                        }
                int bad = 0;
                for (int v : seen)
                    bad += v != 1;
                CHECK_EQ(bad, 0);
                CHECK_EQ(misaligned, 0);
                CHECK_EQ(outside, 0);
            }
        }
    }
}

// merged-chunked: warp w walks bytes [C w, C (w + 1)) of the data, 32 E per instruction, lanes
// past the chunk's end inactive; every byte once for chunks that do and do not divide the data
TEST(merged_chunked_warp_per_chunk)
{
    uint64_t off = 0;
    const PatternSpec s = make_pattern_spec(Pattern::MergedChunked, 10000, 32, 4, 8, 1000);
    const PatternShape sh = pattern_shape(s);
    CHECK_EQ(sh.warps, 10ull);   // ceil(10000 / 1000): one warp a chunk, no grid stride
    CHECK_EQ(sh.iterations, 8u); // ceil(1000 / 128)
    CHECK(pattern_access(s, sh, 3 * 32 + 5, 2, &off)); // warp 3, instruction 2, lane 5
    CHECK_EQ(off, 32ull + 3 * 1000 + 2 * 128 + 5 * 4);
    CHECK(pattern_access(s, sh, 3 * 32 + 25, 7, &off));  // 7 * 128 + 25 * 4 = 996: inside
    CHECK(!pattern_access(s, sh, 3 * 32 + 26, 7, &off)); // 1000: the next warp's chunk
    for (uint32_t e : {4u, 8u, 16u})
        for (uint64_t chunk : {16ull, 256ull, 1040ull, 4096ull})
            for (uint32_t o : {0u, 4u * e / 4, 64u, 124u / e * e}) {
                const uint64_t n = 128 * 61 + 2 * e;
                const PatternSpec c = make_pattern_spec(Pattern::MergedChunked, n, o, e, 8, chunk);
                const PatternShape cs = pattern_shape(c);
                std::vector<int> seen(n / 4, 0);
                for (uint64_t t = 0; t < cs.threads; ++t)
                    for (uint32_t i = 0; i < cs.iterations; ++i)
                        if (pattern_access(c, cs, t, i, &off)) {
                            CHECK_EQ(off % e, 0ull);
                            CHECK((t / 32) * chunk <= off - o && off - o < (t / 32 + 1) * chunk);
                            for (uint32_t w = 0; w < e / 4; ++w)
                                seen[(off - o) / 4 + w]++;
                        }
                int bad = 0;
                for (int v : seen)
                    bad += v != 1;
                CHECK_EQ(bad, 0);
            }
}

TEST(workload_rules)
{
    char err[160];
    CHECK(workload_valid(4096, 32, 16, err, sizeof err));
    CHECK(!workload_valid(4096, 8, 16, err, sizeof err)); // misaligned vector load
    CHECK(std::string(err).find("aligned") != std::string::npos);
    CHECK(!workload_valid(4100, 0, 8, err, sizeof err)); // a partial load
    CHECK(!workload_valid(4096, 0, 12, err, sizeof err));
    CHECK(!workload_valid(0, 0, 4, err, sizeof err));
    L1Load l;
    CHECK(l1_load_from_name("bypass", &l) && l == L1Load::Bypass);
    CHECK(!l1_load_from_name("cg", &l));
    CHECK_EQ(std::string(l1_load_name(L1Load::Ideal)), std::string("ideal"));
}

TEST(pattern_names)
{
    Pattern p;
    CHECK(pattern_from_name("strided", &p) && p == Pattern::Strided);
    CHECK(pattern_from_name("merged-aligned", &p) && p == Pattern::MergedAligned);
    CHECK(pattern_from_name("merged-misaligned", &p) && p == Pattern::MergedMisaligned);
    CHECK(!pattern_from_name("merged", &p));
    CHECK(!pattern_from_name("strided2", &p));
    CHECK(!pattern_from_name("", &p));
    CHECK_EQ(std::string(pattern_name(Pattern::MergedMisaligned)), "merged-misaligned");
    CHECK_EQ(pattern_default_offset(Pattern::MergedMisaligned), 32u);
    CHECK_EQ(pattern_default_offset(Pattern::Strided), 0u);
}
