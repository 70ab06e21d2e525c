/* test_intervals.c - interval records: ring and drop-oldest, INTERVAL packing, the superloop's
 * drain from the probe FIFO, and snapshots keeping priority when the UART backs up. */
#include <string.h>

#include "host.h"
#include "ps_intervals.h"
#include "ps_le.h"
#include "suites.h"
#include "th.h"

static ps_app_t app;
static host_rx_t rx;
static ps_intervals_t iv;
static uint8_t buf[PS_FRAME_MAX_PAYLOAD];

/* record n: every word distinct, so a shifted or torn record shows */
static ps_interval_record_t record_n(uint32_t n)
{
    ps_interval_record_t r;
    for (unsigned w = 0; w < PS_SMP_WORDS; w++) {
        r.words[w] = n * 0x100u + w;
    }
    return r;
}

static uint32_t payload_word(const uint8_t *payload, size_t rec, unsigned w)
{
    return ps_get_u32le(&payload[PS_INTERVAL_BYTES + rec * PS_INTERVAL_RECORD_BYTES + 4u * w]);
}

static void packing_fills_frames_oldest_first(void)
{
    ps_intervals_init(&iv);
    TH_EQ(ps_intervals_encode(&iv, buf, sizeof buf, 0), 0); /* nothing to send */
    for (uint32_t n = 0; n < 2u * PS_INTERVAL_MAX_RECORDS + 2u; n++) {
        ps_interval_record_t r = record_n(n);
        ps_intervals_put(&iv, &r);
    }
    uint32_t next = 0;
    for (int frame = 0; frame < 3; frame++) {
        size_t len = ps_intervals_encode(&iv, buf, sizeof buf, 7u);
        size_t n = frame < 2 ? PS_INTERVAL_MAX_RECORDS : 2u;
        TH_EQ(len, PS_INTERVAL_BYTES + n * PS_INTERVAL_RECORD_BYTES);
        TH_EQ(buf[PS_INTERVAL_COUNT_OFFSET], n);
        TH_EQ(ps_get_u32le(&buf[PS_INTERVAL_FIRST_INDEX_OFFSET]), next);
        TH_EQ(ps_get_u32le(&buf[PS_INTERVAL_DROPPED_OFFSET]), 0);
        TH_EQ(ps_get_u32le(&buf[PS_INTERVAL_OVERFLOW_OFFSET]), 7u);
        for (size_t r = 0; r < n; r++) {
            for (unsigned w = 0; w < PS_SMP_WORDS; w++) {
                TH_EQ(payload_word(buf, r, w), (next + r) * 0x100u + w);
            }
        }
        next += (uint32_t)n;
    }
    TH_EQ(iv.count, 0);
    TH_EQ(ps_intervals_encode(&iv, buf, sizeof buf, 0), 0);
    /* a buffer with room for two records gets two */
    for (uint32_t n = 0; n < 5u; n++) {
        ps_interval_record_t r = record_n(n);
        ps_intervals_put(&iv, &r);
    }
    TH_EQ(ps_intervals_encode(&iv, buf, PS_INTERVAL_BYTES + 2u * PS_INTERVAL_RECORD_BYTES + 3u, 0),
          PS_INTERVAL_BYTES + 2u * PS_INTERVAL_RECORD_BYTES);
    TH_EQ(ps_intervals_encode(&iv, buf, PS_INTERVAL_BYTES + 3u, 0), 0); /* no room: kept */
    TH_EQ(iv.count, 3);
}

static void full_ring_drops_the_oldest_and_says_so(void)
{
    ps_intervals_init(&iv);
    const uint32_t extra = 5u;
    for (uint32_t n = 0; n < PS_INTERVAL_RING_RECORDS + extra; n++) {
        ps_interval_record_t r = record_n(n);
        ps_intervals_put(&iv, &r);
    }
    TH_EQ(iv.count, PS_INTERVAL_RING_RECORDS);
    TH_EQ(iv.dropped_total, extra);
    size_t len = ps_intervals_encode(&iv, buf, sizeof buf, 0);
    TH_CHECK(len > PS_INTERVAL_BYTES);
    TH_EQ(ps_get_u32le(&buf[PS_INTERVAL_DROPPED_OFFSET]), extra);
    TH_EQ(ps_get_u32le(&buf[PS_INTERVAL_FIRST_INDEX_OFFSET]), extra); /* records 0..4 are gone */
    TH_EQ(payload_word(buf, 0, 0), extra * 0x100u);
    (void)ps_intervals_encode(&iv, buf, sizeof buf, 0);
    TH_EQ(ps_get_u32le(&buf[PS_INTERVAL_DROPPED_OFFSET]), 0); /* reported once */
    TH_EQ(ps_get_u32le(&buf[PS_INTERVAL_FIRST_INDEX_OFFSET]), extra + PS_INTERVAL_MAX_RECORDS);
}

/* every INTERVAL frame in rx, in order: checks the records are consecutive and intact */
static uint32_t collect_records(uint32_t *next_index, uint32_t *dropped)
{
    uint32_t got = 0;
    for (size_t i = 0; i < rx.count; i++) {
        const host_frame_t *f = &rx.frames[i];
        if (f->type != PS_FRAME_INTERVAL) {
            continue;
        }
        uint8_t n = f->payload[PS_INTERVAL_COUNT_OFFSET];
        TH_EQ(f->len, PS_INTERVAL_BYTES + (size_t)n * PS_INTERVAL_RECORD_BYTES);
        uint32_t first = ps_get_u32le(&f->payload[PS_INTERVAL_FIRST_INDEX_OFFSET]);
        uint32_t d = ps_get_u32le(&f->payload[PS_INTERVAL_DROPPED_OFFSET]);
        TH_EQ(first, *next_index + d); /* a gap is exactly the drops reported */
        for (uint32_t r = 0; r < n; r++) {
            TH_EQ(payload_word(f->payload, r, 0), (first + r) * 0x100u);
            TH_EQ(payload_word(f->payload, r, PS_SMP_WORDS - 1u),
                  (first + r) * 0x100u + PS_SMP_WORDS - 1u);
        }
        *next_index = first + n;
        *dropped += d;
        got += n;
    }
    return got;
}

static void superloop_drains_the_probe_fifo(void)
{
    host_reset(&app);
    uint8_t nonce[4] = {0};
    (void)host_call(&app, &rx, 1, PS_CMD_PING, nonce, sizeof nonce); /* the host's hello */
    ps_test_set_reg(PS_REG_SAMPLE_OVERFLOW, 3u);
    uint32_t pushed = 0, next = 0, dropped = 0, got = 0;
    for (int round = 0; round < 40; round++) {
        for (int k = 0; k < 7; k++) {
            ps_interval_record_t r = record_n(pushed++);
            ps_test_sample_push(r.words);
        }
        ps_test_time_advance(1000u);
        host_steps(&app, 2);
        host_collect(&rx);
        got += collect_records(&next, &dropped);
    }
    ps_test_time_advance(PS_APP_INTERVAL_FLUSH_US); /* the rest goes out after the flush time */
    host_steps(&app, 4);
    host_collect(&rx);
    got += collect_records(&next, &dropped);
    TH_EQ(ps_test_sample_level(), 0);
    TH_EQ(dropped, 0);
    TH_EQ(got, pushed);
    TH_EQ(app.stats.tx_dropped, 0);
}

static void backed_up_uart_drops_oldest_records_not_snapshots(void)
{
    host_reset(&app);
    uint8_t args[2];
    ps_put_u16le(args, 10u); /* 100 snapshots/s */
    (void)host_call(&app, &rx, 1, PS_CMD_START, args, sizeof args);
    uint32_t pushed = 0, next = 0, dropped = 0, got = 0;
    size_t snapshots = 0;
    /* the UART takes 92 bytes per ms (921 600 baud: two drains of 46 bytes in one step of
     * the ms, none in the other nine) while the probe fills 20 records per ms: about ten
     * times what the line carries */
    for (int ms = 0; ms < 400; ms++) {
        for (int k = 0; k < 20; k++) {
            ps_interval_record_t r = record_n(pushed++);
            ps_test_sample_push(r.words);
            if ((k & 1) != 0) {
                ps_test_tx_set_accept(k == 1 ? 46u : 0u);
                ps_test_time_advance(100u);
                host_steps(&app, 1);
            }
        }
        host_collect(&rx);
        for (size_t i = 0; i < rx.count; i++) {
            snapshots += rx.frames[i].type == PS_FRAME_SNAPSHOT;
        }
        got += collect_records(&next, &dropped);
    }
    TH_EQ(app.stats.tx_dropped, 0); /* no frame was ever dropped: snapshots kept theirs */
    TH_CHECK(snapshots >= 38u);     /* 400 ms at 100/s, allowing the start */
    TH_CHECK(dropped > 0u);         /* the line could not carry every record ... */
    TH_CHECK(got > 0u);             /* ... but records kept flowing */
    /* the line clears: what is left goes out, and every record either arrived or was
     * reported dropped */
    ps_test_tx_set_accept(PS_TEST_UNLIMITED);
    for (int i = 0; i < 20; i++) {
        ps_test_time_advance(PS_APP_INTERVAL_FLUSH_US);
        host_steps(&app, 2);
    }
    host_collect(&rx);
    got += collect_records(&next, &dropped);
    TH_EQ(ps_test_sample_level(), 0);
    TH_EQ(app.intervals.count, 0);
    TH_EQ(got + dropped, pushed);
    TH_EQ(app.intervals.dropped_total, dropped);
    TH_EQ(ps_test_reg(PS_REG_SAMPLE_OVERFLOW), 0); /* the firmware kept the probe's FIFO drained */
    TH_EQ(app.stats.tx_dropped, 0);
}

void suite_intervals(void)
{
    TH_RUN(packing_fills_frames_oldest_first);
    TH_RUN(full_ring_drops_the_oldest_and_says_so);
    TH_RUN(superloop_drains_the_probe_fifo);
    TH_RUN(backed_up_uart_drops_oldest_records_not_snapshots);
}
