/* test_probe.c - the CSR driver against the test port's register file. */
#include "generated/pcie_scope_regs.h"
#include "hal_test.h"
#include "ps_le.h"
#include "ps_probe.h"
#include "ps_telemetry.h"
#include "suites.h"
#include "th.h"

static void probe_identify(void)
{
    ps_test_reset();
    ps_probe_ident_t id;
    TH_EQ(ps_probe_identify(&id), PS_PROBE_OK);
    TH_EQ(id.id, PS_ID_MAGIC);
    TH_EQ(id.version, PS_VERSION_VALUE);
    TH_EQ(id.clock_hz, 250000000u);
    ps_test_stick_reg(PS_REG_ID, 0xFFFFFFFFu); /* nothing answers on the bus */
    TH_EQ(ps_probe_identify(&id), PS_PROBE_ERR_NO_PROBE);
    TH_EQ(id.id, 0xFFFFFFFFu);
}

static void probe_enable_keeps_other_bits(void)
{
    ps_test_reset();
    ps_test_set_reg(PS_REG_CTRL, 0x80000000u);
    ps_probe_enable();
    TH_EQ(ps_test_reg(PS_REG_CTRL), 0x80000000u | PS_REG_CTRL_ENABLE);
    TH_CHECK(ps_probe_is_enabled());
    ps_probe_disable();
    TH_EQ(ps_test_reg(PS_REG_CTRL), 0x80000000u);
    TH_CHECK(!ps_probe_is_enabled());
}

static void probe_snapshot_reads_every_counter(void)
{
    ps_test_reset();
    for (unsigned i = 0; i < PS_CNT_COUNT; i++) {
        ps_test_set_counter(i, 0x0100000000000000ull * (i + 1u) + 0x00000000F0000000ull + i);
    }
    uint64_t c[PS_CNT_COUNT];
    ps_probe_snapshot(c);
    for (unsigned i = 0; i < PS_CNT_COUNT; i++) {
        TH_EQ(c[i], ps_test_counter(i));
    }
    ps_test_reg_stats_t s = ps_test_regs_stats();
    TH_EQ(s.snapshots, 1);
    TH_EQ(s.counter_reads_since_snapshot, 2u * PS_CNT_COUNT);
    /* the copy is a snapshot: later live changes are not in it until the next one */
    ps_test_set_counter(PS_CNT_MRD_32, 5);
    ps_probe_snapshot(c);
    TH_EQ(c[PS_CNT_MRD_32], 5);
}

static void probe_clear_and_tick(void)
{
    ps_test_reset();
    ps_test_tick(100); /* disabled: only the timestamp runs */
    ps_test_set_counter(PS_CNT_MRD_64, 9);
    uint64_t c[PS_CNT_COUNT];
    ps_probe_snapshot(c);
    TH_EQ(c[PS_CNT_CYCLES], 0);
    TH_EQ(c[PS_CNT_TIMESTAMP], 100);
    ps_probe_enable();
    ps_test_tick(50);
    ps_probe_clear();
    ps_probe_snapshot(c);
    TH_EQ(c[PS_CNT_MRD_64], 0);
    TH_EQ(c[PS_CNT_CYCLES], 0);
    TH_EQ(c[PS_CNT_TIMESTAMP], 150); /* never cleared */
    TH_EQ(ps_test_regs_stats().clears, 1);
    TH_EQ(ps_probe_bar_latency(), PS_REG_BAR_LATENCY_RESET);
}

static void telemetry_layout(void)
{
    uint64_t c[PS_CNT_COUNT];
    for (unsigned i = 0; i < PS_CNT_COUNT; i++) {
        c[i] = 0x1111111111111111ull * (i + 1u);
    }
    ps_link_stats_t st = {1, 2, 3, 4, 5};
    uint8_t p[PS_SNAPSHOT_BYTES];
    TH_EQ(ps_telemetry_encode_snapshot(p, sizeof p - 1u, 0, 0, c, &st), 0);
    TH_EQ(ps_telemetry_encode_snapshot(p, sizeof p, 3, 0xDEADBEEFu, c, &st), PS_SNAPSHOT_BYTES);
    TH_EQ(p[PS_SNAPSHOT_FLAGS_OFFSET], 3);
    TH_EQ(ps_get_u32le(&p[PS_SNAPSHOT_INDEX_OFFSET]), 0xDEADBEEFu);
    for (unsigned i = 0; i < PS_CNT_COUNT; i++) {
        TH_EQ(ps_get_u64le(&p[PS_SNAPSHOT_COUNTERS_OFFSET + 8u * i]), c[i]);
    }
    TH_EQ(ps_get_u32le(&p[PS_SNAPSHOT_RX_FRAMES_OFFSET]), 1);
    TH_EQ(ps_get_u32le(&p[PS_SNAPSHOT_RX_BAD_FRAMES_OFFSET]), 2);
    TH_EQ(ps_get_u32le(&p[PS_SNAPSHOT_RX_OVERFLOWS_OFFSET]), 3);
    TH_EQ(ps_get_u32le(&p[PS_SNAPSHOT_UNKNOWN_COMMANDS_OFFSET]), 4);
    TH_EQ(ps_get_u32le(&p[PS_SNAPSHOT_TX_DROPPED_OFFSET]), 5);
}

void suite_probe(void)
{
    TH_RUN(probe_identify);
    TH_RUN(probe_enable_keeps_other_bits);
    TH_RUN(probe_snapshot_reads_every_counter);
    TH_RUN(probe_clear_and_tick);
    TH_RUN(telemetry_layout);
}
