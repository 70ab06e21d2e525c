/* test_link.c - the UART under stress: silence before the hello, TX full, partial writes,
 * oversized frames, garbage, dropped and corrupted bytes, tiny reads. */
#include <string.h>

#include "host.h"
#include "ps_le.h"
#include "suites.h"
#include "th.h"

static ps_app_t app;
static host_rx_t rx;

static const host_frame_t *ping(uint16_t seq, uint32_t nonce)
{
    uint8_t a[4];
    ps_put_u32le(a, nonce);
    return host_call(&app, &rx, seq, PS_CMD_PING, a, 4);
}

static bool is_ping_reply(const host_frame_t *f, uint32_t nonce)
{
    return f != NULL && f->payload[PS_RESPONSE_STATUS_OFFSET] == PS_STATUS_OK
        && f->len == PS_RESPONSE_BYTES + 4u
        && ps_get_u32le(&f->payload[PS_RESPONSE_BYTES]) == nonce;
}

static void silent_until_first_command(void)
{
    host_reset(&app);
    host_steps(&app, 10);
    ps_test_time_advance(10000000u);
    host_steps(&app, 10);
    uint8_t junk[PS_RX_CHUNK_MAX + 110u];
    for (unsigned i = 0; i < sizeof junk; i++) {
        junk[i] = (uint8_t)((i * 37u) | 1u);
    }
    junk[100] = 0;
    junk[sizeof junk - 1u] = 0;
    host_raw(junk, sizeof junk); /* a bad chunk and an overflow (longer than any frame) */
    const uint8_t p[] = {PS_CMD_PING, 1, 2, 3, 4};
    host_send_frame(PS_FRAME_RESPONSE, 1, p, sizeof p); /* valid frame, wrong type */
    ps_test_rx_corrupt_at(ps_test_rx_consumed() + ps_test_rx_pending() + 3u, 0x01);
    host_send_frame(PS_FRAME_COMMAND, 2, p, sizeof p); /* a PING with one bit flipped */
    host_steps(&app, 20u + (unsigned)(sizeof junk / PS_APP_RX_READ_BYTES));
    TH_EQ(ps_test_tx_pending(), 0);
    TH_EQ(ps_test_tx_write_calls(), 0); /* not even an empty write */
    TH_EQ(app.stats.rx_bad_frames, 3);
    TH_EQ(app.stats.rx_overflows, 1);
    TH_EQ(app.stats.rx_frames, 0);
    const host_frame_t *f = ping(7, 0x11223344u);
    TH_CHECK(is_ping_reply(f, 0x11223344u));
    TH_EQ(app.stats.rx_frames, 1);
}

static void tx_full_drops_whole_frames(void)
{
    host_reset(&app);
    TH_CHECK(ping(1, 1) != NULL);
    ps_test_tx_set_accept(0); /* the host stopped reading */
    for (unsigned i = 0; i < 40u; i++) {
        host_cmd((uint16_t)(10u + i), PS_CMD_SNAPSHOT, NULL, 0);
        host_steps(&app, 1);
    }
    TH_CHECK(app.stats.tx_dropped > 0u);
    TH_CHECK(ps_txq_used(&app.tx) <= PS_TXQ_BYTES);
    TH_CHECK(ps_txq_used(&app.tx) > PS_TXQ_BYTES - PS_FRAME_MAX_ENCODED); /* really full */
    uint32_t dropped = app.stats.tx_dropped;
    /* the host reads again: everything queued arrives intact; seq gaps = drops */
    ps_test_tx_set_accept(PS_TEST_UNLIMITED);
    host_steps(&app, 2);
    host_collect(&rx);
    TH_EQ(rx.bad, 0);
    TH_EQ(rx.count + dropped, 80u); /* 40 x (snapshot + response) */
    uint16_t last = 0;
    for (size_t i = 0; i < rx.count; i++) {
        TH_CHECK(i == 0u || rx.frames[i].seq > last); /* in order, never repeated */
        last = rx.frames[i].seq;
    }
    size_t delivered = rx.count;
    TH_EQ(ps_txq_used(&app.tx), 0);
    /* the next frame shows the trailing drops as a seq gap; its snapshot reports them */
    (void)host_call(&app, &rx, 99, PS_CMD_SNAPSHOT, NULL, 0);
    TH_EQ(rx.frames[0].type, PS_FRAME_SNAPSHOT);
    TH_EQ(rx.frames[0].seq - 1u, delivered + dropped); /* seq 0 was the PING reply */
    TH_EQ(ps_get_u32le(&rx.frames[0].payload[PS_SNAPSHOT_TX_DROPPED_OFFSET]), dropped);
}

static void tx_partial_writes(void)
{
    host_reset(&app);
    ps_test_tx_set_accept(3); /* a UART that takes 3 bytes a call */
    host_cmd(1, PS_CMD_SNAPSHOT, NULL, 0);
    host_cmd(2, PS_CMD_INFO, NULL, 0);
    for (unsigned i = 0; i < 200u; i++) {
        host_steps(&app, 1);
    }
    host_collect(&rx);
    TH_EQ(rx.bad, 0);
    TH_EQ(rx.count, 3);
    TH_EQ(rx.frames[0].type, PS_FRAME_SNAPSHOT);
    TH_EQ(rx.frames[2].payload[PS_RESPONSE_CMD_OFFSET], PS_CMD_INFO);
    TH_EQ(app.stats.tx_dropped, 0);
    TH_EQ(ps_txq_used(&app.tx), 0);
}

/* steps that read a maximal chunk, PS_APP_RX_READ_BYTES a step */
#define RX_STEPS (2u + PS_RX_CHUNK_MAX / PS_APP_RX_READ_BYTES)

static void rx_overflow_then_resync(void)
{
    host_reset(&app);
    uint8_t big[PS_RX_CHUNK_MAX + 200u];
    memset(big, 0x41, sizeof big);
    host_raw(big, sizeof big);
    host_raw((const uint8_t[]){0x00}, 1);
    const host_frame_t *f = ping(5, 0xABCDEF01u);
    TH_CHECK(is_ping_reply(f, 0xABCDEF01u));
    TH_EQ(app.stats.rx_overflows, 1);
    TH_EQ(app.stats.rx_bad_frames, 0);
    /* exactly the longest legal chunk is not an overflow (it is a bad frame: not COBS+CRC) */
    host_raw(big, PS_RX_CHUNK_MAX);
    host_raw((const uint8_t[]){0x00}, 1);
    host_steps(&app, RX_STEPS);
    TH_EQ(app.stats.rx_overflows, 1);
    TH_EQ(app.stats.rx_bad_frames, 1);
    host_raw(big, PS_RX_CHUNK_MAX + 1u); /* one byte more: an overflow */
    host_raw((const uint8_t[]){0x00}, 1);
    host_steps(&app, RX_STEPS);
    TH_EQ(app.stats.rx_overflows, 2);
    TH_EQ(app.stats.rx_bad_frames, 1);
    /* a maximal command frame (PS_FRAME_MAX_PAYLOAD bytes) is accepted */
    uint8_t payload[PS_FRAME_MAX_PAYLOAD];
    memset(payload, 0x33, sizeof payload);
    payload[0] = PS_CMD_PING;
    host_send_frame(PS_FRAME_COMMAND, 77, payload, sizeof payload);
    host_steps(&app, RX_STEPS);
    host_collect(&rx);
    TH_EQ(rx.count, 1);
    TH_EQ(rx.frames[0].payload[PS_RESPONSE_STATUS_OFFSET], PS_STATUS_BAD_LENGTH);
    TH_EQ(app.stats.rx_overflows, 2);
}

static void rx_garbage_then_resync(void)
{
    host_reset(&app);
    uint32_t x = 99u;
    uint8_t junk[1000];
    for (unsigned i = 0; i < sizeof junk; i++) {
        x = x * 1664525u + 1013904223u;
        junk[i] = (uint8_t)(x >> 24);
    }
    host_raw(junk, sizeof junk);
    host_raw((const uint8_t[]){0x00}, 1); /* the host's resync: one delimiter before a frame */
    const host_frame_t *f = ping(1, 0x5A5A5A5Au);
    TH_CHECK(is_ping_reply(f, 0x5A5A5A5Au));
    TH_EQ(app.stats.rx_frames, 1);
    TH_CHECK(app.stats.rx_bad_frames + app.stats.rx_overflows > 0u);
}

static void rx_corrupted_and_dropped_bytes(void)
{
    host_reset(&app);
    ps_test_rx_corrupt_at(ps_test_rx_consumed() + 4u, 0x10); /* inside the first frame */
    TH_CHECK(ping(1, 111) == NULL);
    TH_EQ(app.stats.rx_bad_frames, 1);
    TH_CHECK(is_ping_reply(ping(2, 222), 222));
    ps_test_rx_drop_every(5); /* a lossy line: frames fail, nothing crashes or hangs */
    for (unsigned i = 0; i < 20u; i++) {
        (void)ping((uint16_t)(10u + i), i);
    }
    ps_test_rx_drop_every(0);
    host_raw((const uint8_t[]){0x00}, 1);
    TH_CHECK(is_ping_reply(ping(50, 5050), 5050));
    TH_CHECK(app.stats.rx_bad_frames >= 10u);
    TH_EQ(rx.bad, 0);
}

static void rx_tiny_reads_and_empty_frames(void)
{
    host_reset(&app);
    ps_test_rx_set_chunk(1);
    host_raw((const uint8_t[]){0x00, 0x00, 0x00}, 3); /* empty chunks are not frames */
    uint8_t a[4] = {9, 9, 9, 9};
    host_cmd(3, PS_CMD_PING, a, 4);
    host_steps(&app, 40);
    host_collect(&rx);
    TH_EQ(rx.count, 1);
    TH_EQ(app.stats.rx_bad_frames, 0);
    TH_EQ(app.stats.rx_frames, 1);
}

static void rx_budget_bounds_a_step(void)
{
    host_reset(&app);
    for (unsigned i = 0; i < 200u; i++) {
        uint8_t a[4] = {1, 2, 3, 4};
        host_cmd((uint16_t)i, PS_CMD_PING, a, 4);
    }
    size_t before = ps_test_rx_pending();
    host_steps(&app, 1);
    TH_EQ(before - ps_test_rx_pending(), PS_APP_RX_BUDGET);
    host_steps(&app, 100);
    host_collect(&rx);
    TH_EQ(rx.count, 200);
}

void suite_link(void)
{
    TH_RUN(silent_until_first_command);
    TH_RUN(tx_full_drops_whole_frames);
    TH_RUN(tx_partial_writes);
    TH_RUN(rx_overflow_then_resync);
    TH_RUN(rx_garbage_then_resync);
    TH_RUN(rx_corrupted_and_dropped_bytes);
    TH_RUN(rx_tiny_reads_and_empty_frames);
    TH_RUN(rx_budget_bounds_a_step);
}
