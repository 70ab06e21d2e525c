/*
 * fuzz_rx.c - deterministic fuzzing of the receive path and command parser.
 *
 * Fixed seeds, fixed iteration counts: a failure reproduces exactly. Built with ASan and
 * UBSan, so an out-of-bounds access or overflow aborts the run. Each campaign is one case of
 * the closing line "N passed, N failed".
 */
#include <stdio.h>
#include <string.h>

#include "host.h"
#include "ps_cobs.h"
#include "ps_crc16.h"
#include "ps_frame.h"
#include "ps_le.h"
#include "th.h"

static uint64_t g_rng;

static uint32_t rnd(void) /* xorshift64* */
{
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return (uint32_t)((g_rng * 0x2545F4914F6CDD1Dull) >> 32);
}

static uint32_t below(uint32_t n) { return n == 0u ? 0u : rnd() % n; }

static void fill(uint8_t *p, size_t n, unsigned zero_pct)
{
    for (size_t i = 0; i < n; i++) {
        p[i] = below(100) < zero_pct ? 0u : (uint8_t)rnd();
    }
}

static void cobs_round_trip_random(void)
{
    g_rng = 0x9E3779B97F4A7C15ull;
    static uint8_t in[1200], enc[1300], dec[1300];
    for (unsigned it = 0; it < 20000u; it++) {
        size_t n = below(sizeof in);
        fill(in, n, below(2) ? 0u : below(60));
        ps_cobs_result_t e = ps_cobs_encode(enc, sizeof enc, in, n);
        TH_EQ(e.status, PS_COBS_OK);
        TH_CHECK(e.len <= PS_COBS_ENCODE_MAX(n));
        TH_CHECK(memchr(enc, 0, e.len) == NULL);
        ps_cobs_result_t d = ps_cobs_decode(dec, sizeof dec, enc, e.len);
        TH_CHECK(d.status == PS_COBS_OK && d.len == n && (n == 0u || memcmp(in, dec, n) == 0));
        /* a too-small output buffer is an error, never an overrun (ASan watches) */
        size_t cap = 1u + below((uint32_t)e.len + 1u);
        static uint8_t small[1300];
        ps_cobs_result_t s = ps_cobs_encode(small, cap, in, n);
        TH_CHECK(cap >= e.len ? s.status == PS_COBS_OK : s.status == PS_COBS_ERR_OUTPUT_FULL);
    }
}

static void cobs_decode_garbage(void)
{
    g_rng = 0xD1B54A32D192ED03ull;
    static uint8_t in[600];
    for (unsigned it = 0; it < 50000u; it++) {
        size_t n = below(sizeof in);
        fill(in, n, below(3) == 0u ? 2u : 0u);
        size_t cap = below(700);
        uint8_t out_storage[700];
        ps_cobs_result_t r = ps_cobs_decode(cap ? out_storage : NULL, cap, in, n);
        TH_CHECK(r.len <= cap);
        TH_CHECK(r.status <= PS_COBS_ERR_TRUNCATED);
        if (r.status == PS_COBS_OK && n != 0u) {
            /* re-encoding gives the input or its shorter canonical form (no trailing 0x01) */
            uint8_t again[800];
            ps_cobs_result_t e = ps_cobs_encode(again, sizeof again, out_storage, r.len);
            TH_CHECK(e.status == PS_COBS_OK && e.len <= n);
            TH_CHECK(memcmp(again, in, e.len) == 0);
        }
    }
}

static void frame_parse_garbage(void)
{
    g_rng = 0x243F6A8885A308D3ull;
    uint8_t raw[PS_FRAME_MAX_RAW + 20u];
    for (unsigned it = 0; it < 50000u; it++) {
        size_t n = below(sizeof raw);
        fill(raw, n, 10);
        if (below(4) == 0u && n >= PS_FRAME_OVERHEAD_BYTES) { /* make a quarter valid */
            ps_put_u16le(&raw[n - 2u], ps_crc16(raw, n - 2u));
        }
        ps_frame_view_t v;
        ps_frame_status_t st = ps_frame_parse(raw, n, &v);
        if (st == PS_FRAME_OK) {
            TH_CHECK(n >= PS_FRAME_OVERHEAD_BYTES && n <= PS_FRAME_MAX_RAW);
            TH_EQ(v.payload_len, n - PS_FRAME_OVERHEAD_BYTES);
            TH_EQ(ps_crc16(raw, n - 2u), ps_get_u16le(&raw[n - 2u]));
        }
    }
}

/* --- the whole receive path through ps_app_step --- */

static ps_app_t app;
static host_rx_t rx;

typedef struct fuzz_model {
    uint64_t zeros_fed;  /* delimiters the firmware may have read */
    uint64_t responses;  /* RESPONSE frames the host decoded */
    uint64_t snapshots;  /* SNAPSHOT frames the host decoded */
    uint64_t histograms; /* HISTOGRAM frames the host decoded */
    uint64_t traces;     /* TRACE frames the host decoded (a random TRACE_READ drains a trace) */
    uint32_t next_index; /* the snapshot index the host expects next */
    int32_t last_seq;    /* -1 before the first frame */
    uint64_t seq_gaps;
    ps_link_stats_t prev;
} fuzz_model_t;

static void feed(fuzz_model_t *m, const uint8_t *p, size_t n)
{
    size_t q = ps_test_rx_push(p, n);
    for (size_t i = 0; i < q; i++) {
        m->zeros_fed += p[i] == 0u;
    }
}

static void random_frame(fuzz_model_t *m)
{
    uint8_t payload[PS_FRAME_MAX_PAYLOAD];
    size_t len = below(3) == 0u ? below(PS_FRAME_MAX_PAYLOAD + 1u) : 1u + below(7);
    fill(payload, len, 20);
    if (len > 0u && below(4) != 0u) {
        payload[0] = (uint8_t)(1u + below(8)); /* mostly known commands, some unknown */
    }
    if (len == 3u && payload[0] == PS_CMD_START && below(2)) { /* sometimes a valid period */
        ps_put_u16le(&payload[1], (uint16_t)(below(3) ? 10u + below(200) : rnd()));
    }
    uint8_t type = below(10) == 0u ? (uint8_t)rnd() : (uint8_t)PS_FRAME_COMMAND;
    uint8_t wire[PS_FRAME_MAX_ENCODED + 16u];
    ps_frame_result_t fr = ps_frame_build(wire, sizeof wire, type, (uint16_t)rnd(), payload, len);
    if (fr.status != PS_FRAME_OK) {
        return;
    }
    size_t n = fr.len;
    switch (below(8)) { /* mutate some */
    case 0:             /* bit flip */
        wire[below((uint32_t)n)] ^= (uint8_t)(1u << below(8));
        break;
    case 1: /* truncated */
        n = below((uint32_t)n);
        break;
    case 2: /* stray delimiter */
        wire[below((uint32_t)n)] = 0;
        break;
    case 3: { /* lost byte */
        size_t at = below((uint32_t)n);
        memmove(&wire[at], &wire[at + 1u], n - at - 1u);
        n--;
        break;
    }
    default:
        break;
    }
    feed(m, wire, n);
}

static void random_noise(fuzz_model_t *m)
{
    uint8_t junk[700];
    size_t n = below(sizeof junk);
    fill(junk, n, below(2) ? 0u : 5u);
    feed(m, junk, n);
}

static void check_output(fuzz_model_t *m)
{
    host_collect(&rx);
    TH_EQ(rx.bad, 0);
    if (app.stats.rx_frames == 0u) {
        TH_EQ(rx.count, 0); /* silent until a valid command */
    }
    for (size_t i = 0; i < rx.count; i++) {
        const host_frame_t *f = &rx.frames[i];
        if (m->last_seq >= 0) {
            m->seq_gaps += (uint16_t)(f->seq - (uint16_t)m->last_seq - 1u);
        } else {
            m->seq_gaps += f->seq;
        }
        m->last_seq = f->seq;
        if (f->type == PS_FRAME_RESPONSE) {
            m->responses++;
            TH_CHECK(f->len >= PS_RESPONSE_BYTES);
            TH_CHECK(f->payload[PS_RESPONSE_STATUS_OFFSET] <= PS_STATUS_NOT_READY);
        } else if (f->type == PS_FRAME_TRACE) {
            TH_EQ(f->len,
                  PS_TRACE_BYTES
                      + (size_t)f->payload[PS_TRACE_COUNT_OFFSET] * PS_TRACE_RECORD_BYTES);
            m->traces++;
        } else if (f->type == PS_FRAME_HISTOGRAM) {
            /* follows the snapshot it was read with, and names it */
            TH_EQ(f->len, PS_HISTOGRAM_BYTES);
            TH_CHECK(m->next_index > 0u);
            TH_EQ(ps_get_u32le(&f->payload[PS_HISTOGRAM_SNAPSHOT_INDEX_OFFSET]),
                  m->next_index - 1u);
            m->histograms++;
        } else {
            TH_EQ(f->type, PS_FRAME_SNAPSHOT);
            TH_EQ(f->len, PS_SNAPSHOT_BYTES);
            m->snapshots++;
            /* the index counts queued snapshots, and queued frames always arrive */
            TH_EQ(ps_get_u32le(&f->payload[PS_SNAPSHOT_INDEX_OFFSET]), m->next_index);
            m->next_index = ps_get_u32le(&f->payload[PS_SNAPSHOT_INDEX_OFFSET]) + 1u;
        }
    }
}

static void check_invariants(fuzz_model_t *m)
{
    const ps_link_stats_t *s = &app.stats;
    TH_CHECK(s->rx_frames >= m->prev.rx_frames && s->rx_bad_frames >= m->prev.rx_bad_frames);
    TH_CHECK(s->rx_overflows >= m->prev.rx_overflows && s->tx_dropped >= m->prev.tx_dropped);
    TH_CHECK(s->unknown_commands >= m->prev.unknown_commands);
    m->prev = *s;
    /* every frame, bad frame or overflow ends at (or began before) a delimiter */
    TH_CHECK((uint64_t)s->rx_frames + s->rx_bad_frames + s->rx_overflows <= m->zeros_fed + 1u);
    TH_CHECK(s->unknown_commands <= s->rx_frames);
    TH_CHECK(m->responses <= s->rx_frames);
    TH_CHECK(ps_txq_used(&app.tx) <= PS_TXQ_BYTES);
    TH_CHECK(app.rx.len <= PS_RX_CHUNK_MAX);
}

static void app_campaign(uint64_t seed, unsigned steps)
{
    g_rng = seed;
    fuzz_model_t m;
    memset(&m, 0, sizeof m);
    m.last_seq = -1;
    host_reset(&app);
    ps_test_time_set(rnd());
    for (unsigned it = 0; it < steps; it++) {
        unsigned what = below(100);
        if (what < 45u) {
            random_frame(&m);
        } else if (what < 50u) {
            random_noise(&m);
        } else if (what < 53u) {
            ps_test_rx_set_chunk(below(3) ? PS_TEST_UNLIMITED : 1u + below(16));
        } else if (what < 56u) { /* the host reader stalls, trickles or runs free */
            uint32_t k = below(4);
            ps_test_tx_set_accept(k == 0u ? 0u : k == 1u ? 1u + below(8) : PS_TEST_UNLIMITED);
        }
        ps_test_time_advance(below(4) == 0u ? below(200000) : below(2000));
        ps_test_tick(below(1000));
        ps_app_step(&app);
        check_output(&m);
        check_invariants(&m);
        if (ps_test_rx_pending() > PS_TEST_RX_BYTES / 2u) { /* keep the RX queue from filling */
            ps_test_rx_set_chunk(PS_TEST_UNLIMITED);
        }
    }
    /* drain everything: then every device frame was either delivered or counted as dropped */
    ps_test_tx_set_accept(PS_TEST_UNLIMITED);
    ps_test_rx_set_chunk(PS_TEST_UNLIMITED);
    for (unsigned i = 0; i < 1000u && (ps_test_rx_pending() != 0u || ps_txq_used(&app.tx) != 0u);
         i++) {
        ps_app_step(&app);
        check_output(&m);
    }
    check_invariants(&m);
    TH_EQ(ps_txq_used(&app.tx), 0);
    uint64_t delivered = m.responses + m.snapshots + m.histograms + m.traces;
    /* frames numbered = delivered + dropped; the trailing drops have no later frame to show
       them as a gap, so gaps <= dropped and numbered frames = tx_seq */
    TH_EQ((uint16_t)(delivered + app.stats.tx_dropped), app.tx_seq);
    TH_CHECK(m.seq_gaps <= app.stats.tx_dropped);
    TH_CHECK(m.responses + app.stats.tx_dropped >= app.stats.rx_frames);
    /* the campaign reached every path it is meant to stress */
    TH_CHECK(app.stats.rx_frames > 100u && app.stats.rx_bad_frames > 100u);
    TH_CHECK(app.stats.rx_overflows > 0u && app.stats.unknown_commands > 0u);
    TH_CHECK(app.stats.tx_dropped > 0u && m.snapshots > 100u);
    printf("  seed %016llx: %u steps, rx %u good / %u bad / %u overflows, %u unknown, "
           "tx %llu responses + %llu snapshots + %llu histograms delivered, %u dropped\n",
           (unsigned long long)seed, steps, app.stats.rx_frames, app.stats.rx_bad_frames,
           app.stats.rx_overflows, app.stats.unknown_commands, (unsigned long long)m.responses,
           (unsigned long long)m.snapshots, (unsigned long long)m.histograms, app.stats.tx_dropped);
}

static void app_rx_path_seed1(void) { app_campaign(0x0123456789ABCDEFull, 200000u); }
static void app_rx_path_seed2(void) { app_campaign(0xFEEDFACECAFEBEEFull, 200000u); }
static void app_rx_path_seed3(void) { app_campaign(0x5EED5EED5EED5EEDull, 200000u); }

/* Garbage on the UART is counted, never asserted: no PS_ASSERT may have fired. */
static void no_assertion_fired(void)
{
    ps_test_assert_record_t a = ps_test_asserts();
    TH_EQ(a.count, 0);
    if (a.count != 0u) {
        printf("  last failed assertion: %s:%d: %s\n", a.file, a.line, a.expr);
    }
}

int main(void)
{
    TH_RUN(cobs_round_trip_random);
    TH_RUN(cobs_decode_garbage);
    TH_RUN(frame_parse_garbage);
    TH_RUN(app_rx_path_seed1);
    TH_RUN(app_rx_path_seed2);
    TH_RUN(app_rx_path_seed3);
    TH_RUN(no_assertion_fired);
    return th_finish("");
}
