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

/* What the firmware counted on its UART; reported in every snapshot (wraps at 2^32). */
typedef struct ps_link_stats {
    uint32_t rx_frames;        /* good COMMAND frames */
    uint32_t rx_bad_frames;    /* COBS, CRC, length or frame-type failures */
    uint32_t rx_overflows;     /* frames longer than the receive buffer */
    uint32_t unknown_commands; /* commands answered UNKNOWN_COMMAND */
    uint32_t tx_dropped;       /* outgoing frames that did not fit the TX ring */
} ps_link_stats_t;

/* Write a SNAPSHOT payload (PS_SNAPSHOT_BYTES); returns its length, 0 if dst_cap is too small. */
size_t ps_telemetry_encode_snapshot(uint8_t *dst, size_t dst_cap, uint8_t flags, uint32_t index,
                                    const uint64_t counters[PS_CNT_COUNT],
                                    const ps_link_stats_t *stats);

#ifdef __cplusplus
}
#endif

#endif /* PS_TELEMETRY_H */
