/*
 * hal_xilinx.c - ps_hal on a MicroBlaze: polled, interrupt-free, low-level drivers only.
 *
 * Base addresses come from the BSP's xparameters.h. The XPAR_* names depend on the instance
 * names of the block design; the PS_XIL_* defaults that name them are in ps_config.h, override
 * them on the compiler command line (or in a ps_config_port.h) if they differ.
 */
#include "hal_xilinx.h"

#include "ps_config.h"

#include <stdarg.h>
#include <stdio.h>

#include "xparameters.h" /* first: the BSP's instance names */

#include "xil_io.h"
#include "xtmrctr_l.h"
#include "xuartlite_l.h"

static uint32_t g_last_count; /* timer value at the previous ps_hal_time_us */
static uint64_t g_ticks;      /* 64-bit extension of the 32-bit timer */

void ps_hal_xilinx_init(void)
{
    /* Stop, load 0, then run up-counting with auto-reload: wraps every 2^32 ticks. */
    XTmrCtr_SetControlStatusReg(PS_XIL_TIMER_BASEADDR, PS_XIL_TIMER, 0u);
    XTmrCtr_SetLoadReg(PS_XIL_TIMER_BASEADDR, PS_XIL_TIMER, 0u);
    XTmrCtr_LoadTimerCounterReg(PS_XIL_TIMER_BASEADDR, PS_XIL_TIMER);
    XTmrCtr_SetControlStatusReg(PS_XIL_TIMER_BASEADDR, PS_XIL_TIMER, XTC_CSR_AUTO_RELOAD_MASK);
    XTmrCtr_Enable(PS_XIL_TIMER_BASEADDR, PS_XIL_TIMER);
    g_last_count = 0;
    g_ticks = 0;

    /* Drop bytes that arrived before we ran; leaves the UART interrupt disabled. */
    XUartLite_SetControlReg(PS_XIL_UART_BASEADDR, XUL_CR_FIFO_RX_RESET | XUL_CR_FIFO_TX_RESET);
}

uint32_t ps_hal_reg_read(uint32_t offset)
{
    return Xil_In32((UINTPTR)PS_XIL_CSR_BASEADDR + offset);
}

void ps_hal_reg_write(uint32_t offset, uint32_t value)
{
    Xil_Out32((UINTPTR)PS_XIL_CSR_BASEADDR + offset, value);
}

size_t ps_hal_uart_read(uint8_t *buf, size_t max)
{
    size_t n = 0;
    while (n < max && !XUartLite_IsReceiveEmpty(PS_XIL_UART_BASEADDR)) {
        buf[n++] = XUartLite_RecvByte(PS_XIL_UART_BASEADDR); /* cannot block: data is there */
    }
    return n;
}

size_t ps_hal_uart_write(const uint8_t *buf, size_t len)
{
    /* XUartLite_SendByte would spin on a full FIFO; fill only the free slots instead. */
    size_t n = 0;
    while (n < len && !XUartLite_IsTransmitFull(PS_XIL_UART_BASEADDR)) {
        XUartLite_WriteReg(PS_XIL_UART_BASEADDR, XUL_TX_FIFO_OFFSET, buf[n]);
        n++;
    }
    return n;
}

uint64_t ps_hal_time_us(void)
{
    /* Unsigned difference survives the 32-bit wrap if we are called once per wrap period
     * (43 s at 100 MHz); the superloop calls us every step. */
    uint32_t count = XTmrCtr_GetTimerCounterReg(PS_XIL_TIMER_BASEADDR, PS_XIL_TIMER);
    g_ticks += (uint32_t)(count - g_last_count);
    g_last_count = count;
    const uint64_t hz = (uint64_t)PS_XIL_TIMER_CLOCK_HZ;
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
    for (;;) {
        /* Stop here, with the cause above: a debugger shows it; a watchdog, if any, resets. */
    }
}

#if PS_LOG_ENABLE
/* PS_LOG messages, one per line, in a RAM ring a debugger can dump (g_log, g_log_at = where
 * the next byte goes): the UART is not free for text. */
static char g_log[PS_XIL_LOG_BYTES];
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
        at = (at + 1u) % PS_XIL_LOG_BYTES;
    }
    g_log_at = at;
}
#endif
