// Hand-worked cases of the coalescing rules (docs/gpu-coalescing.md: sectors, L1, one read per
// line).
#include <cstdlib>
#include <set>
#include <vector>

#include "coalescer.h"
#include "harness.h"

using namespace ps;

namespace {

constexpr uint64_t kLine = 0x10000000ull; // an arbitrary 128-B aligned line

// Every lane reads 4 B inside the sectors of `mask` (8 lanes per sector slot, round-robin).
WarpLoad mask_load(uint64_t line, std::vector<int> sectors)
{
    WarpLoad w{};
    w.lane_bytes = 4;
    w.active = 0xFFFFFFFFu;
    const size_t n = sectors.size();
    for (uint32_t l = 0; l < 32; ++l)
        w.addr[l] = line + 32ull * sectors[l % n] + 4ull * ((l / n) % 8);
    return w;
}

// The warp reads a contiguous span: lane l at start + l * lane_bytes.
WarpLoad span_load(uint64_t start, uint32_t lane_bytes)
{
    WarpLoad w{};
    w.lane_bytes = lane_bytes;
    w.active = 0xFFFFFFFFu;
    for (uint32_t l = 0; l < 32; ++l)
        w.addr[l] = start + (uint64_t)l * lane_bytes;
    return w;
}

std::vector<Mrd> run(const WarpLoad &w, L1Mode mode = L1Mode::Off, SectorBitmap *l1 = nullptr)
{
    Mrd out[kMaxMrdsPerInstruction];
    const int n = coalesce(w, mode, l1, out);
    return std::vector<Mrd>(out, out + n);
}

// "len@offset" list relative to kLine, for compact expectations.
std::string describe(const std::vector<Mrd> &m, uint64_t base = kLine)
{
    std::string s;
    for (auto &r : m) {
        if (!s.empty())
            s += " ";
        s += std::to_string(r.len) + "@" + std::to_string((long long)(r.addr - base));
    }
    return s;
}

} // namespace

TEST(mask_single_sectors)
{
    CHECK_EQ(describe(run(mask_load(kLine, {0}))), "32@0");
    CHECK_EQ(describe(run(mask_load(kLine, {1}))), "32@32");
    CHECK_EQ(describe(run(mask_load(kLine, {3}))), "32@96");
}

TEST(mask_contiguous)
{
    CHECK_EQ(describe(run(mask_load(kLine, {0, 1}))), "64@0");
    CHECK_EQ(describe(run(mask_load(kLine, {1, 2}))), "64@32");
    CHECK_EQ(describe(run(mask_load(kLine, {0, 1, 2}))), "96@0");
    CHECK_EQ(describe(run(mask_load(kLine, {0, 1, 2, 3}))), "128@0");
}

TEST(mask_holes_are_overfetched)
{
    CHECK_EQ(describe(run(mask_load(kLine, {0, 2}))), "96@0");
    CHECK_EQ(describe(run(mask_load(kLine, {1, 3}))), "96@32");
    CHECK_EQ(describe(run(mask_load(kLine, {0, 3}))), "128@0");
    CHECK_EQ(describe(run(mask_load(kLine, {0, 1, 3}))), "128@0");
    CHECK_EQ(describe(run(mask_load(kLine, {0, 2, 3}))), "128@0");
}

// A producer may mark a whole-warp run (lanes_in_run) so the coalescer skips checking it lane
// by lane: the MRds must be those of the same load unmarked, for every width and offset.
TEST(marked_run_same_as_checked)
{
    int compared = 0;
    for (uint32_t w : {1u, 2u, 4u, 8u, 16u})
        for (uint64_t off = 0; off < 128; off += 4) {
            WarpLoad checked = span_load(kLine + off, w);
            WarpLoad marked = checked;
            marked.lanes_in_run = true;
            CHECK_EQ(describe(run(marked)), describe(run(checked)));
            ++compared;
        }
    CHECK_EQ(compared, 5 * 32);
}

TEST(warp_span_128_misaligned)
{
    CHECK_EQ(describe(run(span_load(kLine + 0, 4))), "128@0");
    CHECK_EQ(describe(run(span_load(kLine + 32, 4))), "96@32 32@128");
    CHECK_EQ(describe(run(span_load(kLine + 64, 4))), "64@64 64@128");
    CHECK_EQ(describe(run(span_load(kLine + 96, 4))), "32@96 96@128");
}

TEST(warp_span_256_and_512)
{
    CHECK_EQ(describe(run(span_load(kLine, 8))), "128@0 128@128");
    CHECK_EQ(describe(run(span_load(kLine + 32, 8))), "96@32 128@128 32@256");
    CHECK_EQ(describe(run(span_load(kLine, 16))), "128@0 128@128 128@256 128@384");
    CHECK_EQ(describe(run(span_load(kLine + 32, 16))), "96@32 128@128 128@256 128@384 32@512");
}

TEST(inactive_lanes_are_ignored)
{
    WarpLoad w = span_load(kLine, 4);
    w.active = 0;
    CHECK_EQ(run(w).size(), 0u);
    w.active = 0x000000FFu; // lanes 0..7 -> sector 0
    CHECK_EQ(describe(run(w)), "32@0");
    w.active = 0xFF0000FFu; // sectors 0 and 3
    CHECK_EQ(describe(run(w)), "128@0");
    w.active = 0x00FF0000u; // sector 2
    CHECK_EQ(describe(run(w)), "32@64");
}

TEST(mrds_ascend_when_lanes_descend)
{
    WarpLoad w{};
    w.lane_bytes = 4;
    w.active = 0xFFFFFFFFu;
    for (uint32_t l = 0; l < 32; ++l)
        w.addr[l] = kLine + 128ull * (31 - l); // 32 lines, sector 0
    auto m = run(w);
    CHECK_EQ(m.size(), 32u);
    for (size_t i = 0; i < m.size(); ++i) {
        CHECK_EQ(m[i].addr, kLine + 128ull * i);
        CHECK_EQ(m[i].len, 32u);
    }
}

TEST(l1_ideal_present_or_pending_not_refetched)
{
    SectorBitmap l1(kLine, 4096);
    CHECK_EQ(describe(run(mask_load(kLine, {0}), L1Mode::Ideal, &l1)), "32@0");
    // same sector again: pending -> nothing
    CHECK_EQ(run(mask_load(kLine, {0}), L1Mode::Ideal, &l1).size(), 0u);
    // {0,1}: only sector 1 is missing
    CHECK_EQ(describe(run(mask_load(kLine, {0, 1}), L1Mode::Ideal, &l1)), "32@32");
    // {0,3}: sectors 0,1 present -> only 3 is missing
    CHECK_EQ(describe(run(mask_load(kLine, {0, 3}), L1Mode::Ideal, &l1)), "32@96");
    // the full line: only sector 2 is missing
    CHECK_EQ(describe(run(mask_load(kLine, {0, 1, 2, 3}), L1Mode::Ideal, &l1)), "32@64");
    // everything present
    CHECK_EQ(run(mask_load(kLine, {0, 1, 2, 3}), L1Mode::Ideal, &l1).size(), 0u);
    // missing {2} only although the instruction wants the line
    SectorBitmap l2(kLine, 4096);
    run(mask_load(kLine, {0, 1}), L1Mode::Ideal, &l2);
    run(mask_load(kLine, {3}), L1Mode::Ideal, &l2);
    CHECK_EQ(describe(run(mask_load(kLine, {0, 1, 2, 3}), L1Mode::Ideal, &l2)), "32@64");
    // clear forgets
    l2.clear();
    CHECK_EQ(describe(run(mask_load(kLine, {0, 1, 2, 3}), L1Mode::Ideal, &l2)), "128@0");
}

TEST(l1_hole_fetch_marks_only_requested_sectors)
{
    SectorBitmap l1(kLine, 4096);
    CHECK_EQ(describe(run(mask_load(kLine, {0, 2}), L1Mode::Ideal, &l1)), "96@0");
    CHECK_EQ(l1.line_mask(kLine), 0x5u);
    CHECK_EQ(describe(run(mask_load(kLine, {1}), L1Mode::Ideal, &l1)), "32@32");
}

TEST(l1_off_fetches_every_instruction)
{
    SectorBitmap l1(kLine, 4096);
    for (int i = 0; i < 3; ++i)
        CHECK_EQ(describe(run(mask_load(kLine, {0}), L1Mode::Off, &l1)), "32@0");
    CHECK_EQ(l1.line_mask(kLine), 0u);
    for (int i = 0; i < 3; ++i)
        CHECK_EQ(describe(run(mask_load(kLine, {0}))), "32@0");
}

TEST(l1_outside_bitmap_is_never_cached)
{
    SectorBitmap l1(kLine, 128);
    CHECK_EQ(describe(run(mask_load(kLine + 128, {0}), L1Mode::Ideal, &l1)), "32@128");
    CHECK_EQ(describe(run(mask_load(kLine + 128, {0}), L1Mode::Ideal, &l1)), "32@128");
    CHECK_EQ(run(mask_load(kLine, {0}), L1Mode::Ideal, &l1).size(), 1u);
    CHECK_EQ(run(mask_load(kLine, {0}), L1Mode::Ideal, &l1).size(), 0u);
}

TEST(bitmap_geometry)
{
    SectorBitmap b(0x1000 + 32, 200); // [0x1020, 0x10E8) -> lines 0x1000, 0x1080
    CHECK_EQ(b.base(), 0x1000ull);
    CHECK_EQ(b.bytes(), 256ull);
    b.set_line_mask(0x1080, 0xF);
    CHECK_EQ(b.line_mask(0x1080), 0xFu);
    CHECK_EQ(b.line_mask(0x1000), 0u);
    for (uint64_t l = 0; l < 40; ++l) { // neighbouring lines in one word stay independent
        SectorBitmap c(0, 128 * 40);
        c.set_line_mask(128 * l, 0x9);
        for (uint64_t k = 0; k < 40; ++k)
            CHECK_EQ(c.line_mask(128 * k), k == l ? 0x9u : 0u);
    }
}

// Random instructions against a brute-force reference of R1 + R4 (no L1).
TEST(random_against_reference)
{
    std::srand(12345);
    const uint32_t widths[] = {1, 2, 4, 8, 16};
    for (int iter = 0; iter < 20000; ++iter) {
        WarpLoad w{};
        w.lane_bytes = widths[std::rand() % 5];
        w.active = ((uint32_t)std::rand() << 16) ^ (uint32_t)std::rand();
        const int spread = 1 + std::rand() % 2048;
        const uint64_t base = kLine + 128ull * (std::rand() % 64);
        for (uint32_t l = 0; l < 32; ++l) {
            uint64_t a = base + (uint64_t)(std::rand() % spread);
            if (std::rand() % 2)
                a -= a % w.lane_bytes; // mostly naturally aligned
            w.addr[l] = a;
        }
        std::set<uint64_t> sectors;
        for (uint32_t l = 0; l < 32; ++l)
            if ((w.active >> l) & 1)
                for (uint64_t b = w.addr[l]; b < w.addr[l] + w.lane_bytes; ++b)
                    sectors.insert(b / 32);
        std::set<uint64_t> lines;
        for (auto s : sectors)
            lines.insert(s / 4);
        auto m = run(w);
        CHECK_EQ(m.size(), lines.size());
        size_t i = 0;
        for (auto line : lines) {
            uint64_t lo = 4, hi = 0;
            for (uint64_t s = 0; s < 4; ++s)
                if (sectors.count(line * 4 + s)) {
                    if (lo == 4)
                        lo = s;
                    hi = s;
                }
            if (i < m.size()) {
                CHECK_EQ(m[i].addr, line * 128 + 32 * lo);
                CHECK_EQ(m[i].len, (uint32_t)(32 * (hi - lo + 1)));
                CHECK(m[i].len <= 128 && (m[i].addr % 128) + m[i].len <= 128);
            }
            ++i;
        }
        if (harness::current_failures())
            return;
    }
}

// A warp of 32 consecutive lanes takes the coalescer's contiguous path; the same addresses in
// another lane order take the lane-by-lane path. Both must give the same reads, for every lane
// width and offset into a line.
TEST(contiguous_path_matches_lane_path)
{
    int compared = 0;
    for (uint32_t lane_bytes : {1u, 2u, 4u, 8u, 12u, 16u}) {
        for (uint64_t offset = 0; offset < 256; offset += 4) {
            const WarpLoad span = span_load(kLine + offset, lane_bytes);
            WarpLoad reversed = span;
            for (uint32_t l = 0; l < 32; ++l)
                reversed.addr[l] = span.addr[31 - l];
            CHECK_EQ(describe(run(span)), describe(run(reversed)));
            SectorBitmap l1_span, l1_reversed;
            l1_span.reset(kLine, 4096);
            l1_reversed.reset(kLine, 4096);
            CHECK_EQ(describe(run(span, L1Mode::Ideal, &l1_span)),
                     describe(run(reversed, L1Mode::Ideal, &l1_reversed)));
            ++compared;
        }
    }
    CHECK_EQ(compared, 6 * 64);
}

// R5: the next load of the same warp joins this instruction's read of a shared line; a line the
// later load reads alone is left to it; bypassing loads (no L1) never merge.
TEST(coalesce_ahead_merges_the_warps_next_load)
{
    WarpLoad a{}, b{};
    a.lane_bytes = b.lane_bytes = 4;
    a.active = b.active = 0xFFFFFFFFu;
    for (uint32_t l = 0; l < kWarpSize; ++l) {
        a.addr[l] = 0x1000 + 32 + 4 * l; // sectors 1-3 of line 0x1000, sector 0 of 0x1080
        b.addr[l] = 0x1080 + 32 + 4 * l; // sectors 1-3 of line 0x1080, sector 0 of 0x1100
    }
    SectorBitmap l1(0x1000, 4096);
    Mrd out[kMaxMrdsPerInstruction];
    const int n = coalesce_ahead(a, &b, 1, &l1, out);
    CHECK_EQ(n, 2);
    CHECK_EQ(out[0].addr, 0x1020ull);
    CHECK_EQ(out[0].len, 96u);
    CHECK_EQ(out[1].addr, 0x1080ull); // sector 0 with the next load's 1-3: one 128-B read
    CHECK_EQ(out[1].len, 128u);
    // the next load then finds line 0x1080 pending and reads only the new line's sector 0
    const int m = coalesce_through(b, &l1, out);
    CHECK_EQ(m, 1);
    CHECK_EQ(out[0].addr, 0x1100ull);
    CHECK_EQ(out[0].len, 32u);
    // no L1: per instruction, as before
    CHECK_EQ(coalesce_ahead(a, &b, 1, nullptr, out), 2);
    CHECK_EQ(out[1].len, 32u);
}
