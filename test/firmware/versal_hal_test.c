/*
 * versal_hal_test.c - the Versal board port (firmware/hal/versal) on the host, against a model
 * of the registers it touches: a PL011 with 32-byte FIFOs, a TTC counter the test sets, the
 * probe CSR as a word array. Checks the UART set-up (divisors for 921 600 baud at 100 MHz,
 * 8N1 with FIFOs, enabled last, stale bytes drained), non-blocking reads and writes that stop at
 * an empty / full FIFO, the time base across the counter's 32-bit wrap, and CSR accesses at the
 * board's base address. Built by `make -C firmware versal-check` with PS_VSL_IO_EXTERN.
 */
#include "hal_versal.h"
#include "ps_config.h"
#include "th.h"

#include <stdint.h>
#include <string.h>

enum {
    FIFO = 32,
    CSR_WORDS = 1024,
    LOG_MAX = 64
};

typedef struct model {
    uint8_t rx[FIFO * 4];
    size_t rx_head, rx_len;
    uint8_t tx[FIFO * 4];
    size_t tx_len, tx_room;
    uint32_t ibrd, fbrd, lcr_h, cr, imsc;
    int cr_writes_before_enable; /* divisor writes seen while the UART was off */
    uint32_t ttc_value, ttc_clk_ctrl, ttc_cnt_ctrl;
    int ttc_reset;
    uint32_t csr[CSR_WORDS];
    uintptr_t bad_addr;
} model_t;

static model_t g_m;

static int in_range(uintptr_t addr, uintptr_t base, uintptr_t size)
{
    return addr >= base && addr < base + size;
}

uint32_t ps_vsl_read32(uintptr_t addr)
{
    if (addr == PS_VSL_UART_BASEADDR + 0x018u) {
        uint32_t fr = 0;
        if (g_m.rx_len == 0)
            fr |= 1u << 4; /* RXFE */
        if (g_m.tx_room == 0)
            fr |= 1u << 5; /* TXFF */
        return fr;
    }
    if (addr == PS_VSL_UART_BASEADDR + 0x000u) {
        if (g_m.rx_len == 0)
            return 0;
        uint8_t b = g_m.rx[g_m.rx_head];
        g_m.rx_head = (g_m.rx_head + 1) % sizeof g_m.rx;
        g_m.rx_len--;
        return 0x0F00u | b; /* error flags set: the HAL keeps the data byte only */
    }
    if (addr == PS_VSL_TTC_BASEADDR + 0x18u)
        return g_m.ttc_value;
    if (in_range(addr, PS_VSL_CSR_BASEADDR, CSR_WORDS * 4u))
        return g_m.csr[(addr - PS_VSL_CSR_BASEADDR) / 4u];
    g_m.bad_addr = addr;
    return 0xDEADBEEFu;
}

void ps_vsl_write32(uintptr_t addr, uint32_t value)
{
    const uintptr_t u = PS_VSL_UART_BASEADDR;
    if (addr == u + 0x000u) {
        TH_CHECK(g_m.tx_room > 0);
        if (g_m.tx_room > 0 && g_m.tx_len < sizeof g_m.tx) {
            g_m.tx[g_m.tx_len++] = (uint8_t)value;
            g_m.tx_room--;
        }
    } else if (addr == u + 0x024u) {
        g_m.ibrd = value;
        g_m.cr_writes_before_enable += (g_m.cr & 1u) == 0;
    } else if (addr == u + 0x028u) {
        g_m.fbrd = value;
        g_m.cr_writes_before_enable += (g_m.cr & 1u) == 0;
    } else if (addr == u + 0x02Cu) {
        g_m.lcr_h = value;
    } else if (addr == u + 0x030u) {
        g_m.cr = value;
    } else if (addr == u + 0x038u) {
        g_m.imsc = value;
    } else if (addr == PS_VSL_TTC_BASEADDR + 0x00u) {
        g_m.ttc_clk_ctrl = value;
    } else if (addr == PS_VSL_TTC_BASEADDR + 0x0Cu) {
        g_m.ttc_cnt_ctrl = value;
        if (value & (1u << 4)) {
            g_m.ttc_value = 0;
            g_m.ttc_reset++;
        }
    } else if (in_range(addr, PS_VSL_CSR_BASEADDR, CSR_WORDS * 4u)) {
        g_m.csr[(addr - PS_VSL_CSR_BASEADDR) / 4u] = value;
    } else {
        g_m.bad_addr = addr;
    }
}

static void rx_push(const char *s)
{
    for (size_t i = 0; s[i] != '\0'; i++) {
        g_m.rx[(g_m.rx_head + g_m.rx_len) % sizeof g_m.rx] = (uint8_t)s[i];
        g_m.rx_len++;
    }
}

static void fresh(void)
{
    memset(&g_m, 0, sizeof g_m);
    g_m.tx_room = FIFO;
    g_m.ttc_value = 12345u; /* running since boot */
    rx_push("stale");
}

static void test_init_programs_uart_and_timer(void)
{
    fresh();
    ps_hal_versal_init();
    TH_EQ(g_m.ibrd, 6u);  /* 100 MHz / (16 x 921 600) = 6.78 */
    TH_EQ(g_m.fbrd, 50u); /* round(0.78 x 64) */
    TH_EQ(g_m.cr_writes_before_enable, 2);
    TH_EQ(g_m.lcr_h, (3u << 5) | (1u << 4)); /* 8 bits, FIFOs on, no parity, 1 stop bit */
    TH_EQ(g_m.cr, (1u << 0) | (1u << 8) | (1u << 9));
    TH_EQ(g_m.imsc, 0u);
    TH_EQ(g_m.rx_len, 0u); /* the bytes from before are gone */
    TH_EQ(g_m.ttc_reset, 1);
    TH_EQ(g_m.ttc_clk_ctrl, 0u);
    TH_EQ(g_m.ttc_cnt_ctrl & 1u, 0u); /* running */
    TH_EQ(g_m.bad_addr, 0u);
}

static void test_uart_read_stops_when_empty(void)
{
    fresh();
    ps_hal_versal_init();
    uint8_t buf[16];
    TH_EQ(ps_hal_uart_read(buf, sizeof buf), 0u);
    rx_push("abc");
    TH_EQ(ps_hal_uart_read(buf, 2), 2u);
    TH_EQ(buf[0], 'a');
    TH_EQ(buf[1], 'b');
    TH_EQ(ps_hal_uart_read(buf, sizeof buf), 1u);
    TH_EQ(buf[0], 'c');
}

static void test_uart_write_stops_when_full(void)
{
    fresh();
    ps_hal_versal_init();
    uint8_t msg[40];
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)i;
    TH_EQ(ps_hal_uart_write(msg, sizeof msg), (size_t)FIFO); /* never spins on a full FIFO */
    TH_EQ(ps_hal_uart_write(msg, sizeof msg), 0u);
    g_m.tx_room = 3;
    TH_EQ(ps_hal_uart_write(msg + FIFO, sizeof msg - FIFO), 3u);
    TH_EQ(g_m.tx_len, (size_t)FIFO + 3u);
    TH_EQ(g_m.tx[FIFO + 2], FIFO + 2);
}

static void test_time_across_the_wrap(void)
{
    fresh();
    ps_hal_versal_init();
    TH_EQ(ps_hal_time_us(), 0u);
    g_m.ttc_value = 100u * 1000u; /* 1 ms at 100 MHz */
    TH_EQ(ps_hal_time_us(), 1000u);
    g_m.ttc_value = 0xFFFFFF00u;
    uint64_t before = ps_hal_time_us();
    g_m.ttc_value = 0x00000100u; /* wrapped: 512 ticks later */
    uint64_t after = ps_hal_time_us();
    TH_CHECK(after > before);
    TH_EQ((after * 100u) - (before * 100u) <= 512u + 100u, 1);
    TH_EQ(after, ((uint64_t)0x100000100u) / 100u);
}

static void test_csr_at_the_board_base(void)
{
    fresh();
    ps_hal_versal_init();
    ps_hal_reg_write(0x10u, 0xA5A5A5A5u);
    TH_EQ(g_m.csr[4], 0xA5A5A5A5u);
    g_m.csr[0x100] = 0x12345678u;
    TH_EQ(ps_hal_reg_read(0x400u), 0x12345678u);
    TH_EQ(g_m.bad_addr, 0u);
}

int main(void)
{
    TH_RUN(test_init_programs_uart_and_timer);
    TH_RUN(test_uart_read_stops_when_empty);
    TH_RUN(test_uart_write_stops_when_full);
    TH_RUN(test_time_across_the_wrap);
    TH_RUN(test_csr_at_the_board_base);
    return th_finish("versal hal: ");
}
