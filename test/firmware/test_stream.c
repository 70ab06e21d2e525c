/* test_stream.c - periodic snapshots against the settable clock. */
#include "host.h"
#include "ps_le.h"
#include "suites.h"
#include "th.h"

static ps_app_t app;
static host_rx_t rx;

static unsigned count_snapshots(void)
{
    host_collect(&rx);
    unsigned n = 0;
    for (size_t i = 0; i < rx.count; i++) {
        n += rx.frames[i].type == PS_FRAME_SNAPSHOT;
    }
    return n;
}

static void start(uint16_t period_ms)
{
    uint8_t a[2];
    ps_put_u16le(a, period_ms);
    (void)host_call(&app, &rx, 1, PS_CMD_START, a, 2);
}

static void stream_period(void)
{
    host_reset(&app);
    ps_test_time_set(5000000u);
    start(50);
    TH_EQ(rx.count, 1); /* the response only: the first snapshot is one period away */
    ps_test_time_advance(49999u);
    host_steps(&app, 5);
    TH_EQ(count_snapshots(), 0);
    ps_test_time_advance(1u);
    host_steps(&app, 5);
    TH_EQ(count_snapshots(), 1);
    TH_EQ(rx.frames[0].payload[PS_SNAPSHOT_FLAGS_OFFSET], PS_SNAPSHOT_FLAG_ENABLED);
    TH_EQ(ps_get_u32le(&rx.frames[0].payload[PS_SNAPSHOT_INDEX_OFFSET]), 0);
    /* 20 periods in 1 ms steps: exactly 20 snapshots, indices consecutive */
    unsigned total = 0;
    uint32_t next_index = 1;
    for (unsigned ms = 0; ms < 1000u; ms++) {
        ps_test_time_advance(1000u);
        host_steps(&app, 1);
        total += count_snapshots();
        for (size_t i = 0; i < rx.count; i++) {
            if (rx.frames[i].type != PS_FRAME_SNAPSHOT) { /* the once-a-second HISTOGRAM */
                continue;
            }
            TH_EQ(ps_get_u32le(&rx.frames[i].payload[PS_SNAPSHOT_INDEX_OFFSET]), next_index);
            next_index++;
        }
    }
    TH_EQ(total, 20);
}

static void stream_default_period_and_no_burst(void)
{
    host_reset(&app);
    start(0); /* 100 ms */
    ps_test_time_advance(99999u);
    host_steps(&app, 2);
    TH_EQ(count_snapshots(), 0);
    ps_test_time_advance(1u);
    host_steps(&app, 2);
    TH_EQ(count_snapshots(), 1);
    /* the loop stalls for a second: one snapshot, not ten, then the normal rhythm */
    ps_test_time_advance(1000000u);
    host_steps(&app, 5);
    TH_EQ(count_snapshots(), 1);
    ps_test_time_advance(99999u);
    host_steps(&app, 2);
    TH_EQ(count_snapshots(), 0);
    ps_test_time_advance(1u);
    host_steps(&app, 2);
    TH_EQ(count_snapshots(), 1);
}

static void stream_stop_and_restart(void)
{
    host_reset(&app);
    start(10);
    ps_test_time_advance(10000u);
    host_steps(&app, 1);
    TH_EQ(count_snapshots(), 1);
    (void)host_call(&app, &rx, 2, PS_CMD_STOP, NULL, 0);
    ps_test_time_advance(1000000u);
    host_steps(&app, 5);
    TH_EQ(count_snapshots(), 0);
    /* START while stopped re-anchors the timer at the command */
    start(20);
    ps_test_time_advance(19999u);
    host_steps(&app, 1);
    TH_EQ(count_snapshots(), 0);
    ps_test_time_advance(1u);
    host_steps(&app, 1);
    TH_EQ(count_snapshots(), 1);
    /* a new START while streaming changes the period */
    start(1000);
    ps_test_time_advance(500000u);
    host_steps(&app, 1);
    TH_EQ(count_snapshots(), 0);
    ps_test_time_advance(500000u);
    host_steps(&app, 1);
    TH_EQ(count_snapshots(), 1);
}

static void stream_bad_start_keeps_state(void)
{
    host_reset(&app);
    start(10);
    start(5); /* BAD_ARGUMENT: the running stream is untouched */
    TH_CHECK(app.cmd.streaming);
    TH_EQ(app.cmd.period_ms, 10);
    ps_test_time_advance(10000u);
    host_steps(&app, 1);
    TH_EQ(count_snapshots(), 1);
}

void suite_stream(void)
{
    TH_RUN(stream_period);
    TH_RUN(stream_default_period_and_no_burst);
    TH_RUN(stream_stop_and_restart);
    TH_RUN(stream_bad_start_keeps_state);
}
