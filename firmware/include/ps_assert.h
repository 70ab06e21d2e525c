/*
 * ps_assert.h - PS_ASSERT and PS_LOG: internal checks and debug messages a port can compile out.
 *
 * PS_ASSERT(cond) states an invariant of the firmware itself (a ring index in range, a buffer
 * sized for the largest frame, a caller inside the firmware keeping a contract). Never for
 * input: bad bytes from the UART are counted errors (rxBadFrames, rxOverflows, ...). When cond
 * is false it calls ps_hal_assert_failed(__FILE__, __LINE__, "cond"); the port decides what
 * follows (test: records it and returns; sim: prints to stderr and aborts; board: stops for a
 * debugger). Code after an assertion still handles the case, so a hook that returns is safe.
 *
 * PS_LOG(fmt, ...) formats a printf-style message through ps_hal_log (no trailing newline).
 *
 * PS_ASSERT_ENABLE / PS_LOG_ENABLE = 0 (ps_config.h) compile them out: nothing is evaluated
 * and the hooks are not referenced. A disabled PS_ASSERT still type-checks its condition
 * (inside sizeof, never evaluated), so it cannot rot and leaves no unused-variable warning.
 */
#ifndef PS_ASSERT_H
#define PS_ASSERT_H

#include "ps_config.h"
#include "ps_hal.h"

#if PS_ASSERT_ENABLE
#define PS_ASSERT(cond) ((cond) ? (void)0 : ps_hal_assert_failed(__FILE__, __LINE__, #cond))
#else
#define PS_ASSERT(cond) ((void)sizeof(!(cond)))
#endif

#if PS_LOG_ENABLE
#define PS_LOG(...) ps_hal_log(__VA_ARGS__)
#else
#define PS_LOG(...) ((void)0)
#endif

#endif /* PS_ASSERT_H */
