#include "harness.h"
#include "tlp.h"

using namespace ps;

TEST(mrd_4dw_header)
{
    const TlpHeader h = make_mrd_header(0x100000080ull, 128, 5);
    CHECK_EQ(h.dw[0], 0x20000020u); // Fmt 001, Type 0, Length 32 DW
    CHECK_EQ(h.dw[1], 0x010005FFu); // requester 0100, tag 05, BEs F/F
    CHECK_EQ(h.dw[2], 0x00000001u);
    CHECK_EQ(h.dw[3], 0x00000080u);
    CHECK_EQ(h.hi(), 0x20000020010005FFull);
    CHECK_EQ(h.lo(), 0x0000000100000080ull);
    const TlpHeader r = TlpHeader::from_u64(h.hi(), h.lo());
    for (int i = 0; i < 4; ++i)
        CHECK_EQ(r.dw[i], h.dw[i]);
}

TEST(mrd_3dw_header_below_4gib)
{
    const TlpHeader h = make_mrd_header(0x12345660ull, 32, 0xAB);
    CHECK_EQ(h.dw[0], 0x00000008u);
    CHECK_EQ(h.dw[1], 0x0100ABFFu);
    CHECK_EQ(h.dw[2], 0x12345660u);
    CHECK_EQ(h.dw[3], 0u);
}

TEST(mrd_byte_enables)
{
    CHECK_EQ(make_mrd_header(0x1000, 4, 0).dw[1] & 0xFF, 0x0Fu); // 1 DW: last BE 0000
    CHECK_EQ(make_mrd_header(0x1001, 2, 0).dw[1] & 0xFF, 0x06u); // bytes 1..2
    CHECK_EQ(make_mrd_header(0x1002, 4, 0).dw[1] & 0xFF, 0x3Cu); // 2 DW: first 1100, last 0011
    CHECK_EQ(make_mrd_header(0x1002, 4, 0).dw[0] & 0x3FF, 2u);
    CHECK_EQ(make_mrd_header(0x1000, 4096, 0).dw[0] & 0x3FF, 0u); // 1024 DW encodes as 0
    CHECK_EQ(make_mrd_header(0x1000, 64, 0).dw[0] & 0x3FF, 16u);
    CHECK_EQ(make_mrd_header(0x1000, 96, 0).dw[0] & 0x3FF, 24u);
}

TEST(cpld_parse)
{
    // CplD 32 DW, SC, BC 128, completer 0200, requester 0100, tag 0x7E, lower address 0x20
    TlpHeader h;
    h.dw[0] = 0x4A000020u;
    h.dw[1] = 0x02000080u;
    h.dw[2] = 0x01007E20u;
    h.dw[3] = 0;
    const CplInfo c = parse_cpl_header(h);
    CHECK(c.is_completion && c.has_data && !c.poisoned);
    CHECK_EQ(c.length_dw, 32u);
    CHECK_EQ(c.status, kCplStatusSC);
    CHECK_EQ(c.byte_count, 128u);
    CHECK_EQ(c.completer_id, 0x0200);
    CHECK_EQ(c.requester_id, 0x0100);
    CHECK_EQ(c.tag, 0x7E);
    CHECK_EQ(c.lower_addr, 0x20);
    CHECK(cpl_is_last(c));
}

TEST(cpl_ur_parse_and_roundtrip)
{
    const TlpHeader h = make_cpl_header(false, 0, kCplStatusUR, 512, 3, 0);
    CHECK_EQ(h.dw[0], 0x0A000000u);
    const CplInfo c = parse_cpl_header(h);
    CHECK(c.is_completion && !c.has_data);
    CHECK_EQ(c.status, kCplStatusUR);
    CHECK_EQ(c.length_dw, 0u);
    CHECK(cpl_is_last(c));
    const CplInfo d = parse_cpl_header(make_cpl_header(true, 0, 0, 0, 9, 0x7F));
    CHECK_EQ(d.length_dw, 1024u);
    CHECK_EQ(d.byte_count, 4096u);
    CHECK_EQ(d.lower_addr, 0x7F);
    CHECK_EQ(d.tag, 9);
}

TEST(cpl_last_rule)
{
    // 200 B at 0x60 split 32 + 128 + 40 (RCB 128): BC 200, 168, 40
    CHECK(!cpl_is_last(parse_cpl_header(make_cpl_header(true, 8, 0, 200, 1, 0x60))));
    CHECK(!cpl_is_last(parse_cpl_header(make_cpl_header(true, 32, 0, 168, 1, 0x00))));
    CHECK(cpl_is_last(parse_cpl_header(make_cpl_header(true, 10, 0, 40, 1, 0x00))));
    // first-DW offset: 6 bytes at 0x02 in 2 DW -> room 6
    CHECK(cpl_is_last(parse_cpl_header(make_cpl_header(true, 2, 0, 6, 1, 0x02))));
    CHECK(!cpl_is_last(parse_cpl_header(make_cpl_header(true, 2, 0, 8, 1, 0x02))));
}
