/*
 * libfuzz_codec.c - coverage-guided fuzz target (libFuzzer) for the firmware's byte codecs and
 * payload encoders, called directly with fuzzer-chosen buffer sizes: the bounds that the
 * superloop never reaches (a destination one byte short, a NULL buffer, an input that is too
 * long) are where an encoder would write past its buffer.
 *
 * Input: an operation byte, a capacity byte, then data. The properties checked:
 *   COBS     encode fits PS_COBS_ENCODE_MAX and never emits 0x00; decode(encode(x)) == x; a
 *            short destination or NULL is an error, never a write past it
 *   frame    build then COBS-decode then parse gives back type, seq and payload; one flipped
 *            byte is never accepted as a different frame of the same length with a good CRC
 *            unless the bytes are equal
 *   rx       the splitter never hands over a chunk longer than PS_RX_CHUNK_MAX
 *   payloads every encoder returns 0 for a short destination and its fixed size otherwise
 *   intervals the ring keeps at most PS_INTERVAL_RING_RECORDS, drops oldest first, and the
 *            INTERVAL payload's record count fits the capacity given
 * ASan and UBSan abort on any memory or arithmetic fault.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "hal_test.h"
#include "ps_cobs.h"
#include "ps_frame.h"
#include "ps_intervals.h"
#include "ps_le.h"
#include "ps_rx.h"
#include "ps_telemetry.h"
#include "ps_txq.h"

enum {
    OP_COBS,
    OP_FRAME,
    OP_RX,
    OP_PAYLOADS,
    OP_INTERVALS,
    OP_TXQ,
    OP_COUNT
};

/* Big enough for any encoding below; capacities are cut from it by the fuzzer's byte. */
static uint8_t scratch[2u * PS_FRAME_MAX_ENCODED + 1024u];
static uint8_t scratch2[2u * PS_FRAME_MAX_ENCODED + 1024u];

static size_t cap_of(uint8_t cap_byte, size_t exact)
{
    /* around the exact size most of the time (where off-by-one errors live), else anything */
    if (cap_byte < 0xC0u) {
        size_t delta = cap_byte % 8u;
        size_t cap = (cap_byte & 8u) ? exact + delta : (exact > delta ? exact - delta : 0u);
        return cap < sizeof scratch ? cap : sizeof scratch;
    }
    return (size_t)(cap_byte - 0xC0u) * 8u;
}

static void fuzz_cobs(uint8_t cap_byte, const uint8_t *data, size_t size)
{
    FUZZ_CHECK(ps_cobs_encode(NULL, 4u, data, size).status == PS_COBS_ERR_NULL || size == 0u);
    FUZZ_CHECK(ps_cobs_decode(scratch, sizeof scratch, NULL, 3u).status == PS_COBS_ERR_NULL);
    if (size > PS_FRAME_MAX_ENCODED) {
        size = PS_FRAME_MAX_ENCODED;
    }
    size_t exact = PS_COBS_ENCODE_MAX(size);
    size_t cap = cap_of(cap_byte, exact);
    ps_cobs_result_t enc = ps_cobs_encode(scratch, cap, data, size);
    if (cap >= exact) {
        FUZZ_CHECK(enc.status == PS_COBS_OK);
    }
    if (enc.status != PS_COBS_OK) {
        FUZZ_CHECK(enc.status == PS_COBS_ERR_OUTPUT_FULL && enc.len <= cap);
    } else {
        FUZZ_CHECK(enc.len <= exact && enc.len <= cap);
        FUZZ_CHECK(memchr(scratch, 0, enc.len) == NULL);
        size_t dcap = cap_of((uint8_t)(cap_byte ^ 0x5Au), size);
        ps_cobs_result_t dec = ps_cobs_decode(scratch2, dcap, scratch, enc.len);
        if (dcap >= size) {
            FUZZ_CHECK(dec.status == PS_COBS_OK && dec.len == size);
            FUZZ_CHECK(size == 0u || memcmp(scratch2, data, size) == 0);
        } else {
            FUZZ_CHECK(dec.status == PS_COBS_ERR_OUTPUT_FULL);
        }
    }
    /* the raw input as encoded data: any status, never past the destination */
    size_t dcap = cap_of(cap_byte, size);
    ps_cobs_result_t dec = ps_cobs_decode(scratch2, dcap, data, size);
    FUZZ_CHECK(dec.len <= dcap);
    FUZZ_CHECK(dec.status != PS_COBS_OK || memchr(data, 0, size) == NULL);
}

static void fuzz_frame(uint8_t cap_byte, const uint8_t *data, size_t size)
{
    ps_frame_view_t view;
    FUZZ_CHECK(ps_frame_build(NULL, 8u, 1u, 0u, data, size).status == PS_FRAME_ERR_NULL);
    FUZZ_CHECK(ps_frame_parse(NULL, 8u, &view) == PS_FRAME_ERR_NULL);
    if (size < 3u) {
        return;
    }
    uint8_t type = data[0];
    uint16_t seq = ps_get_u16le(&data[1]);
    data += 3u;
    size -= 3u;
    size_t exact = PS_FRAME_ENCODED_MAX(size);
    size_t cap = cap_of(cap_byte, exact);
    ps_frame_result_t built = ps_frame_build(scratch, cap, type, seq, data, size);
    if (size > PS_FRAME_MAX_PAYLOAD) {
        FUZZ_CHECK(built.status == PS_FRAME_ERR_PAYLOAD_TOO_LONG);
    } else if (cap >= exact) {
        FUZZ_CHECK(built.status == PS_FRAME_OK && built.len <= exact);
    }
    if (built.status == PS_FRAME_OK) {
        FUZZ_CHECK(built.len >= 2u && scratch[built.len - 1u] == 0u);
        ps_cobs_result_t dec = ps_cobs_decode(scratch2, sizeof scratch2, scratch, built.len - 1u);
        FUZZ_CHECK(dec.status == PS_COBS_OK);
        FUZZ_CHECK(ps_frame_parse(scratch2, dec.len, &view) == PS_FRAME_OK);
        FUZZ_CHECK(view.type == type && view.seq == seq && view.payload_len == size);
        FUZZ_CHECK(size == 0u || memcmp(view.payload, data, size) == 0);
        /* one corrupted byte: the CRC catches it */
        size_t at = (size_t)cap_byte % dec.len;
        scratch2[at] ^= (uint8_t)(1u << (cap_byte % 8u));
        FUZZ_CHECK(ps_frame_parse(scratch2, dec.len, &view) == PS_FRAME_ERR_CRC);
    }
    /* the raw input as a decoded frame: too short, too long, a CRC error or a view inside it */
    ps_frame_status_t st = ps_frame_parse(data, size, &view);
    if (st == PS_FRAME_OK) {
        FUZZ_CHECK(view.payload >= data && view.payload + view.payload_len <= data + size);
    } else {
        FUZZ_CHECK(st == PS_FRAME_ERR_TOO_SHORT || st == PS_FRAME_ERR_TOO_LONG
                   || st == PS_FRAME_ERR_CRC);
    }
}

static void fuzz_rx(const uint8_t *data, size_t size)
{
    static ps_rx_t rx;
    ps_rx_init(&rx);
    for (size_t i = 0; i < size; i++) {
        /* a run of one byte value stands for many: long frames without a trip through libFuzzer's
         * length limit */
        size_t repeat = (data[i] == 0xFFu && i + 1u < size) ? (size_t)data[++i] * 8u : 1u;
        for (size_t r = 0; r < repeat; r++) {
            ps_rx_event_t ev = ps_rx_push(&rx, data[i]);
            if (ev == PS_RX_CHUNK) {
                FUZZ_CHECK(rx.len > 0u && rx.len <= PS_RX_CHUNK_MAX);
            }
        }
    }
}

static void fuzz_payloads(uint8_t cap_byte, const uint8_t *data, size_t size)
{
    static uint64_t counters[PS_CNT_COUNT];
    static uint64_t bins[PS_HIST_WORDS];
    for (size_t i = 0; i < size && i < PS_CNT_COUNT; i++) {
        counters[i] = (uint64_t)data[i] << (8u * (i % 8u));
    }
    for (size_t i = 0; i < PS_HIST_WORDS; i++) {
        bins[i] = size > 0u ? (uint64_t)data[i % size] * 0x0101010101010101u : 0u;
    }
    ps_link_stats_t stats;
    memset(&stats, cap_byte, sizeof stats);
    size_t cap = cap_of(cap_byte, PS_SNAPSHOT_BYTES);
    size_t n = ps_telemetry_encode_snapshot(scratch, cap, cap_byte, 7u, counters, &stats);
    FUZZ_CHECK(n == (cap >= PS_SNAPSHOT_BYTES ? PS_SNAPSHOT_BYTES : 0u));
    FUZZ_CHECK(ps_telemetry_encode_snapshot(NULL, 0u, 0u, 0u, counters, &stats) == 0u);
    cap = cap_of(cap_byte, PS_HISTOGRAM_BYTES);
    n = ps_telemetry_encode_histogram(scratch, cap, 1u, 0u, 7u, PS_HIST_LAYOUT_VALUE, bins);
    FUZZ_CHECK(n == (cap >= PS_HISTOGRAM_BYTES ? PS_HISTOGRAM_BYTES : 0u));
    FUZZ_CHECK(ps_telemetry_encode_histogram(NULL, 0u, 0u, 0u, 0u, 0u, bins) == 0u);
    cap = cap_of(cap_byte, PS_TAP_SNAPSHOT_BYTES);
    n = ps_telemetry_encode_tap_snapshot(scratch, cap, 1u, 7u, counters);
    FUZZ_CHECK(n == (cap >= PS_TAP_SNAPSHOT_BYTES ? PS_TAP_SNAPSHOT_BYTES : 0u));
    FUZZ_CHECK(ps_telemetry_encode_tap_snapshot(NULL, 0u, 1u, 0u, counters) == 0u);
    cap = cap_of(cap_byte, PS_TAP_HISTOGRAM_BYTES);
    n = ps_telemetry_encode_tap_histogram(scratch, cap, 1u, 2u, 1u, 7u, PS_HIST_LAYOUT_VALUE, bins);
    FUZZ_CHECK(n == (cap >= PS_TAP_HISTOGRAM_BYTES ? PS_TAP_HISTOGRAM_BYTES : 0u));
    FUZZ_CHECK(ps_telemetry_encode_tap_histogram(NULL, 0u, 1u, 0u, 0u, 0u, 0u, bins) == 0u);
}

/* Each input byte: high bit set = put (low bits: how many records), clear = encode with a
 * capacity from the low bits. */
static void fuzz_intervals(const uint8_t *data, size_t size)
{
    static ps_intervals_t iv;
    ps_intervals_init(&iv);
    uint32_t next = 0;     /* index of the next record put */
    uint32_t expected = 0; /* index of the oldest record that should be held */
    for (size_t i = 0; i < size; i++) {
        uint8_t b = data[i];
        if (b & 0x80u) {
            for (unsigned r = 0; r < (b & 0x7Fu); r++) {
                ps_interval_record_t rec;
                for (unsigned w = 0; w < PS_SMP_WORDS; w++) {
                    rec.words[w] = next * 31u + w;
                }
                ps_intervals_put(&iv, &rec);
                next++;
            }
            if (next - expected > PS_INTERVAL_RING_RECORDS) {
                expected = next - PS_INTERVAL_RING_RECORDS;
            }
            FUZZ_CHECK(iv.count == next - expected && iv.first_index == expected);
        } else {
            size_t cap = (size_t)b * 16u;
            uint32_t held = iv.count;
            size_t len = ps_intervals_encode(&iv, scratch, cap, 5u);
            if (len == 0u) {
                FUZZ_CHECK(held == 0u || cap < PS_INTERVAL_BYTES + PS_INTERVAL_RECORD_BYTES);
                continue;
            }
            size_t n = scratch[PS_INTERVAL_COUNT_OFFSET];
            FUZZ_CHECK(n >= 1u && n <= PS_INTERVAL_MAX_RECORDS && n <= held);
            FUZZ_CHECK(len == PS_INTERVAL_BYTES + n * PS_INTERVAL_RECORD_BYTES && len <= cap);
            FUZZ_CHECK(ps_get_u32le(&scratch[PS_INTERVAL_FIRST_INDEX_OFFSET]) == expected);
            FUZZ_CHECK(ps_get_u32le(&scratch[PS_INTERVAL_BYTES]) == expected * 31u);
            expected += (uint32_t)n;
        }
    }
}

/* Each byte: high bit set = push a message of (b & 0x7F) * 4 bytes, clear = let the UART take
 * b bytes (through the test port's tx acceptance). The ring never reports more than it holds. */
static void fuzz_txq(const uint8_t *data, size_t size)
{
    static ps_txq_t q;
    ps_txq_init(&q);
    ps_test_reset();
    for (size_t i = 0; i < size; i++) {
        uint8_t b = data[i];
        if (b & 0x80u) {
            size_t len = (size_t)(b & 0x7Fu) * 4u;
            size_t before = ps_txq_used(&q);
            bool ok = ps_txq_push(&q, scratch, len);
            FUZZ_CHECK(ps_txq_used(&q) == before + (ok ? len : 0u));
        } else {
            ps_test_tx_set_accept(b);
            size_t before = ps_txq_used(&q);
            size_t sent = ps_txq_drain(&q);
            FUZZ_CHECK(sent <= before && ps_txq_used(&q) == before - sent);
            (void)ps_test_tx_take(scratch2, sizeof scratch2);
        }
        FUZZ_CHECK(ps_txq_used(&q) + ps_txq_free(&q) == PS_TXQ_BYTES);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2u) {
        return 0;
    }
    uint8_t op = data[0] % OP_COUNT;
    uint8_t cap_byte = data[1];
    data += 2u;
    size -= 2u;
    switch (op) {
    case OP_COBS:
        fuzz_cobs(cap_byte, data, size);
        break;
    case OP_FRAME:
        fuzz_frame(cap_byte, data, size);
        break;
    case OP_RX:
        fuzz_rx(data, size);
        break;
    case OP_PAYLOADS:
        fuzz_payloads(cap_byte, data, size);
        break;
    case OP_INTERVALS:
        fuzz_intervals(data, size);
        break;
    default:
        fuzz_txq(data, size);
        break;
    }
    return 0;
}
