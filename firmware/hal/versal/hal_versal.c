/*
 * hal_versal.c - ps_hal on the VPK120's Cortex-R5F: PS UART0 (PL011), TTC0 counter 1, and the
 * probe CSR in the PL. Addresses and clocks: ps_config_port.h in this folder.
 */
#include "hal_versal.h"

#include "hal_versal_io.h"
#include "ps_config.h"

#include <stdarg.h>
#include <stdio.h>

/* PL011 (Arm PrimeCell UART TRM): data, flags, baud divisors, line and control. */
enum ps_vsl_uart_reg {
    PS_VSL_UART_DR = 0x000u,
    PS_VSL_UART_FR = 0x018u,
    PS_VSL_UART_IBRD = 0x024u,
    PS_VSL_UART_FBRD = 0x028u,
    PS_VSL_UART_LCR_H = 0x02Cu,
    PS_VSL_UART_CR = 0x030u,
    PS_VSL_UART_IMSC = 0x038u,
};
enum ps_vsl_uart_bit {
    PS_VSL_FR_BUSY = 1u << 3,
    PS_VSL_FR_RXFE = 1u << 4,
    PS_VSL_FR_TXFF = 1u << 5,
    PS_VSL_LCR_FEN = 1u << 4,
    PS_VSL_LCR_WLEN8 = 3u << 5,
    PS_VSL_CR_UARTEN = 1u << 0,
    PS_VSL_CR_TXE = 1u << 8,
    PS_VSL_CR_RXE = 1u << 9,
};

/* TTC (Cadence triple timer, Versal TRM AM011): counter 1's clock control, counter control and
 * value. Counter control 0 = enabled, overflow mode, counting up; RST restarts it from 0. */
enum ps_vsl_ttc_reg {
    PS_VSL_TTC_CLK_CTRL = 0x00u,
    PS_VSL_TTC_CNT_CTRL = 0x0Cu,
    PS_VSL_TTC_CNT_VALUE = 0x18u,
};
enum ps_vsl_ttc_bit {
    PS_VSL_TTC_CNT_DIS = 1u << 0,
    PS_VSL_TTC_CNT_RST = 1u << 4,
};

static uint32_t uart_read(uint32_t reg)
{
    return ps_vsl_read32((uintptr_t)PS_VSL_UART_BASEADDR + reg);
}

static void uart_write(uint32_t reg, uint32_t value)
{
    ps_vsl_write32((uintptr_t)PS_VSL_UART_BASEADDR + reg, value);
}

static uint32_t g_last_count; /* TTC value at the previous ps_hal_time_us */
static uint64_t g_ticks;      /* 64-bit extension of the 32-bit counter */

void ps_hal_versal_init(void)
{
    /* UART: off while the divisors change (PL011 TRM: disable, wait for the last character,
     * program, enable); the fractional divisor is round(64 * remainder). */
    uart_write(PS_VSL_UART_CR, 0u);
    while ((uart_read(PS_VSL_UART_FR) & PS_VSL_FR_BUSY) != 0u) {
        /* the boot firmware's last character leaves */
    }
    /* 64 x clock / (16 x baud), rounded: the integer divisor and 6 fraction bits */
    const uint32_t div64 = (PS_VSL_UART_CLOCK_HZ * 4u + PS_VSL_UART_BAUD / 2u) / PS_VSL_UART_BAUD;
    uart_write(PS_VSL_UART_IBRD, div64 >> 6);
    uart_write(PS_VSL_UART_FBRD, div64 & 63u);
    uart_write(PS_VSL_UART_LCR_H,
               PS_VSL_LCR_WLEN8 | PS_VSL_LCR_FEN); /* 8N1; writing LCR_H latches the divisors */
    uart_write(PS_VSL_UART_IMSC, 0u);
    uart_write(PS_VSL_UART_CR, PS_VSL_CR_UARTEN | PS_VSL_CR_TXE | PS_VSL_CR_RXE);
    while ((uart_read(PS_VSL_UART_FR) & PS_VSL_FR_RXFE) == 0u) {
        (void)uart_read(PS_VSL_UART_DR); /* bytes from before we ran are not a frame */
    }

    /* TTC counter 1: APB clock, no prescaler, restarted from 0 and running. */
    ps_vsl_write32((uintptr_t)PS_VSL_TTC_BASEADDR + PS_VSL_TTC_CNT_CTRL, PS_VSL_TTC_CNT_DIS);
    ps_vsl_write32((uintptr_t)PS_VSL_TTC_BASEADDR + PS_VSL_TTC_CLK_CTRL, 0u);
    ps_vsl_write32((uintptr_t)PS_VSL_TTC_BASEADDR + PS_VSL_TTC_CNT_CTRL, PS_VSL_TTC_CNT_RST);
    g_last_count = 0;
    g_ticks = 0;
}

uint32_t ps_hal_reg_read(uint32_t offset)
{
    return ps_vsl_read32((uintptr_t)PS_VSL_CSR_BASEADDR + offset);
}

void ps_hal_reg_write(uint32_t offset, uint32_t value)
{
    ps_vsl_write32((uintptr_t)PS_VSL_CSR_BASEADDR + offset, value);
}

size_t ps_hal_uart_read(uint8_t *buf, size_t max)
{
    size_t n = 0;
    while (n < max && (uart_read(PS_VSL_UART_FR) & PS_VSL_FR_RXFE) == 0u) {
        buf[n++] = (uint8_t)(uart_read(PS_VSL_UART_DR) & 0xFFu); /* bits 11:8: error flags */
    }
    return n;
}

size_t ps_hal_uart_write(const uint8_t *buf, size_t len)
{
    /* only the free FIFO slots: never spin on a full one */
    size_t n = 0;
    while (n < len && (uart_read(PS_VSL_UART_FR) & PS_VSL_FR_TXFF) == 0u) {
        uart_write(PS_VSL_UART_DR, buf[n]);
        n++;
    }
    return n;
}

uint64_t ps_hal_time_us(void)
{
    /* the unsigned difference survives the 32-bit wrap (43 s at 100 MHz) if we are called once
     * a wrap period; the superloop calls us every step */
    uint32_t count = ps_vsl_read32((uintptr_t)PS_VSL_TTC_BASEADDR + PS_VSL_TTC_CNT_VALUE);
    g_ticks += (uint32_t)(count - g_last_count);
    g_last_count = count;
    const uint64_t hz = (uint64_t)PS_VSL_TTC_CLOCK_HZ;
    return (g_ticks / hz) * 1000000u + ((g_ticks % hz) * 1000000u) / hz;
}

/* Where the last failed PS_ASSERT was: the UART carries the protocol, so a debugger reads it. */
static const char *volatile g_assert_file;
static volatile int g_assert_line;
static const char *volatile g_assert_expr;

void ps_hal_assert_failed(const char *file, int line, const char *expr)
{
    g_assert_file = file;
    g_assert_line = line;
    g_assert_expr = expr;
#ifdef PS_VSL_IO_EXTERN
    /* the host test records it and goes on; the board stops below */
    return;
#else
    for (;;) {
        /* stop here, with the cause above, for a debugger */
    }
#endif
}

#if PS_LOG_ENABLE
/* PS_LOG messages, one per line, in a RAM ring a debugger can dump. */
static char g_log[PS_VSL_LOG_BYTES];
static volatile uint32_t g_log_at;

void ps_hal_log(const char *fmt, ...)
{
    char line[PS_LOG_LINE_BYTES];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0) {
        return;
    }
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1u;
    uint32_t at = g_log_at;
    for (size_t i = 0; i <= len; i++) {
        g_log[at] = i < len ? line[i] : '\n';
        at = (at + 1u) % PS_VSL_LOG_BYTES;
    }
    g_log_at = at;
}
#endif
