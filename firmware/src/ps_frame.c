/* ps_frame.c - frame build (header, payload, CRC, COBS, delimiter) and parse (length, CRC). */
#include "ps_frame.h"

#include <string.h>

#include "ps_crc16.h"
#include "ps_le.h"

_Static_assert(PS_FRAME_MAX_RAW == PS_FRAME_OVERHEAD_BYTES + PS_FRAME_MAX_PAYLOAD,
               "generated raw frame size disagrees with header + payload + crc");
_Static_assert(PS_FRAME_ENCODED_MAX(PS_FRAME_MAX_PAYLOAD) <= PS_FRAME_MAX_ENCODED,
               "a maximal frame must fit PS_FRAME_MAX_ENCODED");

static ps_frame_result_t result(size_t len, ps_frame_status_t status)
{
    ps_frame_result_t r;
    r.len = len;
    r.status = status;
    return r;
}

ps_frame_result_t ps_frame_build(uint8_t *dst, size_t dst_cap, uint8_t type, uint16_t seq,
                                 const uint8_t *payload, size_t payload_len)
{
    if (dst == NULL || (payload == NULL && payload_len != 0u)) {
        return result(0, PS_FRAME_ERR_NULL);
    }
    if (payload_len > PS_FRAME_MAX_PAYLOAD) {
        return result(0, PS_FRAME_ERR_PAYLOAD_TOO_LONG);
    }
    uint8_t raw[PS_FRAME_MAX_RAW];
    ps_put_u8(&raw[0], type);
    ps_put_u16le(&raw[1], seq);
    if (payload_len != 0u) {
        memcpy(&raw[PS_FRAME_HEADER_BYTES], payload, payload_len);
    }
    size_t body = PS_FRAME_HEADER_BYTES + payload_len;
    ps_put_u16le(&raw[body], ps_crc16(raw, body));

    ps_cobs_result_t enc = ps_cobs_encode(dst, dst_cap, raw, body + PS_FRAME_CRC_BYTES);
    if (enc.status != PS_COBS_OK || enc.len >= dst_cap) { /* no room for the delimiter */
        return result(0, PS_FRAME_ERR_OUTPUT_FULL);
    }
    dst[enc.len] = (uint8_t)PS_FRAME_DELIMITER;
    return result(enc.len + 1u, PS_FRAME_OK);
}

ps_frame_status_t ps_frame_parse(const uint8_t *raw, size_t raw_len, ps_frame_view_t *view)
{
    if (raw == NULL || view == NULL) {
        return PS_FRAME_ERR_NULL;
    }
    if (raw_len < PS_FRAME_OVERHEAD_BYTES) {
        return PS_FRAME_ERR_TOO_SHORT;
    }
    if (raw_len > PS_FRAME_MAX_RAW) {
        return PS_FRAME_ERR_TOO_LONG;
    }
    size_t body = raw_len - PS_FRAME_CRC_BYTES;
    if (ps_crc16(raw, body) != ps_get_u16le(&raw[body])) {
        return PS_FRAME_ERR_CRC;
    }
    view->type = ps_get_u8(&raw[0]);
    view->seq = ps_get_u16le(&raw[1]);
    view->payload = &raw[PS_FRAME_HEADER_BYTES];
    view->payload_len = body - PS_FRAME_HEADER_BYTES;
    return PS_FRAME_OK;
}
