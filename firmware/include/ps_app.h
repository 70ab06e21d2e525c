/*
 * ps_app.h - the firmware application: receive path, command handling, periodic snapshots,
 * transmit ring. The caller owns the state (allocate it statically) and calls ps_app_step
 * from its superloop as often as it can; ps_app_step never blocks.
 */
#ifndef PS_APP_H
#define PS_APP_H

#include <stdbool.h>
#include <stdint.h>

#include "ps_cmd.h"
#include "ps_config.h"
#include "ps_intervals.h"
#include "ps_rx.h"
#include "ps_telemetry.h"
#include "ps_txq.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ps_app {
    ps_rx_t rx;
    ps_txq_t tx;
    ps_cmd_state_t cmd;
    ps_link_stats_t stats;
    uint16_t tx_seq;           /* seq of the next device frame (a dropped frame uses one too) */
    bool host_seen;            /* a valid COMMAND arrived: until then we stay silent */
    uint32_t snapshot_index;   /* snapshots queued since reset */
    uint64_t now_us;           /* ps_hal_time_us at the start of the current step */
    uint64_t next_snapshot_us; /* when streaming: due time of the next periodic snapshot */
    uint64_t last_interval_us; /* when the last INTERVAL frame was queued */
    uint64_t
        next_histogram_us; /* streaming: the first periodic snapshot after it brings a histogram */
    ps_intervals_t intervals; /* records drained from the probe, waiting for the UART */
    /* Scratch for one step, kept here rather than on the stack: a MicroBlaze BSP's default
     * stack is 1 KiB, and these nest (command -> snapshot -> frame) to more than that. */
    uint8_t rx_raw[PS_FRAME_MAX_RAW];              /* the COBS-decoded command frame */
    uint8_t reply[PS_FRAME_MAX_PAYLOAD];           /* RESPONSE payload being built */
    uint8_t snapshot[PS_SNAPSHOT_BYTES];           /* SNAPSHOT payload being built */
    uint8_t histogram[PS_HISTOGRAM_BYTES];         /* HISTOGRAM payload being built */
    uint8_t taps;                                  /* taps of the design, read at each snapshot */
    uint64_t counters[PS_TAP_COUNT][PS_CNT_COUNT]; /* each tap's counters of one snapshot */
    uint8_t tap_snapshot[PS_TAP_SNAPSHOT_BYTES];   /* TAP_SNAPSHOT payload being built */
    uint8_t tap_histogram[PS_TAP_HISTOGRAM_BYTES]; /* TAP_HISTOGRAM payload being built */
    uint8_t interval[PS_INTERVAL_BYTES + PS_INTERVAL_MAX_RECORDS * PS_INTERVAL_RECORD_BYTES];
    uint8_t trace[PS_TRACE_BYTES + PS_TRACE_MAX_RECORDS * PS_TRACE_RECORD_BYTES]; /* TRACE */
    uint8_t wire[PS_FRAME_MAX_ENCODED]; /* one encoded frame on its way to the ring */
} ps_app_t;

/* Reset the state; touches no HAL function (the sim port may be bound later). */
void ps_app_init(ps_app_t *app);

/* Drain TX, handle received bytes, send a due snapshot, move interval records from the probe
 * and send them when the line has room beside a snapshot, send the next TRACE frame of a trace
 * being drained (same rule), drain TX again. */
void ps_app_step(ps_app_t *app);

#ifdef __cplusplus
}
#endif

#endif /* PS_APP_H */
