/*
 * ps_rx.h - splits the received byte stream at 0x00 delimiters into COBS chunks.
 *
 * A chunk longer than any legal frame is an overflow: it is counted once and the bytes are
 * discarded up to the next delimiter, where the stream resynchronises.
 */
#ifndef PS_RX_H
#define PS_RX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "generated/pcie_scope_protocol.h"
#include "ps_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest legal chunk: the encoded frame without its delimiter. */
#define PS_RX_CHUNK_MAX (PS_FRAME_MAX_ENCODED - 1u)

typedef enum ps_rx_event {
    PS_RX_NONE = 0, /* byte stored (or discarded), nothing complete yet */
    PS_RX_CHUNK,    /* a delimiter closed a non-empty chunk: rx->buf[0 .. rx->len) */
    PS_RX_OVERFLOW  /* the current chunk outgrew the buffer; discarding until 0x00 */
} ps_rx_event_t;

typedef struct ps_rx {
    uint8_t buf[PS_RX_BUF_BYTES];
    size_t len;
    bool discarding;
    bool chunk_ready; /* buf holds a finished chunk; cleared by the next push */
} ps_rx_t;

void ps_rx_init(ps_rx_t *rx);

/* Feed one byte. After PS_RX_CHUNK the chunk stays valid until the next push. */
ps_rx_event_t ps_rx_push(ps_rx_t *rx, uint8_t byte);

#ifdef __cplusplus
}
#endif

#endif /* PS_RX_H */
