/* test_histogram.c - HISTOGRAM frames, one per kind (last, then first completion): on demand, at
 * STOP, once a second while streaming. */
#include "host.h"
#include "ps_le.h"
#include "suites.h"
#include "th.h"

static ps_app_t app;
static host_rx_t rx;

/* Distinct bins per kind (some above 2^32, so both words count). */
static uint64_t bin_value(unsigned kind, unsigned k)
{
    return (k % 7u == 0u) ? (0x100000000ull * (k + 1u)) + k + kind : 3u * k + 1u + 5u * kind;
}

/* Every kind's bins, and its count counter (LAT_LAST_COUNT, LAT_FIRST_COUNT) = their sum;
 * returns the totals by kind. */
static void fill_bins(uint64_t total[PS_HIST_KINDS])
{
    static const unsigned count_counter[PS_HIST_KINDS] = {
        [PS_HIST_KIND_LAST] = PS_CNT_LAT_LAST_COUNT, [PS_HIST_KIND_FIRST] = PS_CNT_LAT_FIRST_COUNT};
    for (unsigned kind = 0; kind < PS_HIST_KINDS; kind++) {
        total[kind] = 0;
        for (unsigned k = 0; k < PS_HIST_WORDS; k++) {
            ps_test_set_hist_bin(kind, k, bin_value(kind, k));
            total[kind] += bin_value(kind, k);
        }
        ps_test_set_counter(count_counter[kind], total[kind]);
    }
}

/* The HISTOGRAM frames after snapshot frame `s`, one per kind in kind order: each names that
 * snapshot and carries every bin of its kind as the HAL holds it. */
static void expect_histograms(const host_frame_t *s, uint8_t reason,
                              const uint64_t total[PS_HIST_KINDS])
{
    TH_EQ(s->type, PS_FRAME_SNAPSHOT);
    TH_EQ(ps_get_u64le(&s->payload[PS_SNAPSHOT_COUNTERS_OFFSET + 8u * PS_CNT_LAT_LAST_COUNT]),
          total[PS_HIST_KIND_LAST]);
    TH_EQ(ps_get_u64le(&s->payload[PS_SNAPSHOT_COUNTERS_OFFSET + 8u * PS_CNT_LAT_FIRST_COUNT]),
          total[PS_HIST_KIND_FIRST]);
    for (unsigned kind = 0; kind < PS_HIST_KINDS; kind++) {
        const host_frame_t *h = s + 1 + kind;
        TH_EQ(h->type, PS_FRAME_HISTOGRAM);
        TH_EQ(h->len, PS_HISTOGRAM_BYTES);
        TH_EQ(h->payload[PS_HISTOGRAM_REASON_OFFSET], reason);
        TH_EQ(h->payload[PS_HISTOGRAM_KIND_OFFSET], kind);
        TH_EQ(ps_get_u32le(&h->payload[PS_HISTOGRAM_SNAPSHOT_INDEX_OFFSET]),
              ps_get_u32le(&s->payload[PS_SNAPSHOT_INDEX_OFFSET]));
        /* the layout as HIST_LAYOUT reads: its three fields are the register's bytes */
        TH_EQ(ps_get_u32le(&h->payload[PS_HISTOGRAM_SUB_BINS_LOG2_OFFSET]), PS_HIST_LAYOUT_VALUE);
        TH_EQ(h->payload[PS_HISTOGRAM_SUB_BINS_LOG2_OFFSET], PS_HIST_SUB_BINS_LOG2);
        TH_EQ(h->payload[PS_HISTOGRAM_FIRST_EDGE_LOG2_OFFSET], PS_HIST_FIRST_EDGE_LOG2);
        TH_EQ(ps_get_u16le(&h->payload[PS_HISTOGRAM_BIN_COUNT_OFFSET]), PS_HIST_BINS);
        uint64_t sum = 0;
        for (unsigned k = 0; k < PS_HIST_WORDS; k++) {
            uint64_t v = ps_get_u64le(&h->payload[PS_HISTOGRAM_BINS_OFFSET + 8u * k]);
            TH_EQ(v, bin_value(kind, k));
            sum += v;
        }
        TH_EQ(sum, total[kind]);
        TH_EQ(h->seq, (uint16_t)(s->seq + 1u + kind));
    }
}

static void on_demand_snapshot_then_histogram_then_reply(void)
{
    host_reset(&app);
    uint64_t total[PS_HIST_KINDS];
    fill_bins(total);
    const host_frame_t *f = host_call(&app, &rx, 7, PS_CMD_LATENCY_HISTOGRAM, NULL, 0);
    TH_EQ(rx.count, 2u + PS_HIST_KINDS);
    TH_CHECK(f == &rx.frames[1u + PS_HIST_KINDS]);
    expect_histograms(&rx.frames[0], PS_HISTOGRAM_ON_DEMAND, total);
    TH_EQ(rx.frames[0].payload[PS_SNAPSHOT_FLAGS_OFFSET], PS_SNAPSHOT_FLAG_ON_DEMAND);
    TH_EQ(ps_test_regs_stats().hist_reads, PS_HIST_KINDS * 2u * PS_HIST_WORDS);

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
    uint64_t total[PS_HIST_KINDS];
    fill_bins(total);
    ps_test_tick(500);
    const host_frame_t *f = host_call(&app, &rx, 2, PS_CMD_STOP, NULL, 0);
    TH_EQ(rx.count, 2u + PS_HIST_KINDS);
    TH_CHECK(f == &rx.frames[1u + PS_HIST_KINDS]);
    expect_histograms(&rx.frames[0], PS_HISTOGRAM_FINAL, total);
    /* read after the counters stopped: the final counts, not ENABLED */
    TH_EQ(rx.frames[0].payload[PS_SNAPSHOT_FLAGS_OFFSET], PS_SNAPSHOT_FLAG_ON_DEMAND);
    TH_EQ(ps_get_u64le(&rx.frames[0].payload[PS_SNAPSHOT_COUNTERS_OFFSET + 8u * PS_CNT_CYCLES]),
          500u);

    /* a STOP while stopped answers alone */
    f = host_call(&app, &rx, 3, PS_CMD_STOP, NULL, 0);
    TH_EQ(rx.count, 1);
    TH_CHECK(f == &rx.frames[0]);
}

/* 100 snapshots a second, one set of histograms a second: the bins cost 2 * PS_HIST_WORDS
 * register reads per kind once a second, never per snapshot. */
static void periodic_once_a_second(void)
{
    host_reset(&app);
    uint8_t a[2];
    ps_put_u16le(a, 10);
    (void)host_call(&app, &rx, 1, PS_CMD_START, a, 2);
    uint64_t total[PS_HIST_KINDS];
    fill_bins(total);
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
                /* the first kind's frame follows its snapshot; the check covers the others */
                if (rx.frames[i].payload[PS_HISTOGRAM_KIND_OFFSET] == 0u) {
                    TH_CHECK(i > 0u && i + PS_HIST_KINDS <= rx.count);
                    if (i > 0u && i + PS_HIST_KINDS <= rx.count) {
                        expect_histograms(&rx.frames[i - 1u], PS_HISTOGRAM_PERIODIC, total);
                    }
                }
            }
        }
        rx.count = 0;
    }
    TH_EQ(snapshots, 250u);
    TH_EQ(histograms, 2u * PS_HIST_KINDS);
    TH_EQ(ps_test_regs_stats().hist_reads, 2u * PS_HIST_KINDS * 2u * PS_HIST_WORDS);
}

/* A probe of another layout: the frame carries the probe's HIST_LAYOUT and as many bins as it
 * has; one with more bins than a frame holds sends PS_HIST_BINS and adds the rest to overflow. */
static void a_probe_of_another_layout(void)
{
    host_reset(&app);
    uint64_t total[PS_HIST_KINDS];
    fill_bins(total);
    const uint32_t fewer = 2u | (4u << 8) | (20u << 16);
    ps_test_set_reg(PS_REG_HIST_LAYOUT, fewer);
    (void)host_call(&app, &rx, 7, PS_CMD_LATENCY_HISTOGRAM, NULL, 0);
    const host_frame_t *h = &rx.frames[1];
    TH_EQ(h->type, PS_FRAME_HISTOGRAM);
    TH_EQ(h->len, PS_HISTOGRAM_BINS_OFFSET + 8u * 21u);
    TH_EQ(ps_get_u32le(&h->payload[PS_HISTOGRAM_SUB_BINS_LOG2_OFFSET]), fewer);
    for (unsigned k = 0; k <= 20u; k++) {
        TH_EQ(ps_get_u64le(&h->payload[PS_HISTOGRAM_BINS_OFFSET + 8u * k]), bin_value(0, k));
    }

    /* two bins more than a frame holds (the HAL's words past PS_HIST_BINS read 0 but the last) */
    const uint32_t more = (uint32_t)PS_HIST_LAYOUT_VALUE + (2u << 16);
    ps_test_set_reg(PS_REG_HIST_LAYOUT, more);
    (void)host_call(&app, &rx, 8, PS_CMD_LATENCY_HISTOGRAM, NULL, 0);
    h = &rx.frames[1];
    TH_EQ(h->len, PS_HISTOGRAM_BYTES);
    TH_EQ(ps_get_u32le(&h->payload[PS_HISTOGRAM_SUB_BINS_LOG2_OFFSET]), PS_HIST_LAYOUT_VALUE);
    uint64_t sum = 0;
    for (unsigned k = 0; k < PS_HIST_WORDS; k++) {
        sum += ps_get_u64le(&h->payload[PS_HISTOGRAM_BINS_OFFSET + 8u * k]);
    }
    TH_EQ(sum, total[0]);
    ps_test_set_reg(PS_REG_HIST_LAYOUT, PS_HIST_LAYOUT_VALUE);
}

void suite_histogram(void)
{
    TH_RUN(on_demand_snapshot_then_histogram_then_reply);
    TH_RUN(stop_sends_the_final_snapshot_and_histogram);
    TH_RUN(periodic_once_a_second);
    TH_RUN(a_probe_of_another_layout);
}
