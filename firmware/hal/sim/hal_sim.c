/* hal_sim.c - ps_hal on the twin: bus callbacks for registers, a non-blocking fd for the UART. */
#define _POSIX_C_SOURCE 200809L

#include "hal_sim.h"
#include "uart_fault.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static ps_sim_bus_t g_bus;
static bool g_bound;
static ps_uart_fault_t g_fault; /* the twin's `inject` faults, between the firmware's frames */

void ps_hal_sim_bind(const ps_sim_bus_t *bus)
{
    if (bus == NULL) {
        g_bound = false;
        return;
    }
    g_bus = *bus;
    g_bound = true;
    ps_uart_fault_init(&g_fault);
}

bool ps_hal_sim_inject(const char *kind, uint32_t count, uint32_t seed)
{
    ps_uart_fault_kind_t k;
    return ps_uart_fault_kind_of(kind, &k) && ps_uart_fault_arm(&g_fault, k, count, seed);
}

static size_t line_write(void *ctx, const uint8_t *buf, size_t len)
{
    (void)ctx;
    ssize_t n = write(g_bus.uart_fd, buf, len);
    return n > 0 ? (size_t)n : 0u;
}

uint32_t ps_hal_reg_read(uint32_t offset)
{
    if (!g_bound || g_bus.reg_read == NULL) {
        return 0;
    }
    return g_bus.reg_read(g_bus.ctx, offset);
}

void ps_hal_reg_write(uint32_t offset, uint32_t value)
{
    if (g_bound && g_bus.reg_write != NULL) {
        g_bus.reg_write(g_bus.ctx, offset, value);
    }
}

/* EAGAIN (nothing there), EIO (PTY slave closed), EINTR: nothing moved, try next step. */
size_t ps_hal_uart_read(uint8_t *buf, size_t max)
{
    if (!g_bound || g_bus.uart_fd < 0 || max == 0u) {
        return 0;
    }
    (void)ps_uart_fault_flush(&g_fault, line_write,
                              NULL); /* an idle firmware still gets garbage out */
    ssize_t n = read(g_bus.uart_fd, buf, max);
    return n > 0 ? (size_t)n : 0u;
}

size_t ps_hal_uart_write(const uint8_t *buf, size_t len)
{
    if (!g_bound || g_bus.uart_fd < 0 || len == 0u) {
        return 0;
    }
    return ps_uart_fault_write(&g_fault, buf, len, line_write, NULL);
}

uint64_t ps_hal_time_us(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
        return 0;
    }
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The twin's stderr is its log: an assertion is fatal there, as a crash would be. */
void ps_hal_assert_failed(const char *file, int line, const char *expr)
{
    fprintf(stderr, "pcie-scope firmware: %s:%d: assertion failed: %s\n", file, line, expr);
    fflush(stderr);
    abort();
}

void ps_hal_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pcie-scope firmware: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
