// The capacity-limited L1 (native/model/l1_lru.h): LRU order, sector fill, capacity 0, and its
// hash table against a plain reference under many evictions.
#include <list>
#include <utility>

#include "harness.h"
#include "l1_lru.h"
#include "prng.h"

using namespace ps;

namespace {
constexpr uint64_t L(uint64_t i) { return 0x100000000ull + 128 * i; } // line i
} // namespace

TEST(l1_lru_evicts_the_least_recently_used_line)
{
    LruL1 c(3 * 128);
    CHECK_EQ(c.capacity_lines(), 3u);
    CHECK_EQ(c.fetch(L(0), 0x1), 0x1u);
    CHECK_EQ(c.fetch(L(1), 0x1), 0x1u);
    CHECK_EQ(c.fetch(L(2), 0x1), 0x1u);
    CHECK_EQ(c.fetch(L(0), 0x1), 0u);   // hit: line 0 is now the newest, line 1 the oldest
    CHECK_EQ(c.fetch(L(3), 0x1), 0x1u); // evicts line 1
    CHECK_EQ(c.sectors_of(L(1)), 0u);
    CHECK_EQ(c.sectors_of(L(0)), 0x1u);
    CHECK_EQ(c.sectors_of(L(2)), 0x1u);
    CHECK_EQ(c.fetch(L(1), 0x1), 0x1u); // back: evicts line 2, the oldest now
    CHECK_EQ(c.sectors_of(L(2)), 0u);
    CHECK_EQ(c.evictions(), 2u);
    CHECK_EQ(c.lines_held(), 3u);
}

TEST(l1_lru_fills_sectors_not_lines)
{
    LruL1 c(4 * 128);
    CHECK_EQ(c.fetch(L(5), 0x1), 0x1u); // a miss allocates the line, fetches sector 0 only
    CHECK_EQ(c.fetch(L(5), 0x3), 0x2u); // the line is there: only sector 1 is missing
    CHECK_EQ(c.fetch(L(5), 0xF), 0xCu); // then 2 and 3
    CHECK_EQ(c.fetch(L(5), 0xF), 0u);   // all present (or pending)
    CHECK_EQ(c.sectors_of(L(5)), 0xFu);
    c.clear(); // a new launch starts cold
    CHECK_EQ(c.sectors_of(L(5)), 0u);
    CHECK_EQ(c.fetch(L(5), 0x4), 0x4u);
}

TEST(l1_lru_of_zero_bytes_keeps_nothing)
{
    LruL1 c(0);
    CHECK_EQ(c.capacity_lines(), 0u);
    CHECK_EQ(c.fetch(L(0), 0xF), 0xFu);
    CHECK_EQ(c.fetch(L(0), 0xF), 0xFu); // fetched again, as a bypassing load would
    CHECK_EQ(c.sectors_of(L(0)), 0u);
}

// Random lines over a space 3x the capacity: every answer equals a list-based LRU's, which checks
// the open-addressing table (deletions included) and the recency list together.
TEST(l1_lru_matches_a_reference_lru_under_churn)
{
    const uint32_t lines = 61; // not a power of two
    LruL1 c(lines * 128);
    std::list<std::pair<uint64_t, uint32_t>> ref; // front = newest
    Xoshiro256 rng(7);
    uint64_t mismatches = 0;
    for (int i = 0; i < 200000; ++i) {
        const uint64_t line = L(rng.below(3 * lines));
        const uint32_t mask = 1u << rng.below(4);
        uint32_t want = mask;
        for (auto it = ref.begin(); it != ref.end(); ++it)
            if (it->first == line) {
                want = mask & ~it->second;
                const uint32_t m = it->second | mask;
                ref.erase(it);
                ref.emplace_front(line, m);
                goto found;
            }
        if (ref.size() == lines)
            ref.pop_back();
        ref.emplace_front(line, mask);
    found:
        if (c.fetch(line, mask) != want)
            ++mismatches;
    }
    CHECK_EQ(mismatches, 0u);
    CHECK_EQ(c.lines_held(), lines);
    for (const auto &e : ref)
        CHECK_EQ(c.sectors_of(e.first), e.second);
}

// Random replacement: the capacity holds, the victim sequence repeats for one seed, and a line
// in use is not always the one lost (cyclic reuse over more lines than the capacity keeps some).
TEST(l1_random_replacement)
{
    auto run = [](uint64_t seed) {
        LruL1 l1(64 * 128, true);
        l1.seed(seed);
        uint64_t fetched = 0;
        for (int round = 0; round < 20; ++round)
            for (uint64_t line = 0; line < 72; ++line)
                fetched += l1.fetch(line * 128, 1) != 0;
        CHECK(l1.lines_held() <= 64u);
        return fetched;
    };
    const uint64_t a = run(1), b = run(1);
    CHECK_EQ(a, b);
    CHECK(a < 20 * 72);     // LRU would miss every access
    CHECK(a > 72 + 20 * 8); // but the 8 lines too many cost misses
}
