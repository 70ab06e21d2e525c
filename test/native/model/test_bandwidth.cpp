#include "bandwidth.h"
#include "harness.h"

using namespace ps;

namespace {

HostModel host()
{
    HostModel h;
    parse_link("gen5x16", &h.link);
    h.reads_per_us = 700;
    h.wire_efficiency = 1;
    h.combine_exponent = 4;
    h.step_ns = 1000;
    h.launch_us = 5;
    return h;
}

ReadStream reads(uint64_t n, uint32_t len)
{
    ReadStream s;
    for (uint64_t i = 0; i < n; ++i)
        s.add(len);
    return s;
}

} // namespace

// Each limit alone where it dominates, and more than either where both are close.
TEST(bandwidth_wire_and_request_rate)
{
    const HostModel h = host();
    const double link = link_tlp_bytes_per_second(h.link);
    // 128-B reads: the wire's 148 B per read, the request rate far away
    const ReadStream big = reads(1000000, 128);
    CHECK_EQ(big.wire_bytes, 148000000ull);
    const double t_big = stream_seconds(big, h);
    CHECK(t_big >= 148e6 / link && t_big < 1.05 * 148e6 / link);
    // 32-B reads at the request rate: 1e6 reads / 700 per us, the wire (52 B each) below it
    const double t_small = stream_seconds(reads(1000000, 32), h);
    CHECK(t_small > 1e6 / 700e6 && t_small < 1.15e6 / 700e6);
    // a p-norm: never below the larger limit, never above their sum
    const ReadStream mix = reads(1000000, 64);
    const double wire = mix.wire_bytes / link, rate = 1e6 / 700e6;
    const double t = stream_seconds(mix, h);
    CHECK(t >= (wire > rate ? wire : rate) && t <= wire + rate);
}

TEST(bandwidth_launch_chain)
{
    const HostModel h = host();
    // few reads, a long list: the dependent steps set the time
    CHECK(launch_seconds(reads(10, 128), 100, h) >= 100 * 1e-6 + 5e-6);
    // many reads, one step: the reads do
    const ReadStream many = reads(1000000, 128);
    CHECK(launch_seconds(many, 1, h) >= stream_seconds(many, h) + 5e-6 - 1e-12);
}
