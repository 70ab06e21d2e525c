/* test_codec.c - COBS, CRC-16, little-endian helpers, frame build/parse. */
#include <string.h>

#include "ps_cobs.h"
#include "ps_crc16.h"
#include "ps_frame.h"
#include "ps_le.h"
#include "suites.h"
#include "th.h"

static void check_encode(const uint8_t *in, size_t n, const uint8_t *want, size_t want_len)
{
    uint8_t enc[600];
    uint8_t dec[600];
    ps_cobs_result_t e = ps_cobs_encode(enc, sizeof enc, in, n);
    TH_EQ(e.status, PS_COBS_OK);
    TH_EQ(e.len, want_len);
    TH_CHECK(e.len <= PS_COBS_ENCODE_MAX(n));
    TH_CHECK(memcmp(enc, want, want_len) == 0);
    ps_cobs_result_t d = ps_cobs_decode(dec, sizeof dec, enc, e.len);
    TH_EQ(d.status, PS_COBS_OK);
    TH_EQ(d.len, n);
    TH_CHECK(n == 0u || memcmp(dec, in, n) == 0);
}

/* The examples of the COBS article (Cheshire & Baker; Wikipedia), delimiter left out. */
static void cobs_known_vectors(void)
{
    check_encode((const uint8_t *)"", 0, (const uint8_t[]){0x01}, 1);
    check_encode((const uint8_t[]){0x00}, 1, (const uint8_t[]){0x01, 0x01}, 2);
    check_encode((const uint8_t[]){0x00, 0x00}, 2, (const uint8_t[]){0x01, 0x01, 0x01}, 3);
    check_encode((const uint8_t[]){0x00, 0x11, 0x00}, 3, (const uint8_t[]){0x01, 0x02, 0x11, 0x01},
                 4);
    check_encode((const uint8_t[]){0x11, 0x22, 0x00, 0x33}, 4,
                 (const uint8_t[]){0x03, 0x11, 0x22, 0x02, 0x33}, 5);
    check_encode((const uint8_t[]){0x11, 0x22, 0x33, 0x44}, 4,
                 (const uint8_t[]){0x05, 0x11, 0x22, 0x33, 0x44}, 5);
    check_encode((const uint8_t[]){0x11, 0x00, 0x00, 0x00}, 4,
                 (const uint8_t[]){0x02, 0x11, 0x01, 0x01, 0x01}, 5);
}

/* Runs around the 254-byte block limit: 01..FE, 00 01..FE, 01..FF, 02..FF 00, 03..FF 00 01. */
static void cobs_long_runs(void)
{
    uint8_t in[300];
    uint8_t want[300];
    /* 254 non-zero bytes: one full block, no trailing code byte */
    for (unsigned i = 0; i < 254u; i++) {
        in[i] = (uint8_t)(i + 1u);
        want[i + 1u] = (uint8_t)(i + 1u);
    }
    want[0] = 0xFF;
    check_encode(in, 254, want, 255);
    /* 00 then 254 non-zero */
    in[0] = 0;
    for (unsigned i = 0; i < 254u; i++) {
        in[i + 1u] = (uint8_t)(i + 1u);
    }
    want[0] = 0x01;
    want[1] = 0xFF;
    for (unsigned i = 0; i < 254u; i++) {
        want[i + 2u] = (uint8_t)(i + 1u);
    }
    check_encode(in, 255, want, 256);
    /* 255 non-zero: a full block, then a run of one */
    for (unsigned i = 0; i < 255u; i++) {
        in[i] = (uint8_t)(i + 1u);
    }
    want[0] = 0xFF;
    for (unsigned i = 0; i < 254u; i++) {
        want[i + 1u] = (uint8_t)(i + 1u);
    }
    want[255] = 0x02;
    want[256] = 0xFF;
    check_encode(in, 255, want, 257);
    /* 02..FF 00 */
    for (unsigned i = 0; i < 254u; i++) {
        in[i] = (uint8_t)(i + 2u);
        want[i + 1u] = (uint8_t)(i + 2u);
    }
    in[254] = 0;
    want[0] = 0xFF;
    want[255] = 0x01;
    want[256] = 0x01;
    check_encode(in, 255, want, 257);
    /* 03..FF 00 01 */
    for (unsigned i = 0; i < 253u; i++) {
        in[i] = (uint8_t)(i + 3u);
        want[i + 1u] = (uint8_t)(i + 3u);
    }
    in[253] = 0;
    in[254] = 1;
    want[0] = 0xFE;
    want[254] = 0x02;
    want[255] = 0x01;
    check_encode(in, 255, want, 256);
}

static void cobs_round_trips(void)
{
    uint8_t in[700], enc[720], dec[720];
    uint32_t x = 12345u;
    for (size_t n = 0; n < 700u; n += 7u) {
        for (size_t i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            in[i] = (x >> 24) % 4u == 0u ? 0u : (uint8_t)(x >> 16); /* ~25% zeros, long runs too */
        }
        if (n > 300u) { /* a run over two blocks */
            memset(in, 0x5A, 600u < n ? 600u : n);
        }
        ps_cobs_result_t e = ps_cobs_encode(enc, sizeof enc, in, n);
        TH_EQ(e.status, PS_COBS_OK);
        TH_CHECK(e.len <= PS_COBS_ENCODE_MAX(n));
        TH_CHECK(memchr(enc, 0, e.len) == NULL);
        ps_cobs_result_t d = ps_cobs_decode(dec, sizeof dec, enc, e.len);
        TH_EQ(d.status, PS_COBS_OK);
        TH_EQ(d.len, n);
        TH_CHECK(n == 0u || memcmp(in, dec, n) == 0);
    }
}

static void cobs_malformed(void)
{
    uint8_t out[16];
    ps_cobs_result_t r;
    r = ps_cobs_decode(out, sizeof out, (const uint8_t[]){0x03, 0x11, 0x00, 0x22}, 4);
    TH_EQ(r.status, PS_COBS_ERR_ZERO_IN_INPUT);
    r = ps_cobs_decode(out, sizeof out, (const uint8_t[]){0x00}, 1);
    TH_EQ(r.status, PS_COBS_ERR_ZERO_IN_INPUT);
    r = ps_cobs_decode(out, sizeof out, (const uint8_t[]){0x05, 0x11, 0x22}, 3);
    TH_EQ(r.status, PS_COBS_ERR_TRUNCATED);
    r = ps_cobs_decode(out, 2, (const uint8_t[]){0x05, 0x11, 0x22, 0x33, 0x44}, 5);
    TH_EQ(r.status, PS_COBS_ERR_OUTPUT_FULL);
    /* room for the data, not for the zero */
    r = ps_cobs_decode(out, 2, (const uint8_t[]){0x03, 0x11, 0x22, 0x01}, 4);
    TH_EQ(r.status, PS_COBS_ERR_OUTPUT_FULL);
    r = ps_cobs_encode(out, 3, (const uint8_t[]){1, 2, 3, 4}, 4);
    TH_EQ(r.status, PS_COBS_ERR_OUTPUT_FULL);
    r = ps_cobs_encode(out, 0, (const uint8_t[]){1}, 1);
    TH_EQ(r.status, PS_COBS_ERR_OUTPUT_FULL);
    r = ps_cobs_encode(NULL, 4, (const uint8_t[]){1}, 1);
    TH_EQ(r.status, PS_COBS_ERR_NULL);
    r = ps_cobs_decode(out, sizeof out, NULL, 3);
    TH_EQ(r.status, PS_COBS_ERR_NULL);
    /* the non-canonical trailing 0x01 after a full block still decodes to the same bytes */
    uint8_t enc[257], dec[300];
    enc[0] = 0xFF;
    for (unsigned i = 0; i < 254u; i++) {
        enc[i + 1u] = (uint8_t)(i + 1u);
    }
    enc[255] = 0x01;
    r = ps_cobs_decode(dec, sizeof dec, enc, 256);
    TH_EQ(r.status, PS_COBS_OK);
    TH_EQ(r.len, 254);
    TH_EQ(dec[253], 0xFE);
}

static void crc_check_value(void)
{
    TH_EQ(ps_crc16((const uint8_t *)"123456789", 9), PS_CRC16_CHECK);
    TH_EQ(ps_crc16((const uint8_t *)"123456789", 9), 0x29B1);
    TH_EQ(ps_crc16(NULL, 0), 0xFFFF);
    uint16_t c = ps_crc16_update(PS_CRC16_INIT, (const uint8_t *)"1234", 4);
    c = ps_crc16_update(c, (const uint8_t *)"56789", 5);
    TH_EQ(c, 0x29B1);
}

static void le_helpers(void)
{
    uint8_t b[8];
    ps_put_u16le(b, 0x1234u);
    TH_EQ(b[0], 0x34);
    TH_EQ(b[1], 0x12);
    TH_EQ(ps_get_u16le(b), 0x1234u);
    ps_put_u32le(b, 0xA1B2C3D4u);
    TH_EQ(b[0], 0xD4);
    TH_EQ(b[3], 0xA1);
    TH_EQ(ps_get_u32le(b), 0xA1B2C3D4u);
    ps_put_u64le(b, 0x0102030405060708ull);
    TH_EQ(b[0], 0x08);
    TH_EQ(b[7], 0x01);
    TH_EQ(ps_get_u64le(b), 0x0102030405060708ull);
    ps_put_u64le(b, UINT64_MAX);
    TH_EQ(ps_get_u64le(b), UINT64_MAX);
}

static void frame_build_layout(void)
{
    const uint8_t payload[] = {PS_CMD_PING, 0x78, 0x56, 0x34, 0x12};
    uint8_t wire[PS_FRAME_MAX_ENCODED];
    ps_frame_result_t r =
        ps_frame_build(wire, sizeof wire, PS_FRAME_COMMAND, 0x0102u, payload, sizeof payload);
    TH_EQ(r.status, PS_FRAME_OK);
    TH_EQ(wire[r.len - 1u], PS_FRAME_DELIMITER);
    TH_CHECK(memchr(wire, 0, r.len - 1u) == NULL);
    uint8_t raw[PS_FRAME_MAX_RAW];
    ps_cobs_result_t d = ps_cobs_decode(raw, sizeof raw, wire, r.len - 1u);
    TH_EQ(d.status, PS_COBS_OK);
    TH_EQ(d.len, PS_FRAME_OVERHEAD_BYTES + sizeof payload);
    TH_EQ(raw[0], PS_FRAME_COMMAND);
    TH_EQ(raw[1], 0x02); /* seq little-endian */
    TH_EQ(raw[2], 0x01);
    TH_CHECK(memcmp(&raw[3], payload, sizeof payload) == 0);
    uint16_t crc = ps_crc16(raw, 3u + sizeof payload);
    TH_EQ(raw[8], crc & 0xFFu); /* crc little-endian, after the payload */
    TH_EQ(raw[9], crc >> 8);

    ps_frame_view_t v;
    TH_EQ(ps_frame_parse(raw, d.len, &v), PS_FRAME_OK);
    TH_EQ(v.type, PS_FRAME_COMMAND);
    TH_EQ(v.seq, 0x0102u);
    TH_EQ(v.payload_len, sizeof payload);
    TH_CHECK(memcmp(v.payload, payload, sizeof payload) == 0);
}

static void frame_limits(void)
{
    uint8_t payload[PS_FRAME_MAX_PAYLOAD + 1u];
    memset(payload, 0xA5, sizeof payload);
    uint8_t wire[PS_FRAME_MAX_ENCODED + 8u];
    ps_frame_result_t r =
        ps_frame_build(wire, sizeof wire, PS_FRAME_SNAPSHOT, 7, payload, PS_FRAME_MAX_PAYLOAD);
    TH_EQ(r.status, PS_FRAME_OK);
    TH_CHECK(r.len <= PS_FRAME_MAX_ENCODED);
    r = ps_frame_build(wire, sizeof wire, PS_FRAME_SNAPSHOT, 7, payload, PS_FRAME_MAX_PAYLOAD + 1u);
    TH_EQ(r.status, PS_FRAME_ERR_PAYLOAD_TOO_LONG);
    r = ps_frame_build(wire, 10, PS_FRAME_SNAPSHOT, 7, payload, 20);
    TH_EQ(r.status, PS_FRAME_ERR_OUTPUT_FULL);
    /* exactly the encoded size except the delimiter: still refused */
    r = ps_frame_build(wire, sizeof wire, PS_FRAME_RESPONSE, 1, payload, 4);
    size_t need = r.len;
    TH_EQ(ps_frame_build(wire, need - 1u, PS_FRAME_RESPONSE, 1, payload, 4).status,
          PS_FRAME_ERR_OUTPUT_FULL);
    TH_EQ(ps_frame_build(wire, need, PS_FRAME_RESPONSE, 1, payload, 4).status, PS_FRAME_OK);
    TH_EQ(ps_frame_build(wire, sizeof wire, PS_FRAME_RESPONSE, 1, NULL, 4).status,
          PS_FRAME_ERR_NULL);
    /* empty payload is a legal frame */
    r = ps_frame_build(wire, sizeof wire, PS_FRAME_RESPONSE, 1, NULL, 0);
    TH_EQ(r.status, PS_FRAME_OK);
}

static void frame_parse_errors(void)
{
    uint8_t raw[PS_FRAME_MAX_RAW + 1u];
    ps_frame_view_t v;
    memset(raw, 0x11, sizeof raw);
    TH_EQ(ps_frame_parse(raw, 4, &v), PS_FRAME_ERR_TOO_SHORT);
    TH_EQ(ps_frame_parse(raw, 0, &v), PS_FRAME_ERR_TOO_SHORT);
    TH_EQ(ps_frame_parse(raw, PS_FRAME_MAX_RAW + 1u, &v), PS_FRAME_ERR_TOO_LONG);
    TH_EQ(ps_frame_parse(raw, 8, &v), PS_FRAME_ERR_CRC);
    TH_EQ(ps_frame_parse(NULL, 8, &v), PS_FRAME_ERR_NULL);
    /* a minimal valid frame: header + crc, no payload */
    raw[0] = PS_FRAME_COMMAND;
    raw[1] = 0xFF;
    raw[2] = 0xFF;
    ps_put_u16le(&raw[3], ps_crc16(raw, 3));
    TH_EQ(ps_frame_parse(raw, 5, &v), PS_FRAME_OK);
    TH_EQ(v.seq, 0xFFFFu);
    TH_EQ(v.payload_len, 0);
    /* every single-bit error is caught */
    unsigned missed = 0;
    for (unsigned bit = 0; bit < 5u * 8u; bit++) {
        raw[bit / 8u] ^= (uint8_t)(1u << (bit % 8u));
        if (ps_frame_parse(raw, 5, &v) != PS_FRAME_ERR_CRC) {
            missed++;
        }
        raw[bit / 8u] ^= (uint8_t)(1u << (bit % 8u));
    }
    TH_EQ(missed, 0);
}

void suite_codec(void)
{
    TH_RUN(cobs_known_vectors);
    TH_RUN(cobs_long_runs);
    TH_RUN(cobs_round_trips);
    TH_RUN(cobs_malformed);
    TH_RUN(crc_check_value);
    TH_RUN(le_helpers);
    TH_RUN(frame_build_layout);
    TH_RUN(frame_limits);
    TH_RUN(frame_parse_errors);
}
