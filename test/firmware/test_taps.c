/* test_taps.c - the switch design's second probe tap (the host side): both taps snapshotted
 * together, the host side's counters and histograms as TAP_SNAPSHOT / TAP_HISTOGRAM frames,
 * commands acting on both taps, and the line budget at 100 snapshots/s on 921 600 baud. */
#include <stdio.h>

#include "host.h"
#include "ps_le.h"
#include "suites.h"
#include "th.h"

static ps_app_t app;
static host_rx_t rx;

/* Distinct values per tap, so a frame that carries the wrong tap's counters shows. */
static uint64_t counter_value(unsigned tap, unsigned i) { return 1000u * (tap + 1u) + 7u * i; }
static uint64_t bin_value(unsigned tap, unsigned kind, unsigned k)
{
    return 100000u * (tap + 1u) + 1000u * kind + k;
}

static void fill(unsigned taps)
{
    for (unsigned tap = 0; tap < taps; tap++) {
        for (unsigned i = 0; i < PS_CNT_COUNT; i++) {
            ps_test_set_tap_counter(tap, i, counter_value(tap, i));
        }
        for (unsigned kind = 0; kind < PS_HIST_KINDS; kind++) {
            for (unsigned k = 0; k < PS_HIST_WORDS; k++) {
                ps_test_set_tap_hist_bin(tap, kind, k, bin_value(tap, kind, k));
            }
        }
    }
}

static void one_tap_sends_no_tap_frames(void)
{
    host_reset(&app); /* TAP_INFO reads 0, as from a map before 0.7: one tap */
    fill(1);
    (void)host_call(&app, &rx, 1, PS_CMD_LATENCY_HISTOGRAM, NULL, 0);
    TH_EQ(rx.count, 2u + PS_HIST_KINDS);
    for (size_t i = 0; i < rx.count; i++) {
        TH_CHECK(rx.frames[i].type != PS_FRAME_TAP_SNAPSHOT
                 && rx.frames[i].type != PS_FRAME_TAP_HISTOGRAM);
    }
    host_reset(&app);
    ps_test_set_taps(1);
    (void)host_call(&app, &rx, 1, PS_CMD_SNAPSHOT, NULL, 0);
    TH_EQ(rx.count, 2u);
    TH_EQ(ps_test_tap_snapshots(1), 0u);
}

/* SNAPSHOT, TAP_SNAPSHOT (tap 1, same index), the GPU side's HISTOGRAMs, the host side's
 * TAP_HISTOGRAMs, then the reply: each carrying its own tap's values. */
static void two_taps_on_demand(void)
{
    host_reset(&app);
    ps_test_set_taps(2);
    fill(2);
    const host_frame_t *f = host_call(&app, &rx, 1, PS_CMD_LATENCY_HISTOGRAM, NULL, 0);
    TH_EQ(rx.count, 3u + 2u * PS_HIST_KINDS);
    TH_CHECK(f == &rx.frames[2u + 2u * PS_HIST_KINDS]);
    TH_EQ(ps_test_tap_snapshots(0), 1u);
    TH_EQ(ps_test_tap_snapshots(1), 1u);
    const host_frame_t *s = &rx.frames[0];
    const host_frame_t *t = &rx.frames[1];
    TH_EQ(s->type, PS_FRAME_SNAPSHOT);
    TH_EQ(t->type, PS_FRAME_TAP_SNAPSHOT);
    TH_EQ(t->len, PS_TAP_SNAPSHOT_BYTES);
    TH_EQ(t->payload[PS_TAP_SNAPSHOT_TAP_OFFSET], PS_TAP_HOST);
    uint32_t index = ps_get_u32le(&s->payload[PS_SNAPSHOT_INDEX_OFFSET]);
    TH_EQ(ps_get_u32le(&t->payload[PS_TAP_SNAPSHOT_SNAPSHOT_INDEX_OFFSET]), index);
    for (unsigned i = 0; i < PS_CNT_COUNT; i++) {
        TH_EQ(ps_get_u64le(&s->payload[PS_SNAPSHOT_COUNTERS_OFFSET + 8u * i]), counter_value(0, i));
        TH_EQ(ps_get_u64le(&t->payload[PS_TAP_SNAPSHOT_COUNTERS_OFFSET + 8u * i]),
              counter_value(1, i));
    }
    for (unsigned kind = 0; kind < PS_HIST_KINDS; kind++) {
        const host_frame_t *h = &rx.frames[2u + kind];
        const host_frame_t *th = &rx.frames[2u + PS_HIST_KINDS + kind];
        TH_EQ(h->type, PS_FRAME_HISTOGRAM);
        TH_EQ(th->type, PS_FRAME_TAP_HISTOGRAM);
        TH_EQ(th->len, PS_TAP_HISTOGRAM_BYTES);
        TH_EQ(th->payload[PS_TAP_HISTOGRAM_TAP_OFFSET], PS_TAP_HOST);
        TH_EQ(th->payload[PS_TAP_HISTOGRAM_KIND_OFFSET], kind);
        TH_EQ(th->payload[PS_TAP_HISTOGRAM_REASON_OFFSET], PS_HISTOGRAM_ON_DEMAND);
        TH_EQ(ps_get_u32le(&th->payload[PS_TAP_HISTOGRAM_SNAPSHOT_INDEX_OFFSET]), index);
        TH_EQ(ps_get_u32le(&th->payload[PS_TAP_HISTOGRAM_SUB_BINS_LOG2_OFFSET]),
              PS_HIST_LAYOUT_VALUE);
        for (unsigned k = 0; k < PS_HIST_WORDS; k++) {
            TH_EQ(ps_get_u64le(&h->payload[PS_HISTOGRAM_BINS_OFFSET + 8u * k]),
                  bin_value(0, kind, k));
            TH_EQ(ps_get_u64le(&th->payload[PS_TAP_HISTOGRAM_BINS_OFFSET + 8u * k]),
                  bin_value(1, kind, k));
        }
    }
}

/* START, CLEAR, SET_FILTER and STOP reach the host side too. */
static void commands_act_on_both_taps(void)
{
    host_reset(&app);
    ps_test_set_taps(2);
    fill(2);
    uint8_t a[2] = {0, 0};
    (void)host_call(&app, &rx, 1, PS_CMD_START, a, 2);
    TH_CHECK((ps_test_tap_reg(1, PS_REG_CTRL) & PS_REG_CTRL_ENABLE) != 0u);
    uint8_t w[PS_CMD_SET_FILTER_ARGS_BYTES];
    ps_put_u64le(&w[PS_CMD_SET_FILTER_ARG_BASE_OFFSET], 0x100000000ull);
    ps_put_u64le(&w[PS_CMD_SET_FILTER_ARG_LIMIT_OFFSET], 0x1000fffffull);
    (void)host_call(&app, &rx, 2, PS_CMD_SET_FILTER, w, sizeof w);
    TH_EQ(ps_test_tap_reg(1, PS_REG_FILTER_CTRL), PS_REG_FILTER_CTRL_EN);
    TH_EQ(ps_test_tap_reg(1, PS_REG_FILTER_BASE_HI), 1u);
    TH_EQ(ps_test_tap_reg(1, PS_REG_FILTER_LIMIT_LO), 0x000fffffu);
    (void)host_call(&app, &rx, 3, PS_CMD_CLEAR, NULL, 0);
    (void)host_call(&app, &rx, 4, PS_CMD_SNAPSHOT, NULL, 0);
    TH_EQ(rx.frames[1].type, PS_FRAME_TAP_SNAPSHOT);
    TH_EQ(ps_get_u64le(
              &rx.frames[1].payload[PS_TAP_SNAPSHOT_COUNTERS_OFFSET + 8u * PS_CNT_READS_STARTED]),
          0u);
    TH_EQ(ps_get_u64le(
              &rx.frames[1].payload[PS_TAP_SNAPSHOT_COUNTERS_OFFSET + 8u * PS_CNT_TIMESTAMP]),
          counter_value(1, PS_CNT_TIMESTAMP));
    (void)host_call(&app, &rx, 5, PS_CMD_STOP, NULL, 0);
    TH_EQ(ps_test_tap_reg(1, PS_REG_CTRL) & PS_REG_CTRL_ENABLE, 0u);
}

/* 100 snapshots/s of both taps and their histograms once a second, on a line that takes 46 B
 * per write (two drains a step, one step a millisecond: 92 000 B/s, below 921 600 baud's
 * 92 160 B/s of 8N1 bytes): nothing dropped, every snapshot paired, and the bytes per second
 * as stated in the docs. */
static void hundred_per_second_at_921600_baud(void)
{
    host_reset(&app);
    ps_test_set_taps(2);
    fill(2);
    uint8_t a[2];
    ps_put_u16le(a, 10);
    (void)host_call(&app, &rx, 1, PS_CMD_START, a, 2);
    ps_test_tx_set_accept(46);
    unsigned snapshots = 0, tap_snapshots = 0, histograms = 0, tap_histograms = 0;
    size_t bytes = 0;
    for (unsigned ms = 0; ms < 3000u; ms++) {
        ps_test_time_advance(1000u);
        host_steps(&app, 1);
        bytes += ps_test_tx_pending();
        host_collect(&rx);
        for (size_t i = 0; i < rx.count; i++) {
            uint8_t type = rx.frames[i].type;
            snapshots += type == PS_FRAME_SNAPSHOT;
            tap_snapshots += type == PS_FRAME_TAP_SNAPSHOT;
            histograms += type == PS_FRAME_HISTOGRAM;
            tap_histograms += type == PS_FRAME_TAP_HISTOGRAM;
        }
        rx.count = 0;
    }
    for (unsigned i = 0; i < 200u; i++) { /* the last frames drain; no time passes, nothing new */
        host_steps(&app, 1);
        bytes += ps_test_tx_pending();
        host_collect(&rx);
        for (size_t j = 0; j < rx.count; j++) {
            uint8_t type = rx.frames[j].type;
            snapshots += type == PS_FRAME_SNAPSHOT;
            tap_snapshots += type == PS_FRAME_TAP_SNAPSHOT;
            histograms += type == PS_FRAME_HISTOGRAM;
            tap_histograms += type == PS_FRAME_TAP_HISTOGRAM;
        }
        rx.count = 0;
    }
    TH_EQ(app.stats.tx_dropped, 0u);
    TH_EQ(snapshots, 300u);
    TH_EQ(tap_snapshots, 300u);
    TH_EQ(histograms, 3u * PS_HIST_KINDS);
    TH_EQ(tap_histograms, 3u * PS_HIST_KINDS);
    TH_CHECK(bytes / 3u < 92160u);
    printf("taps: %u snapshots/s of 2 taps + histograms: %zu B/s\n", snapshots / 3u, bytes / 3u);
}

void suite_taps(void)
{
    TH_RUN(one_tap_sends_no_tap_frames);
    TH_RUN(two_taps_on_demand);
    TH_RUN(commands_act_on_both_taps);
    TH_RUN(hundred_per_second_at_921600_baud);
}
