/* test_trace.c - the TLP trace commands (arm with its settings, force, stop, status, read) and
 * the drain of a stopped trace into TRACE frames beside the snapshot stream. */
#include <stdio.h>
#include <string.h>

#include "host.h"
#include "ps_le.h"
#include "ps_trace.h"
#include "suites.h"
#include "th.h"

static ps_app_t app;
static host_rx_t rx;

typedef struct arm_args {
    uint8_t b[PS_CMD_TRACE_ARM_ARGS_BYTES];
} arm_args_t;

/* A latency trigger of 500 clocks with 100 records before it, MRd and CplD recorded. */
static arm_args_t arm_default(void)
{
    arm_args_t a;
    memset(&a, 0, sizeof a);
    ps_put_u32le(&a.b[PS_CMD_TRACE_ARM_ARG_PRE_OFFSET], 100u);
    ps_put_u16le(&a.b[PS_CMD_TRACE_ARM_ARG_TRIG_ENABLE_OFFSET], PS_REG_TRC_TRIG_EN_LATENCY);
    ps_put_u32le(&a.b[PS_CMD_TRACE_ARM_ARG_TRIG_LATENCY_OFFSET], 500u);
    ps_put_u64le(&a.b[PS_CMD_TRACE_ARM_ARG_TRIG_BASE_OFFSET], 0x1234500000ull);
    ps_put_u64le(&a.b[PS_CMD_TRACE_ARM_ARG_TRIG_LIMIT_OFFSET], 0x12345FFFFFull);
    ps_put_u8(&a.b[PS_CMD_TRACE_ARM_ARG_FILTER_TYPES_OFFSET],
              PS_REG_TRC_FILT_TYPES_MRD | PS_REG_TRC_FILT_TYPES_CPLD);
    return a;
}

static uint8_t status_of(const host_frame_t *resp)
{
    return resp == NULL ? 0xFFu : resp->payload[PS_RESPONSE_STATUS_OFFSET];
}

static const uint8_t *reply_of(const host_frame_t *resp)
{
    return &resp->payload[PS_RESPONSE_BYTES];
}

static uint8_t call(uint16_t seq, uint8_t cmd, const uint8_t *args, size_t len)
{
    return status_of(host_call(&app, &rx, seq, cmd, args, len));
}

static void arm_writes_the_settings_then_arms(void)
{
    host_reset(&app);
    arm_args_t a = arm_default();
    const host_frame_t *r = host_call(&app, &rx, 1, PS_CMD_TRACE_ARM, a.b, sizeof a.b);
    TH_EQ(status_of(r), PS_STATUS_OK);
    TH_EQ(r->len, PS_RESPONSE_BYTES + PS_CMD_TRACE_ARM_REPLY_BYTES);
    TH_EQ(ps_get_u32le(&reply_of(r)[PS_CMD_TRACE_ARM_REPLY_DEPTH_OFFSET]), PS_TEST_TRACE_DEPTH);
    TH_EQ(ps_test_trace_reg(PS_REG_TRC_PRE), 100u);
    TH_EQ(ps_test_trace_reg(PS_REG_TRC_TRIG_EN), PS_REG_TRC_TRIG_EN_LATENCY);
    TH_EQ(ps_test_trace_reg(PS_REG_TRC_TRIG_LATENCY), 500u);
    TH_EQ(ps_test_trace_reg(PS_REG_TRC_TRIG_BASE_LO), 0x34500000u);
    TH_EQ(ps_test_trace_reg(PS_REG_TRC_TRIG_BASE_HI), 0x12u);
    TH_EQ(ps_test_trace_reg(PS_REG_TRC_TRIG_LIMIT_LO), 0x345FFFFFu);
    TH_EQ(ps_test_trace_reg(PS_REG_TRC_FILT_TYPES),
          PS_REG_TRC_FILT_TYPES_MRD | PS_REG_TRC_FILT_TYPES_CPLD);
    TH_EQ(ps_test_trace_reg(PS_REG_TRC_FILT_CTRL), 0u);
    TH_EQ(ps_test_trace_pulses(PS_REG_TRC_CMD_STOP), 1u); /* settings only while stopped */
    TH_EQ(ps_test_trace_pulses(PS_REG_TRC_CMD_ARM), 1u);
    TH_EQ(ps_test_trace_reg(PS_REG_TRC_STATUS) & 3u, PS_PROBE_TRACE_ARMED);

    /* a filter window */
    ps_put_u8(&a.b[PS_CMD_TRACE_ARM_ARG_FILTER_ENABLE_OFFSET], 1u);
    ps_put_u64le(&a.b[PS_CMD_TRACE_ARM_ARG_FILTER_BASE_OFFSET], 0x1000u);
    ps_put_u64le(&a.b[PS_CMD_TRACE_ARM_ARG_FILTER_LIMIT_OFFSET], 0x1FFFu);
    TH_EQ(call(2, PS_CMD_TRACE_ARM, a.b, sizeof a.b), PS_STATUS_OK);
    TH_EQ(ps_test_trace_reg(PS_REG_TRC_FILT_CTRL), PS_REG_TRC_FILT_CTRL_EN);
    TH_EQ(ps_test_trace_reg(PS_REG_TRC_FILT_LIMIT_LO), 0x1FFFu);
}

/* Every value the registers cannot hold is refused, with no register touched. */
static void arm_refuses_what_the_registers_cannot_hold(void)
{
    host_reset(&app);
    static const struct {
        size_t offset;
        unsigned bytes;
        uint32_t value;
    } bad[] = {
        {PS_CMD_TRACE_ARM_ARG_TAP_OFFSET, 1, 1u}, /* the BAR design has one tap */
        {PS_CMD_TRACE_ARM_ARG_PRE_OFFSET, 4, PS_TEST_TRACE_DEPTH - 7u},
        {PS_CMD_TRACE_ARM_ARG_TRIG_ENABLE_OFFSET, 2, 0x400u},
        {PS_CMD_TRACE_ARM_ARG_TRIG_TYPES_OFFSET, 1, 0x20u},
        {PS_CMD_TRACE_ARM_ARG_TRIG_STATUS_OFFSET, 1, 8u},
        {PS_CMD_TRACE_ARM_ARG_TRIG_TAG_OFFSET, 2, 1024u},
        {PS_CMD_TRACE_ARM_ARG_TRIG_LEN_OFFSET, 2, 1025u},
        {PS_CMD_TRACE_ARM_ARG_TRIG_OUTSTANDING_OFFSET, 2, 2048u},
        {PS_CMD_TRACE_ARM_ARG_FILTER_TYPES_OFFSET, 1, 0x20u},
        {PS_CMD_TRACE_ARM_ARG_FILTER_ENABLE_OFFSET, 1, 2u},
    };
    uint16_t seq = 1;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        arm_args_t a = arm_default();
        if (bad[i].bytes == 1u) {
            ps_put_u8(&a.b[bad[i].offset], (uint8_t)bad[i].value);
        } else if (bad[i].bytes == 2u) {
            ps_put_u16le(&a.b[bad[i].offset], (uint16_t)bad[i].value);
        } else {
            ps_put_u32le(&a.b[bad[i].offset], bad[i].value);
        }
        TH_EQ(call(seq++, PS_CMD_TRACE_ARM, a.b, sizeof a.b), PS_STATUS_BAD_ARGUMENT);
    }
    arm_args_t a = arm_default(); /* an enabled window whose limit is below its base */
    ps_put_u8(&a.b[PS_CMD_TRACE_ARM_ARG_FILTER_ENABLE_OFFSET], 1u);
    ps_put_u64le(&a.b[PS_CMD_TRACE_ARM_ARG_FILTER_BASE_OFFSET], 0x2000u);
    ps_put_u64le(&a.b[PS_CMD_TRACE_ARM_ARG_FILTER_LIMIT_OFFSET], 0x1FFFu);
    TH_EQ(call(seq++, PS_CMD_TRACE_ARM, a.b, sizeof a.b), PS_STATUS_BAD_ARGUMENT);
    TH_EQ(call(seq++, PS_CMD_TRACE_ARM, a.b, sizeof a.b - 1u), PS_STATUS_BAD_LENGTH);
    TH_EQ(ps_test_trace_pulses(PS_REG_TRC_CMD_ARM), 0u);
    TH_EQ(ps_test_trace_pulses(PS_REG_TRC_CMD_STOP), 0u);
    TH_EQ(ps_test_trace_reg(PS_REG_TRC_PRE), 0u);
    /* the largest values accepted */
    a = arm_default();
    ps_put_u32le(&a.b[PS_CMD_TRACE_ARM_ARG_PRE_OFFSET], PS_TEST_TRACE_DEPTH - 8u);
    ps_put_u16le(&a.b[PS_CMD_TRACE_ARM_ARG_TRIG_TAG_OFFSET], 1023u);
    ps_put_u16le(&a.b[PS_CMD_TRACE_ARM_ARG_TRIG_LEN_OFFSET], 1024u);
    ps_put_u16le(&a.b[PS_CMD_TRACE_ARM_ARG_TRIG_ENABLE_OFFSET], 0x3FFu);
    TH_EQ(call(seq++, PS_CMD_TRACE_ARM, a.b, sizeof a.b), PS_STATUS_OK);
    TH_EQ(ps_test_trace_reg(PS_REG_TRC_PRE), PS_TEST_TRACE_DEPTH - 8u);
}

/* A recording trace is not read (the ring moves under the index); FORCE, STOP, then it is. */
static void read_waits_for_a_stopped_trace(void)
{
    host_reset(&app);
    arm_args_t a = arm_default();
    uint8_t tap = 0;
    TH_EQ(call(1, PS_CMD_TRACE_ARM, a.b, sizeof a.b), PS_STATUS_OK);
    TH_EQ(call(2, PS_CMD_TRACE_READ, &tap, 1), PS_STATUS_NOT_READY);
    TH_EQ(call(3, PS_CMD_TRACE_FORCE, &tap, 1), PS_STATUS_OK);
    TH_EQ(ps_test_trace_pulses(PS_REG_TRC_CMD_FORCE), 1u);
    const host_frame_t *r = host_call(&app, &rx, 4, PS_CMD_TRACE_STATUS, &tap, 1);
    TH_EQ(status_of(r), PS_STATUS_OK);
    TH_EQ(reply_of(r)[PS_CMD_TRACE_STATUS_REPLY_STATE_OFFSET], PS_PROBE_TRACE_TRIGGERED);
    TH_EQ(reply_of(r)[PS_CMD_TRACE_STATUS_REPLY_FLAGS_OFFSET], 1u);
    TH_EQ(ps_get_u32le(&reply_of(r)[PS_CMD_TRACE_STATUS_REPLY_DEPTH_OFFSET]), PS_TEST_TRACE_DEPTH);
    TH_EQ(call(5, PS_CMD_TRACE_READ, &tap, 1), PS_STATUS_NOT_READY);
    TH_EQ(call(6, PS_CMD_TRACE_STOP, &tap, 1), PS_STATUS_OK);
    ps_test_trace_set(PS_PROBE_TRACE_STOPPED | PS_REG_TRC_STATUS_TRIGGERED, 3u, 1u, 0u);
    r = host_call(&app, &rx, 7, PS_CMD_TRACE_READ, &tap, 1);
    TH_EQ(status_of(r), PS_STATUS_OK);
    TH_EQ(ps_get_u32le(&reply_of(r)[PS_CMD_TRACE_READ_REPLY_COUNT_OFFSET]), 3u);
    TH_EQ(ps_get_u32le(&reply_of(r)[PS_CMD_TRACE_READ_REPLY_TRIGGER_INDEX_OFFSET]), 1u);
    /* the frame follows the reply in the steps host_call runs */
    size_t resp_at = 0, trace_at = 0, traces = 0;
    for (size_t i = 0; i < rx.count; i++) {
        if (rx.frames[i].type == PS_FRAME_RESPONSE) {
            resp_at = i;
        }
        if (rx.frames[i].type == PS_FRAME_TRACE) {
            trace_at = i;
            traces++;
        }
    }
    TH_EQ(traces, 1u);
    TH_CHECK(trace_at > resp_at);
    TH_EQ(rx.frames[trace_at].payload[PS_TRACE_COUNT_OFFSET], 3u);
    uint8_t bad_tap = 1;
    TH_EQ(call(8, PS_CMD_TRACE_READ, &bad_tap, 1), PS_STATUS_BAD_ARGUMENT);
    TH_EQ(call(9, PS_CMD_TRACE_FORCE, &bad_tap, 1), PS_STATUS_BAD_ARGUMENT);
    TH_EQ(call(10, PS_CMD_TRACE_STOP, &tap, 0), PS_STATUS_BAD_LENGTH);
    /* an empty trace still sends one frame: the host learns the end */
    ps_test_trace_set(PS_PROBE_TRACE_STOPPED, 0u, 0u, 0u);
    TH_EQ(call(11, PS_CMD_TRACE_READ, &tap, 1), PS_STATUS_OK);
    traces = 0;
    for (size_t i = 0; i < rx.count; i++) {
        if (rx.frames[i].type == PS_FRAME_TRACE) {
            traces++;
            TH_EQ(rx.frames[i].len, PS_TRACE_BYTES);
            TH_EQ(ps_get_u32le(&rx.frames[i].payload[PS_TRACE_TOTAL_OFFSET]), 0u);
            TH_EQ(ps_get_u32le(&rx.frames[i].payload[PS_TRACE_TRIGGER_INDEX_OFFSET]), 0u);
        }
    }
    TH_EQ(traces, 1u);
}

/* the TRACE frames in rx, in order: consecutive records, every word where it belongs */
static uint32_t check_trace_frames(uint32_t *next, uint32_t total, uint32_t trig, uint32_t lost)
{
    uint32_t got = 0;
    for (size_t i = 0; i < rx.count; i++) {
        const host_frame_t *f = &rx.frames[i];
        if (f->type != PS_FRAME_TRACE) {
            continue;
        }
        uint8_t n = f->payload[PS_TRACE_COUNT_OFFSET];
        TH_EQ(f->len, PS_TRACE_BYTES + (size_t)n * PS_TRACE_RECORD_BYTES);
        TH_EQ(ps_get_u32le(&f->payload[PS_TRACE_FIRST_INDEX_OFFSET]), *next);
        TH_EQ(ps_get_u32le(&f->payload[PS_TRACE_TOTAL_OFFSET]), total);
        TH_EQ(ps_get_u32le(&f->payload[PS_TRACE_TRIGGER_INDEX_OFFSET]), trig);
        TH_EQ(ps_get_u32le(&f->payload[PS_TRACE_LOST_OFFSET]), lost);
        for (uint32_t r = 0; r < n; r++) {
            for (unsigned w = 0; w < PS_TRC_REC_WORDS; w++) {
                uint32_t v =
                    ps_get_u32le(&f->payload[PS_TRACE_BYTES + r * PS_TRACE_RECORD_BYTES + 4u * w]);
                TH_EQ(v, (*next + r) * 0x10u + w);
            }
        }
        *next += n;
        got += n;
    }
    return got;
}

/* A full 4 096-record trace at 921 600 baud (92 bytes a ms) beside 100 snapshots a second:
 * every snapshot is sent on time and none is dropped, and the trace arrives whole in seconds. */
static void full_trace_drains_beside_the_snapshot_stream(void)
{
    host_reset(&app);
    uint8_t args[2];
    ps_put_u16le(args, 10u);
    TH_EQ(call(1, PS_CMD_START, args, sizeof args), PS_STATUS_OK);
    ps_test_trace_set(PS_PROBE_TRACE_STOPPED | PS_REG_TRC_STATUS_TRIGGERED | PS_REG_TRC_STATUS_FULL,
                      PS_TEST_TRACE_DEPTH, 100u, 7u);
    uint8_t tap = 0;
    host_cmd(2, PS_CMD_TRACE_READ, &tap, 1);
    uint32_t next = 0;
    size_t snapshots = 0;
    unsigned ms = 0;
    for (; ms < 5000u && next < PS_TEST_TRACE_DEPTH; ms++) {
        for (int k = 0; k < 10; k++) {
            ps_test_tx_set_accept(k == 0 ? 46u : 0u);
            ps_test_time_advance(100u);
            host_steps(&app, 1);
        }
        host_collect(&rx);
        TH_EQ(rx.bad, 0u);
        for (size_t i = 0; i < rx.count; i++) {
            snapshots += rx.frames[i].type == PS_FRAME_SNAPSHOT;
        }
        (void)check_trace_frames(&next, PS_TEST_TRACE_DEPTH, 100u, 7u);
    }
    printf("trace: 4096 records in %u ms beside %u snapshots\n", ms, (unsigned)snapshots);
    TH_EQ(next, PS_TEST_TRACE_DEPTH);
    TH_CHECK(ms < 2500u); /* about 104 KB of frames, the line shared with 34 KB/s of snapshots */
    /* one every 10 ms; the ones still in the ring's trace half (44 ms of line) come later */
    TH_CHECK(snapshots + 5u >= ms / 10u);
    TH_CHECK(app.snapshot_index + 1u >= ms / 10u); /* each queued on time */
    TH_EQ(app.stats.tx_dropped, 0u);
    TH_EQ(app.cmd.trace.draining, false);
    /* each record was read once, and a frame at most per step */
    TH_EQ(ps_test_trace_record_reads(), PS_TEST_TRACE_DEPTH * PS_TRC_REC_WORDS);
}

/* Status reports the drain's progress; a new ARM ends it. */
static void status_reports_progress_and_arm_ends_a_drain(void)
{
    host_reset(&app);
    ps_test_trace_set(PS_PROBE_TRACE_STOPPED, 1000u, 0u, 0u);
    uint8_t tap = 0;
    ps_test_tx_set_accept(0u); /* the line holds still: the ring's trace half fills */
    host_cmd(1, PS_CMD_TRACE_READ, &tap, 1);
    host_steps(&app, 20);
    uint32_t sent = app.cmd.trace.next; /* queued, none on the line */
    TH_CHECK(sent > 0u && sent < 1000u);
    TH_EQ(sent % PS_TRACE_MAX_RECORDS, 0u);
    TH_CHECK(ps_txq_used(&app.tx) <= PS_APP_TRACE_TXQ_BYTES);
    TH_CHECK(ps_txq_used(&app.tx) + PS_FRAME_MAX_ENCODED > PS_APP_TRACE_TXQ_BYTES);
    ps_test_tx_set_accept(PS_TEST_UNLIMITED);
    (void)host_call(&app, &rx, 2, PS_CMD_TRACE_STATUS, &tap, 1);
    const host_frame_t *r = NULL; /* behind TRACE_READ's reply, which was queued first */
    for (size_t i = 0; i < rx.count; i++) {
        if (rx.frames[i].type == PS_FRAME_RESPONSE
            && rx.frames[i].payload[PS_RESPONSE_CMD_OFFSET] == PS_CMD_TRACE_STATUS) {
            r = &rx.frames[i];
        }
    }
    TH_EQ(status_of(r), PS_STATUS_OK);
    TH_EQ(reply_of(r)[PS_CMD_TRACE_STATUS_REPLY_DRAINING_OFFSET], 1u);
    uint32_t progress = ps_get_u32le(&reply_of(r)[PS_CMD_TRACE_STATUS_REPLY_SENT_OFFSET]);
    TH_CHECK(progress >= sent && progress < 1000u);
    arm_args_t a = arm_default();
    TH_EQ(call(3, PS_CMD_TRACE_ARM, a.b, sizeof a.b), PS_STATUS_OK);
    TH_EQ(app.cmd.trace.draining, false);
    host_steps(&app, 10);
    host_collect(&rx);
    for (size_t i = 0; i < rx.count; i++) {
        TH_CHECK(rx.frames[i].type != PS_FRAME_TRACE);
    }
}

void suite_trace(void)
{
    TH_RUN(arm_writes_the_settings_then_arms);
    TH_RUN(arm_refuses_what_the_registers_cannot_hold);
    TH_RUN(read_waits_for_a_stopped_trace);
    TH_RUN(full_trace_drains_beside_the_snapshot_stream);
    TH_RUN(status_reports_progress_and_arm_ends_a_drain);
}
