/*
 * ps_trace.h - the drain of a stopped TLP trace (docs/trace.md) into TRACE frames: which tap,
 * how many records, the next one to send. ps_cmd starts it (TRACE_READ) and ends it
 * (TRACE_ARM); ps_app builds one frame at a time when the TX ring has room beside snapshots.
 * Static storage only: the records go from the registers straight into the frame's payload.
 */
#ifndef PS_TRACE_H
#define PS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "generated/pcie_scope_protocol.h"
#include "generated/pcie_scope_regs.h"
#include "ps_probe.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ps_trace {
    bool draining;          /* TRACE frames still to come */
    uint8_t tap;            /* the tap whose trace is drained */
    uint32_t next;          /* index of the next record to send */
    uint32_t total;         /* TRC_COUNT when the drain began */
    uint32_t trigger_index; /* TRC_TRIG_POS when the drain began (total when not triggered) */
    uint32_t lost;          /* TRC_LOST when the drain began */
} ps_trace_t;

void ps_trace_init(ps_trace_t *tr);

/* Start draining records 0..st->count-1 of tap `tap` (a stopped trace, as read into st). An empty
 * trace sends one TRACE frame of no records, so a host always learns the drain's end. */
void ps_trace_begin(ps_trace_t *tr, unsigned tap, const ps_probe_trace_status_t *st);

/* End a drain (a new ARM of its tap empties the ring under it). */
void ps_trace_end(ps_trace_t *tr);

/* Read the next records (at most PS_TRACE_MAX_RECORDS, and as many as cap holds) from the
 * probe into one TRACE payload; returns its length, 0 when nothing is being drained. The drain
 * ends with the frame that carries the last record. */
size_t ps_trace_encode(ps_trace_t *tr, uint8_t *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* PS_TRACE_H */
