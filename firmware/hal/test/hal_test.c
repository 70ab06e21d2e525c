/* hal_test.c - in-memory ps_hal for host unit tests (the lfs_emubd idea). */
#include "hal_test.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "generated/pcie_scope_regs.h"
#include "ps_config.h"

#define REG_WORDS 64u /* plain registers below PS_REG_CNT_BASE, by word */

typedef struct ps_test_state {
    uint32_t regs[REG_WORDS];
    uint64_t live[PS_CNT_COUNT];
    uint64_t shadow[PS_CNT_COUNT];
    uint64_t hist_live[PS_HIST_KINDS][PS_HIST_WORDS]; /* latency-histogram bins by kind, loaded by
                                                         CMD.SNAPSHOT too */
    uint64_t hist_shadow[PS_HIST_KINDS][PS_HIST_WORDS];
    bool stuck[REG_WORDS + 2u * PS_CNT_COUNT];
    uint32_t stuck_value[REG_WORDS + 2u * PS_CNT_COUNT];
    ps_test_reg_stats_t stats;

    uint8_t rx[PS_TEST_RX_BYTES];
    size_t rx_head, rx_tail, rx_chunk, rx_consumed;
    unsigned rx_drop_every;
    bool rx_corrupt_armed;
    size_t rx_corrupt_at;
    uint8_t rx_corrupt_mask;

    uint8_t tx[PS_TEST_TX_BYTES];
    size_t tx_head, tx_tail, tx_accept;
    uint32_t tx_calls;

    uint64_t now_us;

    /* the probe's interval-record FIFO (SAMPLE_STATUS, SMP_*, CMD.SAMPLE_POP) */
    uint32_t smp[PS_TEST_SAMPLE_DEPTH][PS_SMP_WORDS];
    size_t smp_head, smp_count;

    /* tap 1 (ps_test_set_taps(2)): its plain registers, counters and histograms */
    unsigned taps;
    struct {
        uint32_t regs[REG_WORDS];
        uint64_t live[PS_CNT_COUNT];
        uint64_t shadow[PS_CNT_COUNT];
        uint64_t hist_live[PS_HIST_KINDS][PS_HIST_WORDS];
        uint64_t hist_shadow[PS_HIST_KINDS][PS_HIST_WORDS];
        uint32_t snapshots;
    } tap1;

    /* tap 0's trace unit: TRC_* registers by word from PS_REG_TRC_CMD, pulses by TRC_CMD bit */
    uint32_t trc[64];
    uint32_t trc_pulses[3];
    uint32_t trc_record_reads;
} ps_test_state_t;

static ps_test_state_t t;

/* Word slot for a register offset, or -1 when nothing decodes there. */
static int slot(uint32_t offset)
{
    if ((offset & 3u) != 0u) {
        return -1;
    }
    if (offset < PS_REG_CNT_BASE) {
        return offset / 4u < REG_WORDS ? (int)(offset / 4u) : -1;
    }
    uint32_t w = (offset - PS_REG_CNT_BASE) / 4u;
    return w < 2u * PS_CNT_COUNT ? (int)(REG_WORDS + w) : -1;
}

void ps_test_reset(void)
{
    memset(&t, 0, sizeof t);
    t.regs[PS_REG_ID / 4u] = PS_ID_MAGIC;
    t.regs[PS_REG_VERSION / 4u] = PS_VERSION_VALUE;
    t.regs[PS_REG_CLK_HZ / 4u] = 250000000u;
    t.regs[PS_REG_BAR_LATENCY / 4u] = PS_REG_BAR_LATENCY_RESET;
    t.regs[PS_REG_HIST_LAYOUT / 4u] = PS_HIST_LAYOUT_VALUE;
    t.trc[(PS_REG_TRC_DEPTH - PS_REG_TRC_CMD) / 4u] = PS_TEST_TRACE_DEPTH;
    t.trc[(PS_REG_TRC_FILT_TYPES - PS_REG_TRC_CMD) / 4u] = PS_REG_TRC_FILT_TYPES_RESET;
    t.rx_chunk = PS_TEST_UNLIMITED;
    t.tx_accept = PS_TEST_UNLIMITED;
}

void ps_test_set_taps(unsigned count)
{
    t.taps = count == 2u ? 2u : 1u;
    t.regs[PS_REG_TAP_INFO / 4u] = (t.taps << 8) | PS_TAP_GPU;
    t.tap1.regs[PS_REG_TAP_INFO / 4u] = (t.taps << 8) | PS_TAP_HOST;
    t.tap1.regs[PS_REG_HIST_LAYOUT / 4u] = PS_HIST_LAYOUT_VALUE;
}

void ps_test_set_tap_counter(unsigned tap, unsigned index, uint64_t live_value)
{
    if (tap == 0u) {
        ps_test_set_counter(index, live_value);
    } else if (tap == 1u && index < PS_CNT_COUNT) {
        t.tap1.live[index] = live_value;
    }
}

void ps_test_set_tap_hist_bin(unsigned tap, unsigned kind, unsigned bin, uint64_t live_value)
{
    if (tap == 0u) {
        ps_test_set_hist_bin(kind, bin, live_value);
    } else if (tap == 1u && kind < PS_HIST_KINDS && bin < PS_HIST_WORDS) {
        t.tap1.hist_live[kind][bin] = live_value;
    }
}

uint32_t ps_test_tap_reg(unsigned tap, uint32_t offset)
{
    if (tap == 0u) {
        return ps_test_reg(offset);
    }
    return (tap == 1u && offset < 4u * REG_WORDS) ? t.tap1.regs[offset / 4u] : 0u;
}

uint32_t ps_test_tap_snapshots(unsigned tap)
{
    return tap == 0u ? t.stats.snapshots : tap == 1u ? t.tap1.snapshots : 0u;
}

/* A read of tap 1's window (offset inside it). */
static uint32_t tap1_read(uint32_t offset)
{
    static const uint32_t hist_bases[PS_HIST_KINDS] = PS_HIST_BASES;
    for (unsigned kind = 0; kind < PS_HIST_KINDS; kind++) {
        uint32_t base = hist_bases[kind];
        if (offset >= base && offset < base + 8u * PS_HIST_WORDS) {
            uint64_t v = t.tap1.hist_shadow[kind][(offset - base) / 8u];
            return (offset & 4u) ? (uint32_t)(v >> 32) : (uint32_t)v;
        }
    }
    if (offset >= PS_REG_CNT_BASE && offset < PS_REG_CNT_BASE + 16u * PS_CNT_COUNT) {
        uint64_t v = t.tap1.shadow[(offset - PS_REG_CNT_BASE) / 8u];
        return (offset & 4u) ? (uint32_t)(v >> 32) : (uint32_t)v;
    }
    if (offset == PS_REG_STATUS) {
        return t.tap1.regs[PS_REG_CTRL / 4u] & PS_REG_CTRL_ENABLE ? PS_REG_STATUS_ENABLED : 0u;
    }
    return (offset < 4u * REG_WORDS && offset != PS_REG_CMD) ? t.tap1.regs[offset / 4u] : 0u;
}

static void tap1_write(uint32_t offset, uint32_t value)
{
    switch (offset) {
    case PS_REG_CTRL:
    case PS_REG_FILTER_CTRL:
    case PS_REG_FILTER_BASE_LO:
    case PS_REG_FILTER_BASE_HI:
    case PS_REG_FILTER_LIMIT_LO:
    case PS_REG_FILTER_LIMIT_HI:
        t.tap1.regs[offset / 4u] = value;
        break;
    case PS_REG_CMD:
        if (value & PS_REG_CMD_SNAPSHOT) {
            memcpy(t.tap1.shadow, t.tap1.live, sizeof t.tap1.shadow);
            memcpy(t.tap1.hist_shadow, t.tap1.hist_live, sizeof t.tap1.hist_shadow);
            t.tap1.snapshots++;
        }
        if (value & PS_REG_CMD_CLEAR) {
            memset(t.tap1.hist_live, 0, sizeof t.tap1.hist_live);
            for (unsigned i = 0; i < PS_CNT_COUNT; i++) {
                if (i != PS_CNT_TIMESTAMP) {
                    t.tap1.live[i] = 0;
                }
            }
        }
        break;
    default:
        break;
    }
}

void ps_test_set_counter(unsigned index, uint64_t live_value)
{
    if (index < PS_CNT_COUNT) {
        t.live[index] = live_value;
    }
}

void ps_test_set_hist_bin(unsigned kind, unsigned bin, uint64_t live_value)
{
    if (kind < PS_HIST_KINDS && bin < PS_HIST_WORDS) {
        t.hist_live[kind][bin] = live_value;
    }
}

uint64_t ps_test_counter(unsigned index) { return index < PS_CNT_COUNT ? t.live[index] : 0u; }

void ps_test_tick(uint64_t cycles)
{
    t.live[PS_CNT_TIMESTAMP] += cycles;
    if (t.regs[PS_REG_CTRL / 4u] & PS_REG_CTRL_ENABLE) {
        t.live[PS_CNT_CYCLES] += cycles;
    }
}

uint32_t ps_test_reg(uint32_t offset)
{
    int s = slot(offset);
    return (s >= 0 && s < (int)REG_WORDS) ? t.regs[s] : 0u;
}

void ps_test_set_reg(uint32_t offset, uint32_t value)
{
    int s = slot(offset);
    if (s >= 0 && s < (int)REG_WORDS) {
        t.regs[s] = value;
    }
}

void ps_test_stick_reg(uint32_t offset, uint32_t value)
{
    int s = slot(offset);
    if (s >= 0) {
        t.stuck[s] = true;
        t.stuck_value[s] = value;
    }
}

ps_test_reg_stats_t ps_test_regs_stats(void) { return t.stats; }

#define TRC(reg) t.trc[((reg)-PS_REG_TRC_CMD) / 4u]

static bool trc_offset(uint32_t offset)
{
    return offset >= PS_REG_TRC_CMD && offset < PS_REG_TRC_CMD + 4u * 64u && (offset & 3u) == 0u;
}

void ps_test_trace_set(uint32_t status, uint32_t count, uint32_t trigger_index, uint32_t lost)
{
    TRC(PS_REG_TRC_STATUS) = status;
    TRC(PS_REG_TRC_COUNT) = count;
    TRC(PS_REG_TRC_TRIG_POS) = trigger_index;
    TRC(PS_REG_TRC_LOST) = lost;
}

uint32_t ps_test_trace_reg(uint32_t offset) { return trc_offset(offset) ? TRC(offset) : 0u; }

uint32_t ps_test_trace_pulses(uint32_t cmd_bit)
{
    for (unsigned b = 0; b < 3u; b++) {
        if (cmd_bit == (1u << b)) {
            return t.trc_pulses[b];
        }
    }
    return 0;
}

uint32_t ps_test_trace_record_reads(void) { return t.trc_record_reads; }

static uint32_t trc_read(uint32_t offset)
{
    if (offset >= PS_REG_TRC_REC_DW0 && offset < PS_REG_TRC_REC_DW0 + 4u * PS_TRC_REC_WORDS) {
        uint32_t index = TRC(PS_REG_TRC_RD_INDEX);
        t.trc_record_reads++;
        return index < TRC(PS_REG_TRC_COUNT) ? index * 0x10u + (offset - PS_REG_TRC_REC_DW0) / 4u
                                             : 0u;
    }
    return offset == PS_REG_TRC_CMD ? 0u : TRC(offset);
}

static void trc_write(uint32_t offset, uint32_t value)
{
    if (offset != PS_REG_TRC_CMD) {
        if (offset >= PS_REG_TRC_PRE && offset <= PS_REG_TRC_RD_INDEX) { /* the rw ones */
            TRC(offset) = value;
        }
        return;
    }
    for (unsigned b = 0; b < 3u; b++) {
        t.trc_pulses[b] += (value >> b) & 1u;
    }
    uint32_t state = TRC(PS_REG_TRC_STATUS) & 3u;
    if (value & PS_REG_TRC_CMD_ARM) {
        ps_test_trace_set(1u, 0u, 0u, 0u);
    } else if ((value & PS_REG_TRC_CMD_FORCE) && state == 1u) {
        TRC(PS_REG_TRC_STATUS) = 2u | PS_REG_TRC_STATUS_TRIGGERED;
        TRC(PS_REG_TRC_TRIG_POS) = TRC(PS_REG_TRC_COUNT);
    }
    if (value & PS_REG_TRC_CMD_STOP) {
        TRC(PS_REG_TRC_STATUS) = (TRC(PS_REG_TRC_STATUS) & ~3u) | 3u;
    }
}

uint32_t ps_hal_reg_read(uint32_t offset)
{
    t.stats.reads++;
    if (offset >= PS_TAP_STRIDE) { /* another tap's window: decoded only when there is one */
        return (t.taps >= 2u && offset < 2u * PS_TAP_STRIDE) ? tap1_read(offset - PS_TAP_STRIDE)
                                                             : 0u;
    }
    if (trc_offset(offset)) {
        return trc_read(offset);
    }
    static const uint32_t hist_bases[PS_HIST_KINDS] = PS_HIST_BASES;
    for (unsigned kind = 0; kind < PS_HIST_KINDS; kind++) {
        uint32_t base = hist_bases[kind];
        if (offset >= base && offset < base + 8u * PS_HIST_WORDS) {
            t.stats.hist_reads++;
            uint64_t v = t.hist_shadow[kind][(offset - base) / 8u];
            return (offset & 4u) ? (uint32_t)(v >> 32) : (uint32_t)v;
        }
    }
    int s = slot(offset);
    if (s < 0) {
        return 0; /* AXI decode error reads as 0 on this CSR block */
    }
    if (t.stuck[s]) {
        return t.stuck_value[s];
    }
    if (s >= (int)REG_WORDS) {
        unsigned w = (unsigned)s - REG_WORDS;
        t.stats.counter_reads_since_snapshot++;
        uint64_t v = t.shadow[w / 2u];
        return (w & 1u) ? (uint32_t)(v >> 32) : (uint32_t)v;
    }
    if (offset >= PS_REG_SMP_TS_LO && offset < PS_REG_SMP_TS_LO + 4u * PS_SMP_WORDS) {
        return t.smp_count == 0u ? 0u : t.smp[t.smp_head][(offset - PS_REG_SMP_TS_LO) / 4u];
    }
    switch (offset) {
    case PS_REG_SAMPLE_STATUS:
        return ((uint32_t)PS_TEST_SAMPLE_DEPTH << 16) | (uint32_t)t.smp_count;
    case PS_REG_CMD:
        return 0; /* write-only pulses */
    case PS_REG_STATUS:
        return t.regs[PS_REG_CTRL / 4u] & PS_REG_CTRL_ENABLE ? PS_REG_STATUS_ENABLED : 0u;
    default:
        return t.regs[s];
    }
}

void ps_hal_reg_write(uint32_t offset, uint32_t value)
{
    t.stats.writes++;
    if (offset >= PS_TAP_STRIDE) {
        if (t.taps >= 2u && offset < 2u * PS_TAP_STRIDE) {
            tap1_write(offset - PS_TAP_STRIDE, value);
        }
        return;
    }
    if (trc_offset(offset)) {
        trc_write(offset, value);
        return;
    }
    switch (offset) {
    case PS_REG_CTRL:
        t.regs[PS_REG_CTRL / 4u] = value;
        break;
    case PS_REG_BAR_LATENCY:
        t.regs[PS_REG_BAR_LATENCY / 4u] = value & 0xFFFFu;
        break;
    case PS_REG_SAMPLE_PERIOD: /* bits 17:0 kept, as the CSR block does */
        t.regs[PS_REG_SAMPLE_PERIOD / 4u] = value & 0x3FFFFu;
        break;
    case PS_REG_FILTER_CTRL:
        t.regs[PS_REG_FILTER_CTRL / 4u] = value & PS_REG_FILTER_CTRL_EN;
        break;
    case PS_REG_FILTER_BASE_LO:
    case PS_REG_FILTER_BASE_HI:
    case PS_REG_FILTER_LIMIT_LO:
    case PS_REG_FILTER_LIMIT_HI:
        t.regs[offset / 4u] = value;
        break;
    case PS_REG_CMD:
        if (value & PS_REG_CMD_SNAPSHOT) {
            memcpy(t.shadow, t.live, sizeof t.shadow);
            memcpy(t.hist_shadow, t.hist_live, sizeof t.hist_shadow);
            t.stats.snapshots++;
            t.stats.counter_reads_since_snapshot = 0;
        }
        if ((value & PS_REG_CMD_SAMPLE_POP) && t.smp_count != 0u) {
            t.smp_head = (t.smp_head + 1u) % PS_TEST_SAMPLE_DEPTH;
            t.smp_count--;
        }
        if (value & PS_REG_CMD_CLEAR) { /* running counters only; TIMESTAMP is never cleared */
            memset(t.hist_live, 0, sizeof t.hist_live);
            for (unsigned i = 0; i < PS_CNT_COUNT; i++) {
                if (i != PS_CNT_TIMESTAMP) {
                    t.live[i] = 0;
                }
            }
            t.stats.clears++;
        }
        break;
    default:
        break; /* read-only and unmapped registers ignore writes */
    }
}

size_t ps_test_rx_push(const uint8_t *data, size_t len)
{
    if (t.rx_head == t.rx_tail) {
        t.rx_head = t.rx_tail = 0;
    }
    size_t room = PS_TEST_RX_BYTES - t.rx_tail;
    if (len > room && t.rx_head != 0u) { /* compact */
        memmove(t.rx, &t.rx[t.rx_head], t.rx_tail - t.rx_head);
        t.rx_tail -= t.rx_head;
        t.rx_head = 0;
        room = PS_TEST_RX_BYTES - t.rx_tail;
    }
    size_t n = len < room ? len : room;
    memcpy(&t.rx[t.rx_tail], data, n);
    t.rx_tail += n;
    return n;
}

size_t ps_test_rx_pending(void) { return t.rx_tail - t.rx_head; }

void ps_test_rx_set_chunk(size_t max_per_read) { t.rx_chunk = max_per_read; }

void ps_test_rx_drop_every(unsigned n) { t.rx_drop_every = n; }

void ps_test_rx_corrupt_at(size_t byte_number, uint8_t xor_mask)
{
    t.rx_corrupt_armed = true;
    t.rx_corrupt_at = byte_number;
    t.rx_corrupt_mask = xor_mask;
}

size_t ps_test_rx_consumed(void) { return t.rx_consumed; }

size_t ps_hal_uart_read(uint8_t *buf, size_t max)
{
    size_t limit = max < t.rx_chunk ? max : t.rx_chunk;
    size_t out = 0;
    while (out < limit && t.rx_head < t.rx_tail) {
        uint8_t b = t.rx[t.rx_head++];
        size_t number = t.rx_consumed++;
        if (t.rx_drop_every != 0u && (number + 1u) % t.rx_drop_every == 0u) {
            continue; /* lost on the line */
        }
        if (t.rx_corrupt_armed && number == t.rx_corrupt_at) {
            b = (uint8_t)(b ^ t.rx_corrupt_mask);
            t.rx_corrupt_armed = false;
        }
        buf[out++] = b;
    }
    return out;
}

size_t ps_test_tx_pending(void) { return t.tx_tail - t.tx_head; }

size_t ps_test_tx_take(uint8_t *dst, size_t cap)
{
    size_t n = ps_test_tx_pending();
    if (n > cap) {
        n = cap;
    }
    memcpy(dst, &t.tx[t.tx_head], n);
    t.tx_head += n;
    if (t.tx_head == t.tx_tail) {
        t.tx_head = t.tx_tail = 0;
    }
    return n;
}

void ps_test_tx_set_accept(size_t max_per_write) { t.tx_accept = max_per_write; }

uint32_t ps_test_tx_write_calls(void) { return t.tx_calls; }

size_t ps_hal_uart_write(const uint8_t *buf, size_t len)
{
    t.tx_calls++;
    if (t.tx_head != 0u && t.tx_head == t.tx_tail) {
        t.tx_head = t.tx_tail = 0;
    }
    size_t n = len < t.tx_accept ? len : t.tx_accept;
    size_t room = PS_TEST_TX_BYTES - t.tx_tail;
    if (n > room && t.tx_head != 0u) {
        memmove(t.tx, &t.tx[t.tx_head], t.tx_tail - t.tx_head);
        t.tx_tail -= t.tx_head;
        t.tx_head = 0;
        room = PS_TEST_TX_BYTES - t.tx_tail;
    }
    if (n > room) {
        n = room;
    }
    memcpy(&t.tx[t.tx_tail], buf, n);
    t.tx_tail += n;
    return n;
}

void ps_test_time_set(uint64_t us) { t.now_us = us; }

void ps_test_time_advance(uint64_t us) { t.now_us += us; }

uint64_t ps_hal_time_us(void) { return t.now_us; }

/* Outside t: ps_test_reset must not hide an assertion a test case caused. */
static ps_test_assert_record_t g_asserts;
static unsigned g_log_count;
static char g_log_last[PS_LOG_LINE_BYTES];

void ps_hal_assert_failed(const char *file, int line, const char *expr)
{
    g_asserts.count++;
    g_asserts.file = file;
    g_asserts.line = line;
    g_asserts.expr = expr;
}

ps_test_assert_record_t ps_test_asserts(void) { return g_asserts; }

void ps_test_asserts_clear(void) { memset(&g_asserts, 0, sizeof g_asserts); }

void ps_hal_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(g_log_last, sizeof g_log_last, fmt, ap);
    va_end(ap);
    g_log_count++;
}

unsigned ps_test_log_count(void) { return g_log_count; }

const char *ps_test_log_last(void) { return g_log_last; }

void ps_test_log_clear(void)
{
    g_log_count = 0;
    g_log_last[0] = '\0';
}

bool ps_test_sample_push(const uint32_t words[PS_SMP_WORDS])
{
    if (t.smp_count == PS_TEST_SAMPLE_DEPTH) { /* full: the probe counts it in SAMPLE_OVERFLOW */
        t.regs[PS_REG_SAMPLE_OVERFLOW / 4u]++;
        return false;
    }
    memcpy(t.smp[(t.smp_head + t.smp_count) % PS_TEST_SAMPLE_DEPTH], words, sizeof t.smp[0]);
    t.smp_count++;
    return true;
}

size_t ps_test_sample_level(void) { return t.smp_count; }
