/*
 * ps_hal.h - the one narrow interface between the portable firmware and a machine.
 *
 * Ports: hal/xilinx (MicroBlaze board), hal/versal (the VPK120's Cortex-R5F), hal/sim (the
 * twin), hal/test (host unit tests).
 * Exactly one port is linked into a build. Every call is non-blocking, except that
 * ps_hal_assert_failed may not return.
 */
#ifndef PS_HAL_H
#define PS_HAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* AXI4-Lite read / write of the probe CSR block; offset from the CSR base (PS_REG_*). */
uint32_t ps_hal_reg_read(uint32_t offset);
void ps_hal_reg_write(uint32_t offset, uint32_t value);

/* UART: bytes moved, 0 when nothing could be moved right now (never an error code). */
size_t ps_hal_uart_read(uint8_t *buf, size_t max);
size_t ps_hal_uart_write(const uint8_t *buf, size_t len);

/* Monotonic microseconds; only differences are meaningful. */
uint64_t ps_hal_time_us(void);

/* A PS_ASSERT failed (ps_assert.h): source file, line and the condition as written. The test
 * port records it and returns, the sim port prints to stderr and aborts, the board port stops
 * in a loop a debugger can inspect. Referenced only while PS_ASSERT_ENABLE is 1. */
void ps_hal_assert_failed(const char *file, int line, const char *expr);

/* One PS_LOG message, printf-style, no trailing newline; a port may cut it to
 * PS_LOG_LINE_BYTES. Referenced only while PS_LOG_ENABLE is 1 (a port may leave it out else). */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
void ps_hal_log(const char *fmt, ...);

#ifdef __cplusplus
}
#endif

#endif /* PS_HAL_H */
