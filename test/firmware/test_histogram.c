/* test_histogram.c - HISTOGRAM frames: on demand, at STOP, once a second while streaming. */
#include "host.h"
#include "ps_le.h"
#include "suites.h"
#include "th.h"

static ps_app_t app;
static host_rx_t rx;

/* Distinct bins (some above 2^32, so both words count), and LAT_LAST_COUNT = their sum. */
static uint64_t fill_bins(void)
{
    uint64_t total = 0;
    for (unsigned k = 0; k < PS_HIST_WORDS; k++) {
        uint64_t v = (k % 7u == 0u) ? (0x100000000ull * (k + 1u)) + k : 3u * k + 1u;
        ps_test_set_hist_bin(k, v);
        total += v;
    }
    ps_test_set_counter(PS_CNT_LAT_LAST_COUNT, total);
    return total;
}

/* A HISTOGRAM frame names the snapshot before it and carries every bin as the HAL holds it. */
static void expect_histogram(const host_frame_t *s, const host_frame_t *h, uint8_t reason,
                             uint64_t total)
{
    TH_EQ(s->type, PS_FRAME_SNAPSHOT);
    TH_EQ(h->type, PS_FRAME_HISTOGRAM);
    TH_EQ(h->len, PS_HISTOGRAM_BYTES);
    TH_EQ(h->payload[PS_HISTOGRAM_REASON_OFFSET], reason);
    TH_EQ(ps_get_u32le(&h->payload[PS_HISTOGRAM_SNAPSHOT_INDEX_OFFSET]),
          ps_get_u32le(&s->payload[PS_SNAPSHOT_INDEX_OFFSET]));
    TH_EQ(ps_get_u32le(&h->payload[PS_HISTOGRAM_BIN_CLOCKS_OFFSET]), 64u);
    uint64_t sum = 0;
    for (unsigned k = 0; k < PS_HIST_WORDS; k++) {
        sum += ps_get_u64le(&h->payload[PS_HISTOGRAM_BINS_OFFSET + 8u * k]);
    }
    TH_EQ(sum, total);
    TH_EQ(ps_get_u64le(&s->payload[PS_SNAPSHOT_COUNTERS_OFFSET + 8u * PS_CNT_LAT_LAST_COUNT]),
          total);
    TH_EQ(h->seq, (uint16_t)(s->seq + 1u));
}

static void on_demand_snapshot_then_histogram_then_reply(void)
{
    host_reset(&app);
    uint64_t total = fill_bins();
    const host_frame_t *f = host_call(&app, &rx, 7, PS_CMD_LATENCY_HISTOGRAM, NULL, 0);
    TH_EQ(rx.count, 3);
    TH_CHECK(f == &rx.frames[2]);
    expect_histogram(&rx.frames[0], &rx.frames[1], PS_HISTOGRAM_ON_DEMAND, total);
    TH_EQ(rx.frames[0].payload[PS_SNAPSHOT_FLAGS_OFFSET], PS_SNAPSHOT_FLAG_ON_DEMAND);
    for (unsigned k = 0; k < PS_HIST_WORDS; k++) {
        uint64_t v = (k % 7u == 0u) ? (0x100000000ull * (k + 1u)) + k : 3u * k + 1u;
        TH_EQ(ps_get_u64le(&rx.frames[1].payload[PS_HISTOGRAM_BINS_OFFSET + 8u * k]), v);
    }
    TH_EQ(ps_test_regs_stats().hist_reads, 2u * PS_HIST_WORDS);

    /* arguments are refused like any command's */
    uint8_t extra = 0;
    f = host_call(&app, &rx, 8, PS_CMD_LATENCY_HISTOGRAM, &extra, 1);
    TH_EQ(rx.count, 1);
    TH_CHECK(f != NULL && f->payload[PS_RESPONSE_STATUS_OFFSET] == PS_STATUS_BAD_LENGTH);
}

static void stop_sends_the_final_snapshot_and_histogram(void)
{
    host_reset(&app);
    uint8_t a[2] = {0, 0};
    (void)host_call(&app, &rx, 1, PS_CMD_START, a, 2);
    uint64_t total = fill_bins();
    ps_test_tick(500);
    const host_frame_t *f = host_call(&app, &rx, 2, PS_CMD_STOP, NULL, 0);
    TH_EQ(rx.count, 3);
    TH_CHECK(f == &rx.frames[2]);
    expect_histogram(&rx.frames[0], &rx.frames[1], PS_HISTOGRAM_FINAL, total);
    /* read after the counters stopped: the final counts, not ENABLED */
    TH_EQ(rx.frames[0].payload[PS_SNAPSHOT_FLAGS_OFFSET], PS_SNAPSHOT_FLAG_ON_DEMAND);
    TH_EQ(ps_get_u64le(&rx.frames[0].payload[PS_SNAPSHOT_COUNTERS_OFFSET + 8u * PS_CNT_CYCLES]),
          500u);

    /* a STOP while stopped answers alone */
    f = host_call(&app, &rx, 3, PS_CMD_STOP, NULL, 0);
    TH_EQ(rx.count, 1);
    TH_CHECK(f == &rx.frames[0]);
}

/* 100 snapshots a second, one histogram a second: the bins cost 2 * PS_HIST_WORDS register
 * reads once a second, never per snapshot. */
static void periodic_once_a_second(void)
{
    host_reset(&app);
    uint8_t a[2];
    ps_put_u16le(a, 10);
    (void)host_call(&app, &rx, 1, PS_CMD_START, a, 2);
    uint64_t total = fill_bins();
    unsigned snapshots = 0;
    unsigned histograms = 0;
    for (unsigned ms = 0; ms < 2500u; ms++) {
        ps_test_time_advance(1000u);
        host_steps(&app, 1);
        host_collect(&rx);
        for (size_t i = 0; i < rx.count; i++) {
            if (rx.frames[i].type == PS_FRAME_SNAPSHOT) {
                snapshots++;
            }
            if (rx.frames[i].type == PS_FRAME_HISTOGRAM) {
                histograms++;
                TH_CHECK(i > 0u);
                if (i > 0u) {
                    expect_histogram(&rx.frames[i - 1u], &rx.frames[i], PS_HISTOGRAM_PERIODIC,
                                     total);
                }
            }
        }
        rx.count = 0;
    }
    TH_EQ(snapshots, 250u);
    TH_EQ(histograms, 2u);
    TH_EQ(ps_test_regs_stats().hist_reads, 2u * 2u * PS_HIST_WORDS);
}

void suite_histogram(void)
{
    TH_RUN(on_demand_snapshot_then_histogram_then_reply);
    TH_RUN(stop_sends_the_final_snapshot_and_histogram);
    TH_RUN(periodic_once_a_second);
}
