/* ps_rx.c - delimiter splitter with overflow discard. */
#include "ps_rx.h"

#include "ps_assert.h"

void ps_rx_init(ps_rx_t *rx)
{
    rx->len = 0;
    rx->discarding = false;
    rx->chunk_ready = false;
}

ps_rx_event_t ps_rx_push(ps_rx_t *rx, uint8_t byte)
{
    PS_ASSERT(rx->len <= PS_RX_CHUNK_MAX); /* the store below never runs past buf */
    if (rx->chunk_ready) {                 /* the caller has had its chunk; start the next one */
        rx->chunk_ready = false;
        rx->len = 0;
    }
    if (byte == (uint8_t)PS_FRAME_DELIMITER) {
        if (rx->discarding) { /* end of an oversized frame: resynchronised */
            rx->discarding = false;
            rx->len = 0;
            return PS_RX_NONE;
        }
        if (rx->len == 0u) { /* back-to-back delimiters carry nothing; a host may flush with them */
            return PS_RX_NONE;
        }
        rx->chunk_ready = true;
        return PS_RX_CHUNK;
    }
    if (rx->discarding) {
        return PS_RX_NONE;
    }
    if (rx->len >= PS_RX_CHUNK_MAX) {
        rx->discarding = true;
        rx->len = 0;
        return PS_RX_OVERFLOW;
    }
    rx->buf[rx->len++] = byte;
    return PS_RX_NONE;
}
