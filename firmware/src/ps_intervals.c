/* ps_intervals.c - interval-record ring (drop-oldest) and INTERVAL payload encoding. */
#include "ps_intervals.h"

#include <string.h>

#include "ps_assert.h"
#include "ps_le.h"
#include "ps_probe.h"

_Static_assert(PS_INTERVAL_RECORD_BYTES == 4u * PS_SMP_WORDS, "a record is the SMP_* words");
_Static_assert(PS_INTERVAL_BYTES + PS_INTERVAL_MAX_RECORDS * PS_INTERVAL_RECORD_BYTES
                   <= PS_FRAME_MAX_PAYLOAD,
               "a full INTERVAL payload fits a frame");

void ps_intervals_init(ps_intervals_t *iv) { memset(iv, 0, sizeof *iv); }

void ps_intervals_put(ps_intervals_t *iv, const ps_interval_record_t *rec)
{
    PS_ASSERT(iv->count <= PS_INTERVAL_RING_RECORDS);
    if (iv->count == PS_INTERVAL_RING_RECORDS) { /* full: the oldest makes room */
        iv->head = (iv->head + 1u) % PS_INTERVAL_RING_RECORDS;
        iv->count--;
        iv->first_index++;
        iv->dropped++;
        iv->dropped_total++;
    }
    iv->ring[(iv->head + iv->count) % PS_INTERVAL_RING_RECORDS] = *rec;
    iv->count++;
}

size_t ps_intervals_pull(ps_intervals_t *iv, size_t max)
{
    size_t waiting = ps_probe_sample_level();
    size_t n = waiting < max ? waiting : max;
    for (size_t i = 0; i < n; i++) {
        ps_interval_record_t rec;
        ps_probe_sample_take(rec.words);
        ps_intervals_put(iv, &rec);
    }
    return n;
}

size_t ps_intervals_encode(ps_intervals_t *iv, uint8_t *out, size_t cap, uint32_t overflow)
{
    if (iv->count == 0u || cap < PS_INTERVAL_BYTES + PS_INTERVAL_RECORD_BYTES) {
        return 0;
    }
    size_t room = (cap - PS_INTERVAL_BYTES) / PS_INTERVAL_RECORD_BYTES;
    size_t n = iv->count;
    if (n > PS_INTERVAL_MAX_RECORDS) {
        n = PS_INTERVAL_MAX_RECORDS;
    }
    if (n > room) {
        n = room;
    }
    ps_put_u8(&out[PS_INTERVAL_COUNT_OFFSET], (uint8_t)n);
    ps_put_u32le(&out[PS_INTERVAL_FIRST_INDEX_OFFSET], iv->first_index);
    ps_put_u32le(&out[PS_INTERVAL_DROPPED_OFFSET], iv->dropped);
    ps_put_u32le(&out[PS_INTERVAL_OVERFLOW_OFFSET], overflow);
    uint8_t *p = &out[PS_INTERVAL_BYTES];
    for (size_t r = 0; r < n; r++) {
        const ps_interval_record_t *rec = &iv->ring[iv->head];
        for (unsigned w = 0; w < PS_SMP_WORDS; w++) {
            ps_put_u32le(p, rec->words[w]);
            p += 4;
        }
        iv->head = (iv->head + 1u) % PS_INTERVAL_RING_RECORDS;
    }
    iv->count -= (uint32_t)n;
    iv->first_index += (uint32_t)n;
    iv->dropped = 0;
    return PS_INTERVAL_BYTES + n * PS_INTERVAL_RECORD_BYTES;
}
