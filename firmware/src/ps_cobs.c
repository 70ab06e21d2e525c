/*
 * ps_cobs.c - COBS encode/decode.
 *
 * The encoder writes the canonical form: input that ends on a full 254-byte run gets no
 * extra 0x01 code byte. The decoder also accepts that extra byte (older encoders emit it).
 */
#include "ps_cobs.h"

static ps_cobs_result_t result(size_t len, ps_cobs_status_t status)
{
    ps_cobs_result_t r;
    r.len = len;
    r.status = status;
    return r;
}

ps_cobs_result_t ps_cobs_encode(uint8_t *dst, size_t dst_cap, const uint8_t *src, size_t src_len)
{
    if (dst == NULL || (src == NULL && src_len != 0u)) {
        return result(0, PS_COBS_ERR_NULL);
    }
    if (dst_cap == 0u) {
        return result(0, PS_COBS_ERR_OUTPUT_FULL);
    }
    size_t code_at = 0; /* where the current run's code byte goes */
    size_t out = 1;
    uint8_t code = 1; /* run length + 1 */
    for (size_t i = 0; i < src_len; i++) {
        if (src[i] != 0u) {
            if (out >= dst_cap) {
                return result(out, PS_COBS_ERR_OUTPUT_FULL);
            }
            dst[out++] = src[i];
            code++;
            if (code != 0xFFu) {
                continue;
            }
            /* 254 data bytes: the run is full. At the very end no new run is opened. */
            if (i + 1u == src_len) {
                dst[code_at] = code;
                return result(out, PS_COBS_OK);
            }
        }
        dst[code_at] = code; /* a zero, or a full run: close it and open the next */
        if (out >= dst_cap) {
            return result(out, PS_COBS_ERR_OUTPUT_FULL);
        }
        code_at = out++;
        code = 1;
    }
    dst[code_at] = code;
    return result(out, PS_COBS_OK);
}

ps_cobs_result_t ps_cobs_decode(uint8_t *dst, size_t dst_cap, const uint8_t *src, size_t src_len)
{
    if ((dst == NULL && dst_cap != 0u) || (src == NULL && src_len != 0u)) {
        return result(0, PS_COBS_ERR_NULL);
    }
    size_t in = 0;
    size_t out = 0;
    while (in < src_len) {
        uint8_t code = src[in++];
        if (code == 0u) {
            return result(out, PS_COBS_ERR_ZERO_IN_INPUT);
        }
        for (uint8_t k = 1; k < code; k++) {
            if (in >= src_len) {
                return result(out, PS_COBS_ERR_TRUNCATED);
            }
            uint8_t b = src[in++];
            if (b == 0u) {
                return result(out, PS_COBS_ERR_ZERO_IN_INPUT);
            }
            if (out >= dst_cap) {
                return result(out, PS_COBS_ERR_OUTPUT_FULL);
            }
            dst[out++] = b;
        }
        /* A short run stood for a zero, except the last one (the implicit trailing zero). */
        if (code != 0xFFu && in < src_len) {
            if (out >= dst_cap) {
                return result(out, PS_COBS_ERR_OUTPUT_FULL);
            }
            dst[out++] = 0u;
        }
    }
    return result(out, PS_COBS_OK);
}
