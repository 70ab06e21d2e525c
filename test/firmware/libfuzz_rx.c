/*
 * libfuzz_rx.c - coverage-guided fuzz target (libFuzzer) for the firmware's receive and command
 * path, beside the fixed-seed random loops of fuzz_rx.c.
 *
 * Each input is one power-on session on the test port. Its first byte picks the mode:
 *   bit 7 clear  raw wire bytes: the rest of the input goes to the UART as it is (COBS, CRC and
 *                framing errors, overflows, stray delimiters);
 *   bit 7 set    structured: the rest is a list of (length u8, payload) records, each sent as a
 *                well-formed COMMAND frame, so mutations reach the command parser and the
 *                argument range checks instead of dying at the CRC.
 * Bits 0..5 set how many bytes the UART hands over per read (0 = all at once), bit 6 lets
 * simulated time run between steps so streaming snapshots interleave with the replies.
 *
 * The second byte sets the probe and the line around the firmware (ENV_* below): the switch
 * design's second tap, interval records arriving from the sampler (up to overflowing its FIFO),
 * non-zero counters and histograms, a slow or stalled UART and lost bytes, so the telemetry,
 * interval and back-pressure paths run as well as the receive path.
 *
 * Tap 0 holds a stopped trace of up to 300 records at power-on, for TRACE_READ to drain.
 *
 * After every step the host's view must hold: every byte the firmware sent decodes to a valid
 * frame of a device-to-host type, replies carry a known status, the link statistics never go
 * down, and no more replies arrive than good commands were received. ASan and UBSan abort on
 * any memory or arithmetic fault.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "host.h"
#include "ps_frame.h"
#include "ps_le.h"

static ps_app_t app;
static host_rx_t rx;

enum {
    ENV_TWO_TAPS = 0x01u,      /* the switch design: tap 1 (the host side) decoded */
    ENV_RECORDS_SHIFT = 1u,    /* bits 1..2: interval records queued per step: 0, 1, 8, 64 */
    ENV_SLOW_UART = 0x08u,     /* the UART takes 7 bytes per write: the TX ring backs up */
    ENV_TAP_INFO_HIGH = 0x10u, /* TAP_INFO claims more taps than a design can have */
    ENV_COUNTERS = 0x20u,      /* counters and histogram bins hold input-derived values */
    ENV_LOSSY_RX = 0x40u,      /* every 13th byte to the firmware is lost */
    ENV_STALLED_UART = 0x80u,  /* the UART takes nothing for the first half of the input */
};

#define MAX_RECORDS 48u

static const unsigned records_per_step[4] = {0u, 1u, 8u, 64u};

typedef struct session {
    ps_link_stats_t prev;
    uint64_t replies;
    uint8_t env;
    uint64_t records; /* interval records queued so far */
} session_t;

static void check(session_t *s)
{
    host_collect(&rx);
    FUZZ_CHECK(rx.bad == 0u); /* the firmware never tears a frame */
    for (size_t i = 0; i < rx.count; i++) {
        const host_frame_t *f = &rx.frames[i];
        FUZZ_CHECK(f->type != PS_FRAME_COMMAND);
        if (f->type == PS_FRAME_RESPONSE) {
            FUZZ_CHECK(f->len >= PS_RESPONSE_BYTES);
            FUZZ_CHECK(f->payload[PS_RESPONSE_STATUS_OFFSET] <= PS_STATUS_NOT_READY);
            s->replies++;
        } else if (f->type == PS_FRAME_TRACE) { /* a drain after TRACE_READ: whole records */
            FUZZ_CHECK(f->len >= PS_TRACE_BYTES);
            FUZZ_CHECK(f->len
                       == PS_TRACE_BYTES
                           + (size_t)f->payload[PS_TRACE_COUNT_OFFSET] * PS_TRACE_RECORD_BYTES);
        }
    }
    const ps_link_stats_t *now = &app.stats;
    FUZZ_CHECK(now->rx_frames >= s->prev.rx_frames);
    FUZZ_CHECK(now->rx_bad_frames >= s->prev.rx_bad_frames);
    FUZZ_CHECK(now->rx_overflows >= s->prev.rx_overflows);
    FUZZ_CHECK(now->unknown_commands >= s->prev.unknown_commands);
    FUZZ_CHECK(now->tx_dropped >= s->prev.tx_dropped);
    FUZZ_CHECK(s->replies <= now->rx_frames);
    s->prev = *now;
}

/* Counter, histogram and interval-record values spread over the ranges that matter: zero, small,
 * near a 32-bit boundary and near 2^64. */
static uint64_t spread(uint64_t seed, unsigned i)
{
    static const uint64_t bases[4] = {0u, 1000u, 0xFFFFFFF0u, 0xFFFFFFFFFFFFFF00u};
    uint64_t x = (seed + i) * 0x9E3779B97F4A7C15u;
    return bases[x >> 62] + (x & 0xFFu);
}

static void load_probe(uint8_t env, uint64_t seed)
{
    /* a stopped trace of up to 300 records, so TRACE_READ drains frames until an ARM empties it */
    ps_test_trace_set(3u | PS_REG_TRC_STATUS_TRIGGERED, (uint32_t)(seed % 301u),
                      (uint32_t)(seed % 7u), (uint32_t)(seed % 3u));
    if (env & ENV_TWO_TAPS) {
        ps_test_set_taps(2u);
    }
    if (env & ENV_TAP_INFO_HIGH) {
        ps_test_stick_reg(PS_REG_TAP_INFO, (7u << 8) | PS_TAP_GPU);
    }
    if (env & ENV_COUNTERS) {
        for (unsigned i = 0; i < PS_CNT_COUNT; i++) {
            ps_test_set_counter(i, spread(seed, i));
            ps_test_set_tap_counter(1u, i, spread(seed, i + 7u));
        }
        for (unsigned k = 0; k < PS_HIST_KINDS; k++) {
            for (unsigned b = 0; b < PS_HIST_WORDS; b++) {
                ps_test_set_hist_bin(k, b, spread(seed, 31u * k + b));
                ps_test_set_tap_hist_bin(1u, k, b, spread(seed, 37u * k + b));
            }
        }
    }
    if (env & ENV_SLOW_UART) {
        ps_test_tx_set_accept(7u);
    }
    if (env & ENV_STALLED_UART) {
        ps_test_tx_set_accept(0u);
    }
    if (env & ENV_LOSSY_RX) {
        ps_test_rx_drop_every(13u);
    }
}

static void queue_records(uint8_t env, uint64_t *next_index)
{
    unsigned n = records_per_step[(env >> ENV_RECORDS_SHIFT) & 3u];
    for (unsigned r = 0; r < n; r++) {
        uint32_t words[PS_SMP_WORDS];
        for (unsigned w = 0; w < PS_SMP_WORDS; w++) {
            words[w] = (uint32_t)spread(*next_index, w);
        }
        (*next_index)++;
        (void)ps_test_sample_push(words); /* a full FIFO counts the record in SAMPLE_OVERFLOW */
    }
}

static void step(session_t *s, int time_runs)
{
    queue_records(s->env, &s->records);
    if (time_runs) {
        ps_test_time_advance(5000u); /* 5 ms: a 10-ms stream period fires every other step */
    }
    for (unsigned i = 0; i < 4u; i++) {
        ps_app_step(&app);
    }
    check(s);
}

/* A stalled UART starts taking bytes again once half the input has been sent. */
static void release_stall(const session_t *s, size_t consumed, size_t stall_until)
{
    if ((s->env & ENV_STALLED_UART) && consumed >= stall_until) {
        ps_test_tx_set_accept((s->env & ENV_SLOW_UART) ? 7u : PS_TEST_UNLIMITED);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0u) {
        return 0;
    }
    const uint8_t mode = data[0];
    const int structured = (mode & 0x80u) != 0u;
    const int time_runs = (mode & 0x40u) != 0u;
    const size_t chunk = mode & 0x3Fu;
    data++;
    size--;
    const uint8_t env = size > 0u ? data[0] : 0u;
    if (size > 0u) {
        data++;
        size--;
    }
    const size_t stall_until = size / 2u;

    host_reset(&app);
    ps_test_rx_set_chunk(chunk == 0u ? PS_TEST_UNLIMITED : chunk);
    session_t s;
    memset(&s, 0, sizeof s);
    s.env = env;
    load_probe(env, size);
    const size_t total = size;

    if (!structured) {
        while (size > 0u) { /* feed in pieces so partial frames cross steps */
            size_t n = size < 97u ? size : 97u;
            (void)ps_test_rx_push(data, n);
            data += n;
            size -= n;
            release_stall(&s, total - size, stall_until);
            step(&s, time_runs);
        }
    } else {
        uint16_t seq = 0;
        /* every record is a step with snapshots on both sides of the line: a bound keeps an
         * input's cost flat while the mutator grows it */
        unsigned records = 0;
        while (size > 0u && records++ < MAX_RECORDS) {
            size_t len = data[0];
            data++;
            size--;
            if (len > size) {
                len = size;
            }
            if (len > PS_FRAME_MAX_PAYLOAD) {
                len = PS_FRAME_MAX_PAYLOAD;
            }
            host_send_frame(PS_FRAME_COMMAND, seq++, data, len);
            data += len;
            size -= len;
            release_stall(&s, total - size, stall_until);
            step(&s, time_runs);
        }
    }
    release_stall(&s, total, 0u);
    for (unsigned i = 0; i < 8u; i++) { /* drain what is still queued */
        step(&s, time_runs);
    }
    return 0;
}
