/* ps_telemetry.c - SNAPSHOT, HISTOGRAM and their TAP_ payloads, field by field at the generated
 * offsets. */
#include "ps_telemetry.h"

#include "ps_assert.h"
#include "ps_le.h"

_Static_assert(PS_SNAPSHOT_COUNTERS_OFFSET + 8u * PS_CNT_COUNT == PS_SNAPSHOT_RX_FRAMES_OFFSET,
               "protocol.h and regs.h disagree on the number of counters: run npm run gen");
_Static_assert(PS_SNAPSHOT_BYTES <= PS_FRAME_MAX_PAYLOAD, "snapshot must fit one frame");

size_t ps_telemetry_encode_snapshot(uint8_t *dst, size_t dst_cap, uint8_t flags, uint32_t index,
                                    const uint64_t counters[PS_CNT_COUNT],
                                    const ps_link_stats_t *stats)
{
    PS_ASSERT(counters != NULL && stats != NULL);
    if (dst == NULL || dst_cap < PS_SNAPSHOT_BYTES) {
        return 0;
    }
    ps_put_u8(&dst[PS_SNAPSHOT_FLAGS_OFFSET], flags);
    ps_put_u32le(&dst[PS_SNAPSHOT_INDEX_OFFSET], index);
    for (unsigned i = 0; i < PS_CNT_COUNT; i++) {
        ps_put_u64le(&dst[PS_SNAPSHOT_COUNTERS_OFFSET + 8u * i], counters[i]);
    }
    /* every link statistic of the spec, at its generated offset */
#define PS_PUT_LINK_STAT(member, offset) ps_put_u32le(&dst[(offset)], stats->member);
    PS_LINK_STATS(PS_PUT_LINK_STAT)
#undef PS_PUT_LINK_STAT
    return PS_SNAPSHOT_BYTES;
}

_Static_assert(PS_HISTOGRAM_BINS_OFFSET + 8u * PS_HIST_WORDS == PS_HISTOGRAM_BYTES,
               "protocol.h and regs.h disagree on the histogram bins: run npm run gen");
_Static_assert(PS_HISTOGRAM_BYTES <= PS_FRAME_MAX_PAYLOAD, "histogram must fit one frame");

/* the layout's three fields (HIST_LAYOUT's bytes) at `at`, and its bins + 1 words at `bins_at`;
 * 0 when the layout has more bins than a frame holds or dst_cap is too small */
static size_t put_layout_and_bins(uint8_t *dst, size_t dst_cap, size_t at, size_t bins_at,
                                  uint32_t layout, const uint64_t bins[PS_HIST_WORDS])
{
    unsigned n = (unsigned)(layout >> 16);
    size_t len = bins_at + 8u * ((size_t)n + 1u);
    if (n > PS_HIST_BINS || dst_cap < len) {
        return 0;
    }
    ps_put_u8(&dst[at], (uint8_t)(layout & 0xFFu));
    ps_put_u8(&dst[at + 1u], (uint8_t)((layout >> 8) & 0xFFu));
    ps_put_u16le(&dst[at + 2u], (uint16_t)n);
    for (unsigned k = 0; k <= n; k++) {
        ps_put_u64le(&dst[bins_at + 8u * k], bins[k]);
    }
    return len;
}

_Static_assert(PS_HISTOGRAM_FIRST_EDGE_LOG2_OFFSET == PS_HISTOGRAM_SUB_BINS_LOG2_OFFSET + 1u
                   && PS_HISTOGRAM_BIN_COUNT_OFFSET == PS_HISTOGRAM_SUB_BINS_LOG2_OFFSET + 2u,
               "the HISTOGRAM layout fields are HIST_LAYOUT's bytes in order");

size_t ps_telemetry_encode_histogram(uint8_t *dst, size_t dst_cap, uint8_t reason, uint8_t kind,
                                     uint32_t snapshot_index, uint32_t layout,
                                     const uint64_t bins[PS_HIST_WORDS])
{
    PS_ASSERT(bins != NULL);
    if (dst == NULL) {
        return 0;
    }
    size_t len = put_layout_and_bins(dst, dst_cap, PS_HISTOGRAM_SUB_BINS_LOG2_OFFSET,
                                     PS_HISTOGRAM_BINS_OFFSET, layout, bins);
    if (len == 0u) {
        return 0;
    }
    ps_put_u8(&dst[PS_HISTOGRAM_REASON_OFFSET], reason);
    ps_put_u8(&dst[PS_HISTOGRAM_KIND_OFFSET], kind);
    ps_put_u32le(&dst[PS_HISTOGRAM_SNAPSHOT_INDEX_OFFSET], snapshot_index);
    return len;
}

_Static_assert(PS_TAP_SNAPSHOT_COUNTERS_OFFSET + 8u * PS_CNT_COUNT == PS_TAP_SNAPSHOT_BYTES,
               "protocol.h and regs.h disagree on the number of counters: run npm run gen");
_Static_assert(PS_TAP_HISTOGRAM_BINS_OFFSET + 8u * PS_HIST_WORDS == PS_TAP_HISTOGRAM_BYTES,
               "protocol.h and regs.h disagree on the histogram bins: run npm run gen");
_Static_assert(PS_TAP_HISTOGRAM_BYTES <= PS_FRAME_MAX_PAYLOAD, "tap histogram must fit one frame");

size_t ps_telemetry_encode_tap_snapshot(uint8_t *dst, size_t dst_cap, uint8_t tap,
                                        uint32_t snapshot_index,
                                        const uint64_t counters[PS_CNT_COUNT])
{
    PS_ASSERT(counters != NULL);
    if (dst == NULL || dst_cap < PS_TAP_SNAPSHOT_BYTES) {
        return 0;
    }
    ps_put_u8(&dst[PS_TAP_SNAPSHOT_TAP_OFFSET], tap);
    ps_put_u32le(&dst[PS_TAP_SNAPSHOT_SNAPSHOT_INDEX_OFFSET], snapshot_index);
    for (unsigned i = 0; i < PS_CNT_COUNT; i++) {
        ps_put_u64le(&dst[PS_TAP_SNAPSHOT_COUNTERS_OFFSET + 8u * i], counters[i]);
    }
    return PS_TAP_SNAPSHOT_BYTES;
}

_Static_assert(PS_TAP_HISTOGRAM_FIRST_EDGE_LOG2_OFFSET == PS_TAP_HISTOGRAM_SUB_BINS_LOG2_OFFSET + 1u
                   && PS_TAP_HISTOGRAM_BIN_COUNT_OFFSET
                       == PS_TAP_HISTOGRAM_SUB_BINS_LOG2_OFFSET + 2u,
               "the TAP_HISTOGRAM layout fields are HIST_LAYOUT's bytes in order");

size_t ps_telemetry_encode_tap_histogram(uint8_t *dst, size_t dst_cap, uint8_t tap, uint8_t reason,
                                         uint8_t kind, uint32_t snapshot_index, uint32_t layout,
                                         const uint64_t bins[PS_HIST_WORDS])
{
    PS_ASSERT(bins != NULL);
    if (dst == NULL) {
        return 0;
    }
    size_t len = put_layout_and_bins(dst, dst_cap, PS_TAP_HISTOGRAM_SUB_BINS_LOG2_OFFSET,
                                     PS_TAP_HISTOGRAM_BINS_OFFSET, layout, bins);
    if (len == 0u) {
        return 0;
    }
    ps_put_u8(&dst[PS_TAP_HISTOGRAM_TAP_OFFSET], tap);
    ps_put_u8(&dst[PS_TAP_HISTOGRAM_REASON_OFFSET], reason);
    ps_put_u8(&dst[PS_TAP_HISTOGRAM_KIND_OFFSET], kind);
    ps_put_u32le(&dst[PS_TAP_HISTOGRAM_SNAPSHOT_INDEX_OFFSET], snapshot_index);
    return len;
}
