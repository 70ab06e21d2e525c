/*
 * ps_probe.h - driver of the probe's CSR block (spec/registers.json), through ps_hal only.
 */
#ifndef PS_PROBE_H
#define PS_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "generated/pcie_scope_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ps_probe_status {
    PS_PROBE_OK = 0,
    PS_PROBE_ERR_NO_PROBE /* ID register does not hold PS_ID_MAGIC: the bus does not reach it */
} ps_probe_status_t;

typedef struct ps_probe_ident {
    uint32_t id;       /* ID register, PS_ID_MAGIC when the probe answers */
    uint32_t version;  /* VERSION register, major << 16 | minor */
    uint32_t clock_hz; /* CLK_HZ register */
} ps_probe_ident_t;

/* Read ID, VERSION and CLK_HZ; the values are filled in even when the ID is wrong. */
ps_probe_status_t ps_probe_identify(ps_probe_ident_t *ident);

/* The design's probe taps (spec taps: tap i's registers at PS_TAP_BASE(i)): TAP_INFO bits 15:8
 * of tap 0, read as 1 when 0 (a register map before 0.7) and at most PS_TAP_COUNT. The BAR
 * design has 1, the switch design 2 (GPU side, host side). */
unsigned ps_probe_tap_count(void);

/* Every tap of the design alike: control, clear and filter act on all of them. */
void ps_probe_enable(void);     /* set CTRL.ENABLE, other CTRL bits kept */
void ps_probe_disable(void);    /* clear CTRL.ENABLE, other CTRL bits kept */
bool ps_probe_is_enabled(void); /* STATUS.ENABLED of tap 0, as its counters see it */
void ps_probe_clear(void);      /* CMD.CLEAR: zero the running counters */

/* CMD.SNAPSHOT, then every shadow counter LO then HI, in spec order (tap 0). */
void ps_probe_snapshot(uint64_t counters[PS_CNT_COUNT]);
/* CMD.SNAPSHOT to taps 0..taps-1 back to back (a few bus clocks apart), then each tap's shadow
 * counters into counters[tap]: the taps' snapshots as close together as the bus allows. */
void ps_probe_snapshot_taps(unsigned taps, uint64_t counters[][PS_CNT_COUNT]);

uint32_t ps_probe_bar_latency(void);            /* BAR_LATENCY register, in clock cycles */
void ps_probe_set_bar_latency(uint32_t cycles); /* BAR_LATENCY; the caller range-checks */

/* SAMPLE_PERIOD in clock cycles (0 = off); the caller range-checks. */
void ps_probe_set_sample_period(uint32_t cycles);
uint32_t ps_probe_sample_period(void);

/* Address filter: FILTER_CTRL.EN off first, then the window, then EN, so the probe never
 * counts with half a window. */
void ps_probe_set_filter(bool enable, uint64_t base, uint64_t limit);

/* The info registers and the sampler and filter settings, as read. */
typedef struct ps_probe_link_info {
    uint32_t link_gen;
    uint32_t link_width;
    uint32_t mps;
    uint32_t mrrs;
    uint32_t rcb;
    uint32_t tag_bits;
    uint32_t clock_hz;
    uint32_t build_id;
    uint32_t sample_depth; /* SAMPLE_STATUS bits 31:16 */
    uint32_t sample_period;
    bool filter_enabled;
    uint64_t filter_base;
    uint64_t filter_limit;
} ps_probe_link_info_t;

void ps_probe_link_info(ps_probe_link_info_t *info);

/* HIST_LAYOUT: the latency histograms' bin layout, log2 sub-bins per octave | log2 first edge << 8
 * | bins << 16 (of tap 0; ps_probe_tap_*: of a tap). */
uint32_t ps_probe_hist_layout(void);
uint32_t ps_probe_tap_hist_layout(unsigned tap);
/* The shadows of latency histogram `kind` (PS_HIST_KIND_*) of a probe whose HIST_LAYOUT is
 * `layout`, bin 0 first, overflow bin last, LO then HI. They were loaded by the last
 * CMD.SNAPSHOT: call right after ps_probe_snapshot to get the same reads' histogram. Returns the
 * layout of the words written: `layout` with at most PS_HIST_BINS bins (a probe with more has the
 * rest added to the overflow word), so bins + 1 words. About 2 register reads a bin: call it
 * rarely, not per snapshot. */
uint32_t ps_probe_histogram(unsigned kind, uint32_t layout, uint64_t bins[PS_HIST_WORDS]);
/* The same of tap `tap` (< PS_TAP_COUNT), loaded by its last CMD.SNAPSHOT. */
uint32_t ps_probe_tap_histogram(unsigned tap, unsigned kind, uint32_t layout,
                                uint64_t bins[PS_HIST_WORDS]);

/* Interval records waiting in the sampler FIFO (SAMPLE_STATUS bits 15:0). */
uint32_t ps_probe_sample_level(void);
/* Read the head record (SMP_* words in order), then CMD.SAMPLE_POP. Only while the level is
 * non-zero: an empty FIFO reads as zeros and ignores the pop. */
void ps_probe_sample_take(uint32_t words[PS_SMP_WORDS]);
/* SAMPLE_OVERFLOW: records the probe dropped on a full FIFO since reset (wraps). */
uint32_t ps_probe_sample_overflow(void);

/* --- the TLP trace unit of a tap (TRC_* registers, docs/trace.md) --- */

/* TRC_STATUS bits 1:0 */
typedef enum ps_probe_trace_state {
    PS_PROBE_TRACE_IDLE = 0,
    PS_PROBE_TRACE_ARMED = 1,
    PS_PROBE_TRACE_TRIGGERED = 2,
    PS_PROBE_TRACE_STOPPED = 3
} ps_probe_trace_state_t;

typedef struct ps_probe_trace_status {
    uint32_t status;        /* TRC_STATUS as read: state in bits 1:0, TRIGGERED, FULL */
    uint32_t depth;         /* TRC_DEPTH */
    uint32_t count;         /* TRC_COUNT */
    uint32_t trigger_index; /* TRC_TRIG_POS */
    uint32_t lost;          /* TRC_LOST */
    uint64_t trigger_clock; /* TRC_TRIG_TS_HI:LO (48 bits) */
} ps_probe_trace_status_t;

/* The settings TRACE_ARM writes; the caller range-checks them. */
typedef struct ps_probe_trace_config {
    uint32_t pre;
    uint32_t trig_enable;
    uint32_t trig_types;
    uint32_t trig_status;
    uint32_t trig_rid;
    uint32_t trig_tag;
    uint32_t trig_len;
    uint32_t trig_outstanding;
    uint32_t trig_latency;
    uint64_t trig_base;
    uint64_t trig_limit;
    uint32_t filter_types;
    bool filter_enable;
    uint64_t filter_base;
    uint64_t filter_limit;
} ps_probe_trace_config_t;

/* TRC_STATUS, TRC_DEPTH, TRC_COUNT, TRC_TRIG_POS, TRC_LOST, TRC_TRIG_TS of tap `tap`. */
void ps_probe_trace_status(unsigned tap, ps_probe_trace_status_t *st);
/* TRC_DEPTH alone. */
uint32_t ps_probe_trace_depth(unsigned tap);
/* TRC_CMD.STOP, the settings (the unit's stages use them as they are: never while recording),
 * then TRC_CMD.ARM. */
void ps_probe_trace_arm(unsigned tap, const ps_probe_trace_config_t *cfg);
/* A TRC_CMD pulse (PS_REG_TRC_CMD_FORCE, PS_REG_TRC_CMD_STOP). */
void ps_probe_trace_command(unsigned tap, uint32_t bits);
/* Record `index` of a stopped trace: TRC_RD_INDEX, then the TRC_REC_* words in order. */
void ps_probe_trace_record(unsigned tap, uint32_t index, uint32_t words[PS_TRC_REC_WORDS]);

#ifdef __cplusplus
}
#endif

#endif /* PS_PROBE_H */
