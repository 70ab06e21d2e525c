/*
 * hal_test.h - the host unit-test port of ps_hal: an in-memory CSR block with the probe's
 * semantics, UART byte queues in both directions, settable time and fault injection.
 * All state is static; ps_test_reset() returns it to power-on.
 */
#ifndef PS_HAL_TEST_H
#define PS_HAL_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "generated/pcie_scope_regs.h"
#include "ps_hal.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PS_TEST_RX_BYTES 65536u  /* host -> device queue */
#define PS_TEST_TX_BYTES 262144u /* device -> host queue */
#define PS_TEST_UNLIMITED ((size_t)-1)

void ps_test_reset(void);

/* --- the probe's interval-record FIFO --- */
#define PS_TEST_SAMPLE_DEPTH 256u
/* Queue one record (SMP_* words); when full it is lost and SAMPLE_OVERFLOW counts it. */
bool ps_test_sample_push(const uint32_t words[PS_SMP_WORDS]);
size_t ps_test_sample_level(void); /* records waiting */

/* --- registers --- */
void ps_test_set_counter(unsigned index, uint64_t live_value); /* the running counter */
uint64_t ps_test_counter(unsigned index);
/* bin of latency histogram `kind` (PS_HIST_KIND_*; overflow = PS_HIST_BINS), copied to its
 * shadow by CMD.SNAPSHOT */
void ps_test_set_hist_bin(unsigned kind, unsigned bin, uint64_t live_value);
/* Advance the probe clock: TIMESTAMP always, CYCLES while CTRL.ENABLE is set. */
void ps_test_tick(uint64_t cycles);
uint32_t ps_test_reg(uint32_t offset);                 /* raw value of a plain register */
void ps_test_set_reg(uint32_t offset, uint32_t value); /* e.g. ID, CLK_HZ, BAR_LATENCY */
/* Fault: every read of offset returns value (as a stuck bus line or a missing probe would). */
void ps_test_stick_reg(uint32_t offset, uint32_t value);

/* --- further probe taps (the switch design's host side): off until ps_test_set_taps(2) ---
 * Tap 1's window at PS_TAP_BASE(1) holds CTRL/STATUS, CMD (SNAPSHOT, CLEAR), the filter,
 * HIST_LAYOUT, TAP_INFO, the counters and the latency histograms; the rest reads 0. */
void ps_test_set_taps(unsigned count); /* 1 or 2: TAP_INFO of both windows, tap 1 decoded */
void ps_test_set_tap_counter(unsigned tap, unsigned index, uint64_t live_value);
void ps_test_set_tap_hist_bin(unsigned tap, unsigned kind, unsigned bin, uint64_t live_value);
uint32_t ps_test_tap_reg(unsigned tap, uint32_t offset); /* a plain register of a tap */
uint32_t ps_test_tap_snapshots(unsigned tap);            /* CMD.SNAPSHOT pulses of a tap */

/* --- tap 0's trace unit (TRC_*): settings kept as written, TRC_CMD pulses counted; ARM
 * empties it (armed), FORCE triggers an armed one, STOP stops it. Record i of a trace reads as
 * words i * 0x10 + w (w = 0..PS_TRC_REC_WORDS-1), so a shifted or torn record shows. --- */
#define PS_TEST_TRACE_DEPTH 4096u
/* A trace as the unit leaves it: TRC_STATUS, TRC_COUNT, TRC_TRIG_POS, TRC_LOST. */
void ps_test_trace_set(uint32_t status, uint32_t count, uint32_t trigger_index, uint32_t lost);
uint32_t ps_test_trace_reg(uint32_t offset);     /* a TRC_* register as written or held */
uint32_t ps_test_trace_pulses(uint32_t cmd_bit); /* TRC_CMD pulses of one bit since reset */
uint32_t ps_test_trace_record_reads(void);       /* TRC_REC_* reads since reset */

typedef struct ps_test_reg_stats {
    uint32_t reads;
    uint32_t writes;
    uint32_t snapshots; /* CMD.SNAPSHOT pulses */
    uint32_t clears;    /* CMD.CLEAR pulses */
    uint32_t counter_reads_since_snapshot;
    uint32_t hist_reads; /* reads of the latency-histogram window */
} ps_test_reg_stats_t;
ps_test_reg_stats_t ps_test_regs_stats(void);

/* --- UART, host -> device --- */
size_t ps_test_rx_push(const uint8_t *data, size_t len); /* bytes queued */
size_t ps_test_rx_pending(void);
void ps_test_rx_set_chunk(size_t max_per_read); /* PS_TEST_UNLIMITED by default */
/* Faults on bytes as the firmware reads them; counted from the first byte ever read. */
void ps_test_rx_drop_every(unsigned n); /* lose every n-th byte (0 = off) */
void ps_test_rx_corrupt_at(size_t byte_number, uint8_t xor_mask); /* one-shot bit flips */
size_t ps_test_rx_consumed(void); /* bytes read so far (incl. dropped) */

/* --- UART, device -> host --- */
size_t ps_test_tx_pending(void);
size_t ps_test_tx_take(uint8_t *dst, size_t cap); /* remove and return queued bytes */
void ps_test_tx_set_accept(size_t max_per_write); /* 0 = UART full; PS_TEST_UNLIMITED */
uint32_t ps_test_tx_write_calls(void);

/* --- time --- */
void ps_test_time_set(uint64_t us);
void ps_test_time_advance(uint64_t us);

/* --- PS_ASSERT / PS_LOG hooks: recorded, kept across ps_test_reset (a test clears them) --- */
typedef struct ps_test_assert_record {
    unsigned count;   /* failed assertions since the last clear */
    const char *file; /* of the latest one (NULL if none) */
    int line;
    const char *expr;
} ps_test_assert_record_t;
ps_test_assert_record_t ps_test_asserts(void);
void ps_test_asserts_clear(void);
unsigned ps_test_log_count(void);   /* PS_LOG messages since the last clear */
const char *ps_test_log_last(void); /* the latest one, "" if none (cut to PS_LOG_LINE_BYTES) */
void ps_test_log_clear(void);

#ifdef __cplusplus
}
#endif

#endif /* PS_HAL_TEST_H */
