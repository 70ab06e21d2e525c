/* test_commands.c - every command through ps_app_step, including the error paths. */
#include <string.h>

#include "host.h"
#include "ps_le.h"
#include "suites.h"
#include "th.h"

static ps_app_t app;
static host_rx_t rx;

/* Expect a RESPONSE header: cmd, status, requestSeq. */
static void expect_response(const host_frame_t *f, uint8_t cmd, uint8_t status, uint16_t req_seq,
                            size_t reply_len)
{
    TH_CHECK(f != NULL);
    if (f == NULL) {
        return;
    }
    TH_EQ(f->type, PS_FRAME_RESPONSE);
    TH_EQ(f->len, PS_RESPONSE_BYTES + reply_len);
    TH_EQ(f->payload[PS_RESPONSE_CMD_OFFSET], cmd);
    TH_EQ(f->payload[PS_RESPONSE_STATUS_OFFSET], status);
    TH_EQ(ps_get_u16le(&f->payload[PS_RESPONSE_REQUEST_SEQ_OFFSET]), req_seq);
}

static void cmd_ping(void)
{
    host_reset(&app);
    uint8_t nonce[4];
    ps_put_u32le(nonce, 0xCAFEF00Du);
    const host_frame_t *f = host_call(&app, &rx, 0x1234, PS_CMD_PING, nonce, 4);
    expect_response(f, PS_CMD_PING, PS_STATUS_OK, 0x1234, PS_CMD_PING_REPLY_BYTES);
    TH_EQ(rx.count, 1);
    TH_EQ(rx.bad, 0);
    TH_EQ(f->seq, 0); /* first device frame */
    TH_EQ(ps_get_u32le(&f->payload[PS_RESPONSE_BYTES + PS_CMD_PING_REPLY_NONCE_OFFSET]),
          0xCAFEF00Du);
    f = host_call(&app, &rx, 0x1235, PS_CMD_PING, nonce, 4);
    TH_CHECK(f != NULL && f->seq == 1u);
    TH_EQ(app.stats.rx_frames, 2);
}

static void cmd_info(void)
{
    host_reset(&app);
    ps_test_set_reg(PS_REG_CLK_HZ, 125000000u);
    ps_test_set_reg(PS_REG_BAR_LATENCY, 777u);
    const host_frame_t *f = host_call(&app, &rx, 9, PS_CMD_INFO, NULL, 0);
    expect_response(f, PS_CMD_INFO, PS_STATUS_OK, 9, PS_CMD_INFO_REPLY_BYTES);
    if (f == NULL) {
        return;
    }
    const uint8_t *r = &f->payload[PS_RESPONSE_BYTES];
    TH_EQ(ps_get_u16le(&r[PS_CMD_INFO_REPLY_PROTOCOL_VERSION_OFFSET]), PS_PROTOCOL_VERSION);
    TH_EQ(ps_get_u16le(&r[PS_CMD_INFO_REPLY_FIRMWARE_VERSION_OFFSET]), 1);
    TH_EQ(ps_get_u32le(&r[PS_CMD_INFO_REPLY_PROBE_ID_OFFSET]), PS_ID_MAGIC);
    TH_EQ(ps_get_u32le(&r[PS_CMD_INFO_REPLY_REG_VERSION_OFFSET]), PS_VERSION_VALUE);
    TH_EQ(ps_get_u32le(&r[PS_CMD_INFO_REPLY_CLOCK_HZ_OFFSET]), 125000000u);
    TH_EQ(r[PS_CMD_INFO_REPLY_COUNTER_COUNT_OFFSET], PS_CNT_COUNT);
    TH_EQ(r[PS_CMD_INFO_REPLY_STREAMING_OFFSET], 0);
    TH_EQ(ps_get_u16le(&r[PS_CMD_INFO_REPLY_PERIOD_MS_OFFSET]), 100);
    TH_EQ(ps_get_u32le(&r[PS_CMD_INFO_REPLY_BAR_LATENCY_CYCLES_OFFSET]), 777u);

    uint8_t period[2];
    ps_put_u16le(period, 250);
    f = host_call(&app, &rx, 10, PS_CMD_START, period, 2);
    expect_response(f, PS_CMD_START, PS_STATUS_OK, 10, 0);
    f = host_call(&app, &rx, 11, PS_CMD_INFO, NULL, 0);
    expect_response(f, PS_CMD_INFO, PS_STATUS_OK, 11, PS_CMD_INFO_REPLY_BYTES);
    if (f == NULL) {
        return;
    }
    r = &f->payload[PS_RESPONSE_BYTES];
    TH_EQ(r[PS_CMD_INFO_REPLY_STREAMING_OFFSET], 1);
    TH_EQ(ps_get_u16le(&r[PS_CMD_INFO_REPLY_PERIOD_MS_OFFSET]), 250);
}

static void cmd_info_reports_a_missing_probe(void)
{
    host_reset(&app);
    ps_test_stick_reg(PS_REG_ID, 0);
    const host_frame_t *f = host_call(&app, &rx, 1, PS_CMD_INFO, NULL, 0);
    expect_response(f, PS_CMD_INFO, PS_STATUS_OK, 1, PS_CMD_INFO_REPLY_BYTES);
    if (f != NULL) {
        TH_EQ(ps_get_u32le(&f->payload[PS_RESPONSE_BYTES + PS_CMD_INFO_REPLY_PROBE_ID_OFFSET]), 0);
    }
}

static void start_with(uint16_t period_ms, uint8_t want_status, uint16_t want_period)
{
    host_reset(&app);
    uint8_t a[2];
    ps_put_u16le(a, period_ms);
    const host_frame_t *f = host_call(&app, &rx, 3, PS_CMD_START, a, 2);
    expect_response(f, PS_CMD_START, want_status, 3, 0);
    bool ok = want_status == PS_STATUS_OK;
    TH_EQ((ps_test_reg(PS_REG_CTRL) & PS_REG_CTRL_ENABLE) != 0u, ok);
    TH_EQ(app.cmd.streaming, ok);
    TH_EQ(app.cmd.period_ms, want_period);
}

static void cmd_start_periods(void)
{
    start_with(0, PS_STATUS_OK, 100);
    start_with(10, PS_STATUS_OK, 10);
    start_with(60000, PS_STATUS_OK, 60000);
    start_with(9, PS_STATUS_BAD_ARGUMENT, 100);
    start_with(1, PS_STATUS_BAD_ARGUMENT, 100);
    start_with(60001, PS_STATUS_BAD_ARGUMENT, 100);
    start_with(65535, PS_STATUS_BAD_ARGUMENT, 100);
}

static void cmd_stop_keeps_counts(void)
{
    host_reset(&app);
    uint8_t a[2] = {0, 0};
    (void)host_call(&app, &rx, 1, PS_CMD_START, a, 2);
    ps_test_tick(1000);
    ps_test_set_counter(PS_CNT_MRD_128, 42);
    const host_frame_t *f = host_call(&app, &rx, 2, PS_CMD_STOP, NULL, 0);
    expect_response(f, PS_CMD_STOP, PS_STATUS_OK, 2, 0);
    TH_EQ(ps_test_reg(PS_REG_CTRL) & PS_REG_CTRL_ENABLE, 0);
    TH_CHECK(!app.cmd.streaming);
    TH_EQ(ps_test_regs_stats().clears, 0);
    ps_test_tick(1000); /* disabled: cycles stand still */
    f = host_call(&app, &rx, 3, PS_CMD_SNAPSHOT, NULL, 0);
    TH_EQ(rx.count, 2);
    const uint8_t *p = rx.frames[0].payload;
    TH_EQ(ps_get_u64le(&p[PS_SNAPSHOT_COUNTERS_OFFSET + 8u * PS_CNT_MRD_128]), 42);
    TH_EQ(ps_get_u64le(&p[PS_SNAPSHOT_COUNTERS_OFFSET + 8u * PS_CNT_CYCLES]), 1000);
    TH_EQ(p[PS_SNAPSHOT_FLAGS_OFFSET], PS_SNAPSHOT_FLAG_ON_DEMAND);
}

static void cmd_clear(void)
{
    host_reset(&app);
    ps_test_set_counter(PS_CNT_CPLD_BYTES, 4096);
    const host_frame_t *f = host_call(&app, &rx, 5, PS_CMD_CLEAR, NULL, 0);
    expect_response(f, PS_CMD_CLEAR, PS_STATUS_OK, 5, 0);
    TH_EQ(ps_test_regs_stats().clears, 1);
    TH_EQ(ps_test_counter(PS_CNT_CPLD_BYTES), 0);
}

static void cmd_snapshot_before_response(void)
{
    host_reset(&app);
    for (unsigned i = 0; i < PS_CNT_COUNT; i++) {
        ps_test_set_counter(i, 0xAB00000000000000ull | ((uint64_t)i << 32) | (i * 3u));
    }
    const host_frame_t *f = host_call(&app, &rx, 0x0ABC, PS_CMD_SNAPSHOT, NULL, 0);
    TH_EQ(rx.count, 2);
    TH_EQ(rx.frames[0].type, PS_FRAME_SNAPSHOT);
    TH_CHECK(f == &rx.frames[1]);
    expect_response(f, PS_CMD_SNAPSHOT, PS_STATUS_OK, 0x0ABC, 0);
    const host_frame_t *s = &rx.frames[0];
    TH_EQ(s->len, PS_SNAPSHOT_BYTES);
    TH_EQ(s->seq, 0);
    TH_EQ(f->seq, 1);
    TH_EQ(s->payload[PS_SNAPSHOT_FLAGS_OFFSET], PS_SNAPSHOT_FLAG_ON_DEMAND);
    TH_EQ(ps_get_u32le(&s->payload[PS_SNAPSHOT_INDEX_OFFSET]), 0);
    for (unsigned i = 0; i < PS_CNT_COUNT; i++) {
        TH_EQ(ps_get_u64le(&s->payload[PS_SNAPSHOT_COUNTERS_OFFSET + 8u * i]), ps_test_counter(i));
    }
    TH_EQ(ps_get_u32le(&s->payload[PS_SNAPSHOT_RX_FRAMES_OFFSET]), 1); /* this command counted */

    /* second snapshot: index 1; while streaming the ENABLED flag is set too */
    uint8_t a[2] = {0, 0};
    (void)host_call(&app, &rx, 0x0ABD, PS_CMD_START, a, 2);
    (void)host_call(&app, &rx, 0x0ABE, PS_CMD_SNAPSHOT, NULL, 0);
    TH_EQ(rx.count, 2);
    s = &rx.frames[0];
    TH_EQ(s->type, PS_FRAME_SNAPSHOT);
    TH_EQ(ps_get_u32le(&s->payload[PS_SNAPSHOT_INDEX_OFFSET]), 1);
    TH_EQ(s->payload[PS_SNAPSHOT_FLAGS_OFFSET],
          PS_SNAPSHOT_FLAG_ON_DEMAND | PS_SNAPSHOT_FLAG_ENABLED);
    TH_EQ(ps_get_u32le(&s->payload[PS_SNAPSHOT_RX_FRAMES_OFFSET]), 3);
}

typedef struct bad_length_case {
    uint8_t cmd;
    size_t len;
} bad_length_case_t;

static void cmd_bad_lengths(void)
{
    static const bad_length_case_t cases[] = {
        {PS_CMD_PING, 0},
        {PS_CMD_PING, 3},
        {PS_CMD_PING, 5},
        {PS_CMD_INFO, 1},
        {PS_CMD_START, 0},
        {PS_CMD_START, 1},
        {PS_CMD_START, 3},
        {PS_CMD_STOP, 1},
        {PS_CMD_CLEAR, 2},
        {PS_CMD_SNAPSHOT, 1},
        {PS_CMD_SET_SAMPLE_PERIOD, 3},
        {PS_CMD_SET_SAMPLE_PERIOD, 5},
        {PS_CMD_SET_FILTER, 8},
        {PS_CMD_SET_FILTER, 15},
        {PS_CMD_SET_FILTER, 0},
        {PS_CMD_SET_BAR_LATENCY, 2},
        {PS_CMD_LINK_INFO, 1},
    };
    uint8_t args[16] = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        host_reset(&app);
        const host_frame_t *f =
            host_call(&app, &rx, (uint16_t)(100u + i), cases[i].cmd, args, cases[i].len);
        expect_response(f, cases[i].cmd, PS_STATUS_BAD_LENGTH, (uint16_t)(100u + i), 0);
        TH_EQ(rx.count, 1);                 /* no snapshot for a refused SNAPSHOT */
        TH_EQ(ps_test_reg(PS_REG_CTRL), 0); /* no side effect */
        TH_EQ(ps_test_regs_stats().clears, 0);
        TH_EQ(app.stats.unknown_commands, 0);
    }
}

static void cmd_unknown(void)
{
    host_reset(&app);
    const uint8_t ids[] = {0x00, 0x3F, 0x7F, 0xFF};
    for (size_t i = 0; i < sizeof ids; i++) {
        const host_frame_t *f =
            host_call(&app, &rx, (uint16_t)i, ids[i], (const uint8_t *)"xyz", 3);
        expect_response(f, ids[i], PS_STATUS_UNKNOWN_COMMAND, (uint16_t)i, 0);
    }
    TH_EQ(app.stats.unknown_commands, 4);
    TH_EQ(app.stats.rx_frames, 4);
    (void)host_call(&app, &rx, 50, PS_CMD_SNAPSHOT, NULL, 0);
    TH_EQ(ps_get_u32le(&rx.frames[0].payload[PS_SNAPSHOT_UNKNOWN_COMMANDS_OFFSET]), 4);
}

static void non_command_frames_are_bad(void)
{
    host_reset(&app);
    const uint8_t ping[] = {PS_CMD_PING, 1, 2, 3, 4};
    host_send_frame(PS_FRAME_RESPONSE, 1, ping, sizeof ping); /* our own echo, e.g. a loopback */
    host_send_frame(PS_FRAME_SNAPSHOT, 2, ping, sizeof ping);
    host_send_frame(0x00, 3, ping, sizeof ping);
    host_send_frame(PS_FRAME_COMMAND, 4, NULL, 0); /* COMMAND without a cmd byte */
    host_steps(&app, 3);
    TH_EQ(ps_test_tx_pending(), 0);
    TH_EQ(app.stats.rx_bad_frames, 4);
    TH_EQ(app.stats.rx_frames, 0);
}

static void seq_wraps(void)
{
    host_reset(&app);
    app.tx_seq = 0xFFFFu;
    uint8_t nonce[4] = {1, 2, 3, 4};
    const host_frame_t *f = host_call(&app, &rx, 0xFFFF, PS_CMD_PING, nonce, 4);
    TH_CHECK(f != NULL && f->seq == 0xFFFFu);
    f = host_call(&app, &rx, 0, PS_CMD_PING, nonce, 4);
    TH_CHECK(f != NULL && f->seq == 0u);
    expect_response(f, PS_CMD_PING, PS_STATUS_OK, 0, 4);
}

static const host_frame_t *call_u32(uint16_t seq, uint8_t cmd, uint32_t v)
{
    uint8_t a[4];
    ps_put_u32le(a, v);
    return host_call(&app, &rx, seq, cmd, a, sizeof a);
}

static void cmd_set_sample_period(void)
{
    host_reset(&app);
    /* in range, and 0 (off): written to SAMPLE_PERIOD */
    const uint32_t good[] = {PS_CMD_SET_SAMPLE_PERIOD_ARG_PERIOD_CYCLES_MIN, 1000u,
                             PS_CMD_SET_SAMPLE_PERIOD_ARG_PERIOD_CYCLES_MAX, 0u};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        const host_frame_t *f = call_u32((uint16_t)i, PS_CMD_SET_SAMPLE_PERIOD, good[i]);
        expect_response(f, PS_CMD_SET_SAMPLE_PERIOD, PS_STATUS_OK, (uint16_t)i, 0);
        TH_EQ(ps_test_reg(PS_REG_SAMPLE_PERIOD), good[i]);
    }
    /* outside: BAD_ARGUMENT and the register keeps its value */
    (void)call_u32(9, PS_CMD_SET_SAMPLE_PERIOD, 4096u);
    const uint32_t bad[] = {1u, PS_CMD_SET_SAMPLE_PERIOD_ARG_PERIOD_CYCLES_MIN - 1u,
                            PS_CMD_SET_SAMPLE_PERIOD_ARG_PERIOD_CYCLES_MAX + 1u, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const host_frame_t *f = call_u32((uint16_t)(20u + i), PS_CMD_SET_SAMPLE_PERIOD, bad[i]);
        expect_response(f, PS_CMD_SET_SAMPLE_PERIOD, PS_STATUS_BAD_ARGUMENT, (uint16_t)(20u + i),
                        0);
        TH_EQ(ps_test_reg(PS_REG_SAMPLE_PERIOD), 4096u);
    }
}

static const host_frame_t *call_filter(uint16_t seq, uint64_t base, uint64_t limit)
{
    uint8_t a[PS_CMD_SET_FILTER_ARGS_BYTES];
    ps_put_u64le(&a[PS_CMD_SET_FILTER_ARG_BASE_OFFSET], base);
    ps_put_u64le(&a[PS_CMD_SET_FILTER_ARG_LIMIT_OFFSET], limit);
    return host_call(&app, &rx, seq, PS_CMD_SET_FILTER, a, sizeof a);
}

static void cmd_set_filter(void)
{
    host_reset(&app);
    const host_frame_t *f = call_filter(1, 0x123456789000ull, 0x1234567897FFull);
    expect_response(f, PS_CMD_SET_FILTER, PS_STATUS_OK, 1, 0);
    TH_EQ(ps_test_reg(PS_REG_FILTER_CTRL), PS_REG_FILTER_CTRL_EN);
    TH_EQ(ps_test_reg(PS_REG_FILTER_BASE_LO), 0x56789000u);
    TH_EQ(ps_test_reg(PS_REG_FILTER_BASE_HI), 0x1234u);
    TH_EQ(ps_test_reg(PS_REG_FILTER_LIMIT_LO), 0x567897FFu);
    TH_EQ(ps_test_reg(PS_REG_FILTER_LIMIT_HI), 0x1234u);
    /* one address is a window too */
    f = call_filter(2, 0x1000u, 0x1000u);
    expect_response(f, PS_CMD_SET_FILTER, PS_STATUS_OK, 2, 0);
    TH_EQ(ps_test_reg(PS_REG_FILTER_CTRL), PS_REG_FILTER_CTRL_EN);
    /* limit below base: refused, the filter stays as it was */
    f = call_filter(3, 0x2000u, 0x1FFFu);
    expect_response(f, PS_CMD_SET_FILTER, PS_STATUS_BAD_ARGUMENT, 3, 0);
    TH_EQ(ps_test_reg(PS_REG_FILTER_CTRL), PS_REG_FILTER_CTRL_EN);
    TH_EQ(ps_test_reg(PS_REG_FILTER_BASE_LO), 0x1000u);
    /* both 0: off */
    f = call_filter(4, 0, 0);
    expect_response(f, PS_CMD_SET_FILTER, PS_STATUS_OK, 4, 0);
    TH_EQ(ps_test_reg(PS_REG_FILTER_CTRL), 0);
}

static void cmd_set_bar_latency(void)
{
    host_reset(&app);
    const host_frame_t *f = call_u32(1, PS_CMD_SET_BAR_LATENCY, 0u);
    expect_response(f, PS_CMD_SET_BAR_LATENCY, PS_STATUS_OK, 1, 0);
    TH_EQ(ps_test_reg(PS_REG_BAR_LATENCY), 0u);
    f = call_u32(2, PS_CMD_SET_BAR_LATENCY, PS_CMD_SET_BAR_LATENCY_ARG_CYCLES_MAX);
    expect_response(f, PS_CMD_SET_BAR_LATENCY, PS_STATUS_OK, 2, 0);
    TH_EQ(ps_test_reg(PS_REG_BAR_LATENCY), PS_CMD_SET_BAR_LATENCY_ARG_CYCLES_MAX);
    /* a value the 16-bit register would truncate is refused, not wrapped */
    f = call_u32(3, PS_CMD_SET_BAR_LATENCY, PS_CMD_SET_BAR_LATENCY_ARG_CYCLES_MAX + 1u);
    expect_response(f, PS_CMD_SET_BAR_LATENCY, PS_STATUS_BAD_ARGUMENT, 3, 0);
    TH_EQ(ps_test_reg(PS_REG_BAR_LATENCY), PS_CMD_SET_BAR_LATENCY_ARG_CYCLES_MAX);
    /* INFO reports what was set */
    f = host_call(&app, &rx, 4, PS_CMD_INFO, NULL, 0);
    TH_CHECK(f != NULL);
    if (f != NULL) {
        TH_EQ(ps_get_u32le(
                  &f->payload[PS_RESPONSE_BYTES + PS_CMD_INFO_REPLY_BAR_LATENCY_CYCLES_OFFSET]),
              PS_CMD_SET_BAR_LATENCY_ARG_CYCLES_MAX);
    }
}

static void cmd_link_info(void)
{
    host_reset(&app);
    ps_test_set_reg(PS_REG_LINK_GEN, 5u);
    ps_test_set_reg(PS_REG_LINK_WIDTH, 16u);
    ps_test_set_reg(PS_REG_MPS, 256u);
    ps_test_set_reg(PS_REG_MRRS, 512u);
    ps_test_set_reg(PS_REG_RCB, 64u);
    ps_test_set_reg(PS_REG_TAG_BITS, 10u);
    ps_test_set_reg(PS_REG_CLK_HZ, 250000000u);
    ps_test_set_reg(PS_REG_BUILD_ID, 0x20261123u);
    ps_test_set_reg(PS_REG_SAMPLE_STATUS, (256u << 16) | 3u);
    (void)call_u32(1, PS_CMD_SET_SAMPLE_PERIOD, 2500u);
    (void)call_filter(2, 0x100000000ull, 0x1000FFFFFull);
    const host_frame_t *f = host_call(&app, &rx, 3, PS_CMD_LINK_INFO, NULL, 0);
    expect_response(f, PS_CMD_LINK_INFO, PS_STATUS_OK, 3, PS_CMD_LINK_INFO_REPLY_BYTES);
    if (f == NULL) {
        return;
    }
    const uint8_t *r = &f->payload[PS_RESPONSE_BYTES];
    TH_EQ(r[PS_CMD_LINK_INFO_REPLY_LINK_GEN_OFFSET], 5);
    TH_EQ(r[PS_CMD_LINK_INFO_REPLY_LINK_WIDTH_OFFSET], 16);
    TH_EQ(r[PS_CMD_LINK_INFO_REPLY_TAG_BITS_OFFSET], 10);
    TH_EQ(r[PS_CMD_LINK_INFO_REPLY_FILTER_ENABLED_OFFSET], 1);
    TH_EQ(ps_get_u16le(&r[PS_CMD_LINK_INFO_REPLY_MPS_OFFSET]), 256);
    TH_EQ(ps_get_u16le(&r[PS_CMD_LINK_INFO_REPLY_MRRS_OFFSET]), 512);
    TH_EQ(ps_get_u16le(&r[PS_CMD_LINK_INFO_REPLY_RCB_OFFSET]), 64);
    TH_EQ(ps_get_u16le(&r[PS_CMD_LINK_INFO_REPLY_SAMPLE_DEPTH_OFFSET]), 256);
    TH_EQ(ps_get_u32le(&r[PS_CMD_LINK_INFO_REPLY_CLOCK_HZ_OFFSET]), 250000000u);
    TH_EQ(ps_get_u32le(&r[PS_CMD_LINK_INFO_REPLY_BUILD_ID_OFFSET]), 0x20261123u);
    TH_EQ(ps_get_u32le(&r[PS_CMD_LINK_INFO_REPLY_SAMPLE_PERIOD_CYCLES_OFFSET]), 2500u);
    TH_CHECK(ps_get_u64le(&r[PS_CMD_LINK_INFO_REPLY_FILTER_BASE_OFFSET]) == 0x100000000ull);
    TH_CHECK(ps_get_u64le(&r[PS_CMD_LINK_INFO_REPLY_FILTER_LIMIT_OFFSET]) == 0x1000FFFFFull);
}

void suite_commands(void)
{
    TH_RUN(cmd_ping);
    TH_RUN(cmd_info);
    TH_RUN(cmd_info_reports_a_missing_probe);
    TH_RUN(cmd_start_periods);
    TH_RUN(cmd_stop_keeps_counts);
    TH_RUN(cmd_clear);
    TH_RUN(cmd_snapshot_before_response);
    TH_RUN(cmd_bad_lengths);
    TH_RUN(cmd_unknown);
    TH_RUN(non_command_frames_are_bad);
    TH_RUN(seq_wraps);
    TH_RUN(cmd_set_sample_period);
    TH_RUN(cmd_set_filter);
    TH_RUN(cmd_set_bar_latency);
    TH_RUN(cmd_link_info);
}
