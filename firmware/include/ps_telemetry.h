/*
 * ps_telemetry.h - the firmware's link statistics and the SNAPSHOT payload encoder.
 */
#ifndef PS_TELEMETRY_H
#define PS_TELEMETRY_H

#include <stddef.h>
#include <stdint.h>

#include "generated/pcie_scope_protocol.h"
#include "generated/pcie_scope_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ps_link_stats_t, what the firmware counts on its UART, comes from the spec (linkStats in
 * spec/protocol.json) with the SNAPSHOT layout: generated/pcie_scope_protocol.h. */

/* Write a SNAPSHOT payload (PS_SNAPSHOT_BYTES); returns its length, 0 if dst_cap is too small. */
size_t ps_telemetry_encode_snapshot(uint8_t *dst, size_t dst_cap, uint8_t flags, uint32_t index,
                                    const uint64_t counters[PS_CNT_COUNT],
                                    const ps_link_stats_t *stats);

/* Why a HISTOGRAM frame was sent (its reason byte). */
typedef enum ps_histogram_reason {
    PS_HISTOGRAM_PERIODIC = 0u,  /* once every PS_APP_HISTOGRAM_US while streaming */
    PS_HISTOGRAM_ON_DEMAND = 1u, /* LATENCY_HISTOGRAM command */
    PS_HISTOGRAM_FINAL = 2u      /* STOP, after the final snapshot */
} ps_histogram_reason_t;

/* Write a HISTOGRAM payload for the bins of histogram `kind` (PS_HIST_KIND_*) read with snapshot
 * `index`: `layout` as HIST_LAYOUT has it (bins << 16 | log2 first edge << 8 | log2 sub-bins),
 * then its bins + 1 words (PS_HISTOGRAM_BYTES with this spec's layout); returns its length, 0 if
 * the layout has more than PS_HIST_BINS bins or dst_cap is too small. */
size_t ps_telemetry_encode_histogram(uint8_t *dst, size_t dst_cap, uint8_t reason, uint8_t kind,
                                     uint32_t snapshot_index, uint32_t layout,
                                     const uint64_t bins[PS_HIST_WORDS]);

/* Write a TAP_SNAPSHOT payload (PS_TAP_SNAPSHOT_BYTES): the counters of tap `tap` (> 0) taken
 * with SNAPSHOT `snapshot_index`; returns its length, 0 if dst_cap is too small. */
size_t ps_telemetry_encode_tap_snapshot(uint8_t *dst, size_t dst_cap, uint8_t tap,
                                        uint32_t snapshot_index,
                                        const uint64_t counters[PS_CNT_COUNT]);

/* Write a TAP_HISTOGRAM payload: as ps_telemetry_encode_histogram, for tap `tap`. */
size_t ps_telemetry_encode_tap_histogram(uint8_t *dst, size_t dst_cap, uint8_t tap, uint8_t reason,
                                         uint8_t kind, uint32_t snapshot_index, uint32_t layout,
                                         const uint64_t bins[PS_HIST_WORDS]);

#ifdef __cplusplus
}
#endif

#endif /* PS_TELEMETRY_H */
