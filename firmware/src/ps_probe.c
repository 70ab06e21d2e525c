/* ps_probe.c - probe CSR driver; every access goes through ps_hal_reg_*. */
#include "ps_probe.h"

#include "ps_assert.h"
#include "ps_hal.h"

ps_probe_status_t ps_probe_identify(ps_probe_ident_t *ident)
{
    PS_ASSERT(ident != NULL);
    ident->id = ps_hal_reg_read(PS_REG_ID);
    ident->version = ps_hal_reg_read(PS_REG_VERSION);
    ident->clock_hz = ps_hal_reg_read(PS_REG_CLK_HZ);
    return ident->id == PS_ID_MAGIC ? PS_PROBE_OK : PS_PROBE_ERR_NO_PROBE;
}

/* Register `offset` of tap `tap`'s window. */
static uint32_t tap_read(unsigned tap, uint32_t offset)
{
    return ps_hal_reg_read(PS_TAP_BASE(tap) + offset);
}

static void tap_write(unsigned tap, uint32_t offset, uint32_t value)
{
    ps_hal_reg_write(PS_TAP_BASE(tap) + offset, value);
}

unsigned ps_probe_tap_count(void)
{
    unsigned n = (ps_hal_reg_read(PS_REG_TAP_INFO) >> 8) & 0xFFu;
    if (n == 0u) { /* a register map before TAP_INFO: one tap */
        return 1u;
    }
    return n < PS_TAP_COUNT ? n : PS_TAP_COUNT;
}

void ps_probe_enable(void)
{
    for (unsigned tap = 0, n = ps_probe_tap_count(); tap < n; tap++) {
        tap_write(tap, PS_REG_CTRL, tap_read(tap, PS_REG_CTRL) | PS_REG_CTRL_ENABLE);
    }
}

void ps_probe_disable(void)
{
    for (unsigned tap = 0, n = ps_probe_tap_count(); tap < n; tap++) {
        tap_write(tap, PS_REG_CTRL, tap_read(tap, PS_REG_CTRL) & ~(uint32_t)PS_REG_CTRL_ENABLE);
    }
}

bool ps_probe_is_enabled(void)
{
    return (ps_hal_reg_read(PS_REG_STATUS) & PS_REG_STATUS_ENABLED) != 0u;
}

void ps_probe_clear(void)
{
    for (unsigned tap = 0, n = ps_probe_tap_count(); tap < n; tap++) {
        tap_write(tap, PS_REG_CMD, PS_REG_CMD_CLEAR);
    }
}

static void read_counters(unsigned tap, uint64_t counters[PS_CNT_COUNT])
{
    for (unsigned i = 0; i < PS_CNT_COUNT; i++) {
        uint32_t lo = tap_read(tap, PS_REG_CNT_LO(i));
        uint32_t hi = tap_read(tap, PS_REG_CNT_HI(i));
        counters[i] = ((uint64_t)hi << 32) | lo;
    }
}

void ps_probe_snapshot(uint64_t counters[PS_CNT_COUNT])
{
    /* The shadows are frozen by CMD.SNAPSHOT, so LO and HI of one counter cannot tear; the
     * copy happens on the edge that raises the write's BVALID, before any later read. */
    ps_hal_reg_write(PS_REG_CMD, PS_REG_CMD_SNAPSHOT);
    read_counters(0u, counters);
}

void ps_probe_snapshot_taps(unsigned taps, uint64_t counters[][PS_CNT_COUNT])
{
    PS_ASSERT(taps >= 1u && taps <= PS_TAP_COUNT);
    if (taps > PS_TAP_COUNT) {
        taps = PS_TAP_COUNT;
    }
    for (unsigned tap = 0; tap < taps; tap++) { /* every tap frozen before any is read */
        tap_write(tap, PS_REG_CMD, PS_REG_CMD_SNAPSHOT);
    }
    for (unsigned tap = 0; tap < taps; tap++) {
        read_counters(tap, counters[tap]);
    }
}

uint32_t ps_probe_hist_layout(void) { return ps_hal_reg_read(PS_REG_HIST_LAYOUT); }

uint32_t ps_probe_tap_hist_layout(unsigned tap) { return tap_read(tap, PS_REG_HIST_LAYOUT); }

static uint64_t hist_word(unsigned tap, uint32_t base, unsigned k)
{
    uint32_t lo = tap_read(tap, PS_REG_HIST_LO(base, k));
    uint32_t hi = tap_read(tap, PS_REG_HIST_HI(base, k));
    return ((uint64_t)hi << 32) | lo;
}

uint32_t ps_probe_tap_histogram(unsigned tap, unsigned kind, uint32_t layout,
                                uint64_t bins[PS_HIST_WORDS])
{
    static const uint32_t bases[PS_HIST_KINDS] = PS_HIST_BASES;
    PS_ASSERT(kind < PS_HIST_KINDS && tap < PS_TAP_COUNT);
    uint32_t base = bases[kind < PS_HIST_KINDS ? kind : 0u];
    unsigned probe_bins = (unsigned)(layout >> 16);
    unsigned n = probe_bins < PS_HIST_BINS ? probe_bins : PS_HIST_BINS;
    for (unsigned k = 0; k < n; k++) {
        bins[k] = hist_word(tap, base, k);
    }
    /* the overflow word: the probe's overflow bin, and any bins past what a frame holds (the
     * layout's edges stay true: bin n's lower edge becomes the overflow edge) */
    bins[n] = 0;
    for (unsigned k = n; k <= probe_bins; k++) {
        bins[n] += hist_word(tap, base, k);
    }
    return (layout & 0xFFFFu) | ((uint32_t)n << 16);
}

uint32_t ps_probe_histogram(unsigned kind, uint32_t layout, uint64_t bins[PS_HIST_WORDS])
{
    return ps_probe_tap_histogram(0u, kind, layout, bins);
}

uint32_t ps_probe_bar_latency(void) { return ps_hal_reg_read(PS_REG_BAR_LATENCY); }

void ps_probe_set_bar_latency(uint32_t cycles) { ps_hal_reg_write(PS_REG_BAR_LATENCY, cycles); }

void ps_probe_set_sample_period(uint32_t cycles) { ps_hal_reg_write(PS_REG_SAMPLE_PERIOD, cycles); }

uint32_t ps_probe_sample_period(void) { return ps_hal_reg_read(PS_REG_SAMPLE_PERIOD); }

void ps_probe_set_filter(bool enable, uint64_t base, uint64_t limit)
{
    for (unsigned tap = 0, n = ps_probe_tap_count(); tap < n; tap++) {
        tap_write(tap, PS_REG_FILTER_CTRL, 0u);
        tap_write(tap, PS_REG_FILTER_BASE_LO, (uint32_t)base);
        tap_write(tap, PS_REG_FILTER_BASE_HI, (uint32_t)(base >> 32));
        tap_write(tap, PS_REG_FILTER_LIMIT_LO, (uint32_t)limit);
        tap_write(tap, PS_REG_FILTER_LIMIT_HI, (uint32_t)(limit >> 32));
        if (enable) {
            tap_write(tap, PS_REG_FILTER_CTRL, PS_REG_FILTER_CTRL_EN);
        }
    }
}

static uint64_t read_u64(uint32_t lo_offset, uint32_t hi_offset)
{
    uint32_t lo = ps_hal_reg_read(lo_offset);
    return ((uint64_t)ps_hal_reg_read(hi_offset) << 32) | lo;
}

void ps_probe_link_info(ps_probe_link_info_t *info)
{
    PS_ASSERT(info != NULL);
    info->link_gen = ps_hal_reg_read(PS_REG_LINK_GEN);
    info->link_width = ps_hal_reg_read(PS_REG_LINK_WIDTH);
    info->mps = ps_hal_reg_read(PS_REG_MPS);
    info->mrrs = ps_hal_reg_read(PS_REG_MRRS);
    info->rcb = ps_hal_reg_read(PS_REG_RCB);
    info->tag_bits = ps_hal_reg_read(PS_REG_TAG_BITS);
    info->clock_hz = ps_hal_reg_read(PS_REG_CLK_HZ);
    info->build_id = ps_hal_reg_read(PS_REG_BUILD_ID);
    info->sample_depth = ps_hal_reg_read(PS_REG_SAMPLE_STATUS) >> 16;
    info->sample_period = ps_hal_reg_read(PS_REG_SAMPLE_PERIOD);
    info->filter_enabled = (ps_hal_reg_read(PS_REG_FILTER_CTRL) & PS_REG_FILTER_CTRL_EN) != 0u;
    info->filter_base = read_u64(PS_REG_FILTER_BASE_LO, PS_REG_FILTER_BASE_HI);
    info->filter_limit = read_u64(PS_REG_FILTER_LIMIT_LO, PS_REG_FILTER_LIMIT_HI);
}

uint32_t ps_probe_sample_level(void) { return ps_hal_reg_read(PS_REG_SAMPLE_STATUS) & 0xFFFFu; }

void ps_probe_sample_take(uint32_t words[PS_SMP_WORDS])
{
    for (unsigned w = 0; w < PS_SMP_WORDS; w++) {
        words[w] = ps_hal_reg_read(PS_REG_SMP_TS_LO + 4u * w);
    }
    ps_hal_reg_write(PS_REG_CMD, PS_REG_CMD_SAMPLE_POP);
}

uint32_t ps_probe_sample_overflow(void) { return ps_hal_reg_read(PS_REG_SAMPLE_OVERFLOW); }

void ps_probe_trace_status(unsigned tap, ps_probe_trace_status_t *st)
{
    PS_ASSERT(st != NULL);
    st->status = tap_read(tap, PS_REG_TRC_STATUS);
    st->depth = tap_read(tap, PS_REG_TRC_DEPTH);
    st->count = tap_read(tap, PS_REG_TRC_COUNT);
    st->trigger_index = tap_read(tap, PS_REG_TRC_TRIG_POS);
    st->lost = tap_read(tap, PS_REG_TRC_LOST);
    uint32_t lo = tap_read(tap, PS_REG_TRC_TRIG_TS_LO);
    uint32_t hi = tap_read(tap, PS_REG_TRC_TRIG_TS_HI) & 0xFFFFu;
    st->trigger_clock = ((uint64_t)hi << 32) | lo;
}

uint32_t ps_probe_trace_depth(unsigned tap) { return tap_read(tap, PS_REG_TRC_DEPTH); }

static void tap_write64(unsigned tap, uint32_t lo_offset, uint32_t hi_offset, uint64_t value)
{
    tap_write(tap, lo_offset, (uint32_t)value);
    tap_write(tap, hi_offset, (uint32_t)(value >> 32));
}

void ps_probe_trace_arm(unsigned tap, const ps_probe_trace_config_t *cfg)
{
    PS_ASSERT(cfg != NULL);
    tap_write(tap, PS_REG_TRC_CMD, PS_REG_TRC_CMD_STOP);
    tap_write(tap, PS_REG_TRC_PRE, cfg->pre);
    tap_write(tap, PS_REG_TRC_TRIG_EN, cfg->trig_enable);
    tap_write(tap, PS_REG_TRC_TRIG_TYPES, cfg->trig_types);
    tap_write(tap, PS_REG_TRC_TRIG_STATUS, cfg->trig_status);
    tap_write(tap, PS_REG_TRC_TRIG_RID, cfg->trig_rid);
    tap_write(tap, PS_REG_TRC_TRIG_TAG, cfg->trig_tag);
    tap_write(tap, PS_REG_TRC_TRIG_LEN, cfg->trig_len);
    tap_write(tap, PS_REG_TRC_TRIG_OUTSTANDING, cfg->trig_outstanding);
    tap_write(tap, PS_REG_TRC_TRIG_LATENCY, cfg->trig_latency);
    tap_write64(tap, PS_REG_TRC_TRIG_BASE_LO, PS_REG_TRC_TRIG_BASE_HI, cfg->trig_base);
    tap_write64(tap, PS_REG_TRC_TRIG_LIMIT_LO, PS_REG_TRC_TRIG_LIMIT_HI, cfg->trig_limit);
    tap_write(tap, PS_REG_TRC_FILT_TYPES, cfg->filter_types);
    tap_write(tap, PS_REG_TRC_FILT_CTRL, 0u);
    tap_write64(tap, PS_REG_TRC_FILT_BASE_LO, PS_REG_TRC_FILT_BASE_HI, cfg->filter_base);
    tap_write64(tap, PS_REG_TRC_FILT_LIMIT_LO, PS_REG_TRC_FILT_LIMIT_HI, cfg->filter_limit);
    tap_write(tap, PS_REG_TRC_FILT_CTRL, cfg->filter_enable ? PS_REG_TRC_FILT_CTRL_EN : 0u);
    tap_write(tap, PS_REG_TRC_CMD, PS_REG_TRC_CMD_ARM);
}

void ps_probe_trace_command(unsigned tap, uint32_t bits) { tap_write(tap, PS_REG_TRC_CMD, bits); }

void ps_probe_trace_record(unsigned tap, uint32_t index, uint32_t words[PS_TRC_REC_WORDS])
{
    tap_write(tap, PS_REG_TRC_RD_INDEX, index);
    for (unsigned w = 0; w < PS_TRC_REC_WORDS; w++) {
        words[w] = tap_read(tap, PS_REG_TRC_REC_DW0 + 4u * w);
    }
}
