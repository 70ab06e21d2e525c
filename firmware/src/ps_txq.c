/* ps_txq.c - byte ring with all-or-nothing push and partial-write drain. */
#include "ps_txq.h"

#include "ps_assert.h"
#include "ps_hal.h"

void ps_txq_init(ps_txq_t *q)
{
    q->head = 0;
    q->count = 0;
}

size_t ps_txq_used(const ps_txq_t *q) { return q->count; }

size_t ps_txq_free(const ps_txq_t *q) { return PS_TXQ_BYTES - q->count; }

/* The ring's own invariant: every caller of the ring relies on it. */
#define TXQ_CONSISTENT(q) ((q)->head < PS_TXQ_BYTES && (q)->count <= PS_TXQ_BYTES)

bool ps_txq_push(ps_txq_t *q, const uint8_t *data, size_t len)
{
    PS_ASSERT(TXQ_CONSISTENT(q));
    PS_ASSERT(data != NULL || len == 0u);
    if (len > ps_txq_free(q)) {
        return false;
    }
    size_t tail = (q->head + q->count) % PS_TXQ_BYTES;
    for (size_t i = 0; i < len; i++) {
        q->buf[tail] = data[i];
        tail = (tail + 1u == PS_TXQ_BYTES) ? 0u : tail + 1u;
    }
    q->count += len;
    return true;
}

size_t ps_txq_drain(ps_txq_t *q)
{
    PS_ASSERT(TXQ_CONSISTENT(q));
    size_t moved = 0;
    while (q->count != 0u) {
        /* Offer the contiguous part up to the end of the ring; the wrap is the next pass. */
        size_t run = PS_TXQ_BYTES - q->head;
        if (run > q->count) {
            run = q->count;
        }
        size_t n = ps_hal_uart_write(&q->buf[q->head], run);
        if (n > run) { /* a port that over-reports must not corrupt the ring */
            n = run;
        }
        q->head = (q->head + n) % PS_TXQ_BYTES;
        q->count -= n;
        moved += n;
        if (n < run) { /* UART full for now */
            break;
        }
    }
    return moved;
}
