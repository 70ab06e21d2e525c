/* ps_trace.c - a stopped trace's records, from the TRC_* registers into TRACE payloads. */
#include "ps_trace.h"

#include <string.h>

#include "ps_assert.h"
#include "ps_le.h"

_Static_assert(PS_TRACE_RECORD_BYTES == 4u * PS_TRC_REC_WORDS, "a record is the TRC_REC_* words");
_Static_assert(PS_TRACE_BYTES + PS_TRACE_MAX_RECORDS * PS_TRACE_RECORD_BYTES
                   <= PS_FRAME_MAX_PAYLOAD,
               "a full TRACE payload fits a frame");

void ps_trace_init(ps_trace_t *tr) { memset(tr, 0, sizeof *tr); }

void ps_trace_begin(ps_trace_t *tr, unsigned tap, const ps_probe_trace_status_t *st)
{
    PS_ASSERT(tr != NULL && st != NULL);
    tr->draining = true;
    tr->tap = (uint8_t)tap;
    tr->next = 0;
    tr->total = st->count;
    tr->trigger_index = (st->status & PS_REG_TRC_STATUS_TRIGGERED) ? st->trigger_index : st->count;
    tr->lost = st->lost;
}

void ps_trace_end(ps_trace_t *tr) { tr->draining = false; }

size_t ps_trace_encode(ps_trace_t *tr, uint8_t *out, size_t cap)
{
    if (!tr->draining || cap < PS_TRACE_BYTES) {
        return 0;
    }
    uint32_t left = tr->total - tr->next;
    size_t n = (cap - PS_TRACE_BYTES) / PS_TRACE_RECORD_BYTES;
    if (n > PS_TRACE_MAX_RECORDS) {
        n = PS_TRACE_MAX_RECORDS;
    }
    if (n > left) {
        n = left;
    }
    if (n == 0u && left != 0u) {
        return 0; /* cap holds no record: try again with a real buffer */
    }
    ps_put_u8(&out[PS_TRACE_TAP_OFFSET], tr->tap);
    ps_put_u8(&out[PS_TRACE_COUNT_OFFSET], (uint8_t)n);
    ps_put_u32le(&out[PS_TRACE_FIRST_INDEX_OFFSET], tr->next);
    ps_put_u32le(&out[PS_TRACE_TOTAL_OFFSET], tr->total);
    ps_put_u32le(&out[PS_TRACE_TRIGGER_INDEX_OFFSET], tr->trigger_index);
    ps_put_u32le(&out[PS_TRACE_LOST_OFFSET], tr->lost);
    uint8_t *p = &out[PS_TRACE_BYTES];
    for (size_t r = 0; r < n; r++) {
        uint32_t words[PS_TRC_REC_WORDS];
        ps_probe_trace_record(tr->tap, tr->next + (uint32_t)r, words);
        for (unsigned w = 0; w < PS_TRC_REC_WORDS; w++) {
            ps_put_u32le(p, words[w]);
            p += 4;
        }
    }
    tr->next += (uint32_t)n;
    if (tr->next >= tr->total) {
        tr->draining = false;
    }
    return PS_TRACE_BYTES + n * PS_TRACE_RECORD_BYTES;
}
