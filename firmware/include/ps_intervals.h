/*
 * ps_intervals.h - interval records on their way from the probe's sampler FIFO to INTERVAL
 * frames: a ring of records that drops its oldest when full (the UART is the bottleneck, and
 * the newest records are the ones a live view wants), with the drops counted and reported in
 * the next frame. Static storage only.
 */
#ifndef PS_INTERVALS_H
#define PS_INTERVALS_H

#include <stddef.h>
#include <stdint.h>

#include "generated/pcie_scope_protocol.h"
#include "generated/pcie_scope_regs.h"
#include "ps_config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ps_interval_record {
    uint32_t words[PS_SMP_WORDS]; /* SMP_* order (spec/registers.json) */
} ps_interval_record_t;

typedef struct ps_intervals {
    ps_interval_record_t ring[PS_INTERVAL_RING_RECORDS];
    uint32_t head;        /* oldest record */
    uint32_t count;       /* records held */
    uint32_t first_index; /* index of the oldest record: records taken from the probe since reset */
    uint32_t dropped;     /* dropped (oldest first) since the last INTERVAL payload was built */
    uint32_t dropped_total; /* dropped since reset */
} ps_intervals_t;

void ps_intervals_init(ps_intervals_t *iv);

/* Keep one record; when the ring is full the oldest goes first and is counted. */
void ps_intervals_put(ps_intervals_t *iv, const ps_interval_record_t *rec);

/* Move up to max records from the probe's FIFO into the ring; returns how many. */
size_t ps_intervals_pull(ps_intervals_t *iv, size_t max);

/* Build one INTERVAL payload from the oldest records (at most PS_INTERVAL_MAX_RECORDS), remove
 * them, and reset the drop count it reports. 'overflow' is SAMPLE_OVERFLOW as read. Returns the
 * payload length (0 when the ring is empty or cap is too small for one record). */
size_t ps_intervals_encode(ps_intervals_t *iv, uint8_t *out, size_t cap, uint32_t overflow);

#ifdef __cplusplus
}
#endif

#endif /* PS_INTERVALS_H */
