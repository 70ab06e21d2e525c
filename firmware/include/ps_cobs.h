/*
 * ps_cobs.h - Consistent Overhead Byte Stuffing with caller buffers and errors as values.
 *
 * The encoded form contains no 0x00, so 0x00 can delimit frames on the UART. The delimiter
 * itself is neither written by ps_cobs_encode nor expected by ps_cobs_decode.
 */
#ifndef PS_COBS_H
#define PS_COBS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Worst case encoded size of n input bytes: one code byte per started 254-byte run. */
#define PS_COBS_ENCODE_MAX(n) ((size_t)(n) + (size_t)(n) / 254u + 1u)
/* Decoding never grows the data. */
#define PS_COBS_DECODE_MAX(n) ((size_t)(n))

typedef enum ps_cobs_status {
    PS_COBS_OK = 0,
    PS_COBS_ERR_NULL,          /* a NULL buffer with a non-zero length */
    PS_COBS_ERR_OUTPUT_FULL,   /* dst too small */
    PS_COBS_ERR_ZERO_IN_INPUT, /* decode: a 0x00 inside encoded data */
    PS_COBS_ERR_TRUNCATED      /* decode: a code byte points past the end */
} ps_cobs_status_t;

/* len: bytes written to dst (on error: written so far, contents not meaningful). */
typedef struct ps_cobs_result {
    size_t len;
    ps_cobs_status_t status;
} ps_cobs_result_t;

ps_cobs_result_t ps_cobs_encode(uint8_t *dst, size_t dst_cap, const uint8_t *src, size_t src_len);
ps_cobs_result_t ps_cobs_decode(uint8_t *dst, size_t dst_cap, const uint8_t *src, size_t src_len);

#ifdef __cplusplus
}
#endif

#endif /* PS_COBS_H */
