// The zero-copy kernels' per-thread work (native/cuda/kernel_body.h) run on the CPU for every
// thread of the launch: the checksum a GPU must produce equals the CPU's reference for every
// pattern x width x offset, and the checksum would catch a kernel that reads a word twice or
// skips one.
#include <stdlib.h>

#include <vector>

#include "gpu_bench.h"
#include "harness.h"
#include "kernel_body.h"

using namespace ps;
using namespace ps::gpu;

namespace {

struct Buffer {
    std::vector<uint32_t> words; // 4-B aligned storage; the patterns need 128-B alignment only
    explicit Buffer(uint64_t bytes) : words((bytes + 4095) / 4096 * 1024)
    {
        fill_buffer(data(), words.size());
    }
    unsigned char *data() { return reinterpret_cast<unsigned char *>(words.data()); }
};

} // namespace

TEST(buffer_words_differ)
{
    int same = 0;
    for (uint64_t i = 0; i < 4096; ++i)
        same += buffer_word(i) == buffer_word(i + 1);
    CHECK_EQ(same, 0);
    CHECK(buffer_word(0) != buffer_word(1ull << 32)); // high index bits count
}

TEST(every_pattern_width_offset_matches_the_cpu_reference)
{
    int cases = 0;
    for (const PatternInfo &p : kPatterns) {
        for (uint32_t e : kElementBytesValues) {
            for (uint32_t offset : {0u, 16u, 32u, 48u, 64u, 96u, 112u, 124u}) {
                if (offset % e)
                    continue;
                // whole lines, a partial last line / span, one load; grid_warps 8 forces the
                // merged kernels to stride (several iterations) and leaves spare threads
                for (uint64_t bytes : {uint64_t(128 * 300), uint64_t(128 * 300 + 2 * e),
                                       uint64_t(e), uint64_t(4096)}) {
                    Buffer buf(offset + bytes);
                    for (uint64_t grid_warps : {uint64_t(8), kDefaultGridWarps}) {
                        const PatternSpec s =
                            make_pattern_spec(p.pattern, bytes, offset, e, grid_warps);
                        const uint64_t want = reference_sum(buf.data(), offset, bytes);
                        const uint64_t got = kernel_sum_on_cpu(s, buf.data(), kBlockThreads);
                        if (got != want)
                            fprintf(stderr, "  %s E=%u offset=%u bytes=%llu grid_warps=%llu\n",
                                    p.name, e, offset, (unsigned long long)bytes,
                                    (unsigned long long)grid_warps);
                        CHECK_EQ(got, want);
                        ++cases;
                    }
                }
            }
        }
    }
    CHECK(cases > 100);
}

TEST(spare_threads_of_the_last_block_read_nothing)
{
    // 3 warps of strided threads in a block of 256: 5 spare warps must not add anything
    const PatternSpec s = make_pattern_spec(Pattern::MergedAligned, 128 * 3 * 7, 0, 4, 3);
    const PatternShape shape = pattern_shape(s);
    CHECK_EQ(shape.threads, uint64_t(96));
    CHECK_EQ(launch_threads(shape, kBlockThreads), uint64_t(256));
    Buffer buf(128 * 3 * 7);
    const HostLoad load{4};
    for (uint64_t t = shape.threads; t < 256; ++t)
        CHECK_EQ(thread_sum(s, shape, t, buf.data(), load), uint64_t(0));
}

TEST(the_checksum_catches_a_wrong_read)
{
    // a kernel that read one word twice and skipped its neighbour, or read one word more
    Buffer buf(4096);
    const uint64_t want = reference_sum(buf.data(), 0, 4096);
    const uint64_t doubled = want - buffer_word(10) + buffer_word(11);
    CHECK(doubled != want);
    CHECK(reference_sum(buf.data(), 0, 4100) != want);
    // and the wrong offset (the aligned walk run on misaligned data)
    const PatternSpec s = make_pattern_spec(Pattern::MergedAligned, 4000, 0, 8);
    CHECK(kernel_sum_on_cpu(s, buf.data(), kBlockThreads) != reference_sum(buf.data(), 32, 4000));
}

TEST(host_load_sums_the_lane_words)
{
    uint32_t w[4] = {1, 2, 3, 0xffffffffu};
    const unsigned char *p = reinterpret_cast<const unsigned char *>(w);
    CHECK_EQ(HostLoad{4}(p), uint64_t(1));
    CHECK_EQ(HostLoad{8}(p), uint64_t(3));
    CHECK_EQ(HostLoad{16}(p), uint64_t(6) + 0xffffffffu);
}
