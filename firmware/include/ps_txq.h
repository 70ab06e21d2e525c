/*
 * ps_txq.h - transmit ring of whole encoded frames, drained through ps_hal_uart_write. Its size
 * is PS_TXQ_BYTES (ps_config.h).
 *
 * A frame is pushed whole or not at all, so the host never sees a torn frame from us.
 */
#ifndef PS_TXQ_H
#define PS_TXQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ps_config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ps_txq {
    uint8_t buf[PS_TXQ_BYTES];
    size_t head;  /* next byte to send */
    size_t count; /* bytes queued */
} ps_txq_t;

void ps_txq_init(ps_txq_t *q);
size_t ps_txq_used(const ps_txq_t *q);
size_t ps_txq_free(const ps_txq_t *q);

/* Queue len bytes; false (nothing queued) when they do not all fit. */
bool ps_txq_push(ps_txq_t *q, const uint8_t *data, size_t len);

/* Hand as much as the UART accepts right now to ps_hal_uart_write; returns bytes moved. */
size_t ps_txq_drain(ps_txq_t *q);

#ifdef __cplusplus
}
#endif

#endif /* PS_TXQ_H */
