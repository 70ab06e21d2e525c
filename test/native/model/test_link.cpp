#include <cmath>

#include "harness.h"
#include "link.h"

using namespace ps;

namespace {
bool near(double a, double b, double rel) { return std::fabs(a - b) <= rel * b; }
} // namespace

// docs/pcie.md, bytes on the wire: TLP GB/s after the pcie-model allowance at MPS 256
TEST(link_capacity_matches_reference_table)
{
    const struct {
        uint32_t gen;
        double gbps;
    } rows[] = {{1, 3.10}, {2, 6.94}, {3, 14.21}, {4, 28.43}, {5, 56.85}};
    for (const auto &r : rows) {
        LinkConfig c;
        c.gen = r.gen;
        c.lanes = 16;
        CHECK(near(link_tlp_bytes_per_second(c) / 1e9, r.gbps, 0.005));
    }
    LinkConfig x8;
    x8.gen = 3;
    x8.lanes = 8;
    CHECK(near(link_tlp_bytes_per_second(x8) / 1e9, 14.21 / 2, 0.005));
}

TEST(link_rejects_unsupported_configs)
{
    LinkConfig c;
    c.gen = 6;
    CHECK_EQ(link_tlp_bytes_per_second(c), 0.0);
    c.gen = 3;
    c.lanes = 12;
    CHECK_EQ(link_tlp_bytes_per_second(c), 0.0);
    LinkConfig out;
    CHECK(parse_link("gen4x8", &out));
    CHECK_EQ(out.gen, 4u);
    CHECK_EQ(out.lanes, 8u);
    CHECK(!out.ideal);
    CHECK(parse_link("ideal", &out));
    CHECK(out.ideal);
    CHECK(!parse_link("gen6x16", &out));
    CHECK(!parse_link("gen3x", &out));
    CHECK(!parse_link("gen3x3", &out));
    CHECK(!parse_link("gen3x16q", &out));
    CHECK(!parse_link("", &out));
}

TEST(wire_bytes_per_tlp)
{
    CHECK_EQ(mrd_wire_bytes(0x100000000ull), 24u); // 4DW
    CHECK_EQ(mrd_wire_bytes(0x80000000ull), 20u);  // 3DW
    CHECK_EQ(cpl_wire_bytes(32), 52u);
    CHECK_EQ(cpl_wire_bytes(128), 148u);
}

// Sending TLPs back to back through the gate reproduces the read payload ceiling of §7:
// typical TLP rate x S / (S + 20).
TEST(gate_throughput_equals_payload_ceiling)
{
    LinkConfig c; // gen3x16
    for (uint32_t s : {32u, 64u, 96u, 128u}) {
        LinkGate g(c, 250000000);
        uint64_t tlps = 0;
        const uint64_t clocks = 1000000;
        for (uint64_t t = 0; t < clocks; ++t) {
            g.tick();
            while (g.open()) { // a saturating sender: start TLPs whenever the wire allows
                g.send(cpl_wire_bytes(s));
                ++tlps;
            }
        }
        const double gbps = (double)tlps * s / (clocks / 250e6) / 1e9;
        const double ceiling = link_tlp_bytes_per_second(c) * s / (s + 20.0) / 1e9;
        CHECK(near(gbps, ceiling, 0.01));
    }
}

TEST(gate_ideal_never_closes_and_idle_banks_no_burst)
{
    LinkConfig ideal;
    ideal.ideal = true;
    LinkGate open(ideal, 250000000);
    for (int i = 0; i < 100; ++i) {
        CHECK(open.open());
        open.send(1000);
    }
    LinkGate g(LinkConfig{}, 250000000);
    for (int i = 0; i < 100000; ++i)
        g.tick(); // long idle
    uint32_t started = 0;
    while (g.open() && started < 100) {
        g.send(cpl_wire_bytes(128));
        ++started;
    }
    CHECK(started
          <= 2u); // at most one large TLP of banked credit (plus the one that goes negative)
}
