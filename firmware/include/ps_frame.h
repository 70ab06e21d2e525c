/*
 * ps_frame.h - one frame of the UART protocol (spec/protocol.json "framing"):
 *
 *     COBS( type u8 | seq u16 | payload | crc u16 ) 0x00      integers little-endian,
 *                                                            crc covers type, seq, payload
 */
#ifndef PS_FRAME_H
#define PS_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "generated/pcie_scope_protocol.h"
#include "ps_cobs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PS_FRAME_OVERHEAD_BYTES (PS_FRAME_HEADER_BYTES + PS_FRAME_CRC_BYTES)
/* Bytes on the wire for a payload of n bytes, delimiter included. */
#define PS_FRAME_ENCODED_MAX(n) (PS_COBS_ENCODE_MAX(PS_FRAME_OVERHEAD_BYTES + (size_t)(n)) + 1u)

typedef enum ps_frame_status {
    PS_FRAME_OK = 0,
    PS_FRAME_ERR_NULL,             /* a NULL buffer with a non-zero length */
    PS_FRAME_ERR_PAYLOAD_TOO_LONG, /* build: payload > PS_FRAME_MAX_PAYLOAD */
    PS_FRAME_ERR_OUTPUT_FULL,      /* build: dst too small */
    PS_FRAME_ERR_TOO_SHORT,        /* parse: fewer bytes than header + crc */
    PS_FRAME_ERR_TOO_LONG,         /* parse: more than PS_FRAME_MAX_RAW bytes */
    PS_FRAME_ERR_CRC               /* parse: checksum mismatch */
} ps_frame_status_t;

typedef struct ps_frame_result {
    size_t len; /* build: bytes written to dst, delimiter included */
    ps_frame_status_t status;
} ps_frame_result_t;

/* A parsed frame; payload points into the caller's raw buffer. */
typedef struct ps_frame_view {
    uint8_t type;
    uint16_t seq;
    const uint8_t *payload;
    size_t payload_len;
} ps_frame_view_t;

/* Header, payload, CRC, COBS and the 0x00 delimiter into dst (PS_FRAME_ENCODED_MAX bytes). */
ps_frame_result_t ps_frame_build(uint8_t *dst, size_t dst_cap, uint8_t type, uint16_t seq,
                                 const uint8_t *payload, size_t payload_len);

/* Check length and CRC of an already COBS-decoded frame and split it into its fields. */
ps_frame_status_t ps_frame_parse(const uint8_t *raw, size_t raw_len, ps_frame_view_t *view);

#ifdef __cplusplus
}
#endif

#endif /* PS_FRAME_H */
