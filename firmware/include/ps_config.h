/*
 * ps_config.h - every tunable of the firmware, in one place.
 *
 * Each value below is a default, used only when the macro is not defined yet. To override:
 *
 *   - for one build, on the compiler command line: -DPS_TXQ_BYTES=4096u
 *   - for a port, in a header "ps_config_port.h" on the port's include path, and build with
 *     -DPS_CONFIG_PORT: it is included first, before any default. Wrap its values in #ifndef
 *     too, so that the command line still wins (command line > ps_config_port.h > defaults).
 *
 * Set a value for the whole build, never for one file: struct sizes depend on some of them.
 * The compile-time checks at the end hold for every override. Protocol sizes (frame lengths,
 * offsets, limits) are not tunables: they come from generated/pcie_scope_protocol.h.
 */
#ifndef PS_CONFIG_H
#define PS_CONFIG_H

#ifdef PS_CONFIG_PORT
#include "ps_config_port.h"
#endif

#include "generated/pcie_scope_protocol.h"

/* --- identity --------------------------------------------------------------------------- */

/* INFO firmwareVersion (u16): bump it when the firmware's behaviour changes. */
#ifndef PS_FIRMWARE_VERSION
#define PS_FIRMWARE_VERSION 1u
#endif

/* --- buffers (all static, inside ps_app_t) ---------------------------------------------- */

/* TX ring of encoded frames. 8 KiB holds the largest burst one step queues (in the switch
 * design a snapshot of each tap and then a latency histogram per kind and tap: 2 x ~280 +
 * 4 x ~735 B = 3.5 KiB) twice over, so a host that pauses reading for a burst's line time still
 * loses nothing: with 4 KiB, 600 B left queued when a burst came dropped its last histogram. At
 * least one maximal frame; any size works (a power of two keeps the ring's % a mask, which
 * matters on a MicroBlaze without a hardware divider). */
#ifndef PS_TXQ_BYTES
#define PS_TXQ_BYTES 8192u
#endif

/* Interval records are queued only while the TX ring holds at most this many bytes less two
 * maximal frames (the ring's size before the switch design's second tap), so a backed-up line
 * delays a snapshot behind records by at most about 2 KiB of line time (22 ms at 921 600 baud). */
#ifndef PS_APP_INTERVAL_TXQ_BYTES
#define PS_APP_INTERVAL_TXQ_BYTES 2048u
#endif

/* TRACE frames (a stopped trace being drained after TRACE_READ) are queued one per step at
 * most, and only while the TX ring holds at most this many bytes with the new frame: the other
 * half of the 8 KiB ring stays free for a step's burst of snapshots and histograms (3.5 KiB in
 * the switch design), so a drain never delays a snapshot by more than 4 KiB of line time (44 ms
 * at 921 600 baud) and never makes one drop. A 4 096-record trace is 142 frames of 29 records,
 * about 104 KB: some 1.2 s at 921 600 baud beside 10 snapshots a second. */
#ifndef PS_APP_TRACE_TXQ_BYTES
#define PS_APP_TRACE_TXQ_BYTES 4096u
#endif

/* Interval records held between the probe's FIFO and the UART (48 B each). When the UART
 * backs up the oldest are dropped and counted (INTERVAL.dropped). 64 = 3 KiB, about 7 full
 * INTERVAL frames: rides out a burst of records while snapshots keep the line. */
#ifndef PS_INTERVAL_RING_RECORDS
#define PS_INTERVAL_RING_RECORDS 64u
#endif

/* Receive chunk buffer. Chunks longer than PS_FRAME_MAX_ENCODED - 1 are overflows whatever
 * this size is, so more than PS_FRAME_MAX_ENCODED only wastes RAM. */
#ifndef PS_RX_BUF_BYTES
#define PS_RX_BUF_BYTES PS_FRAME_MAX_ENCODED
#endif

/* --- per-step budgets (bound the time one ps_app_step takes) ---------------------------- */

/* Received bytes handled per step. */
#ifndef PS_APP_RX_BUDGET
#define PS_APP_RX_BUDGET 512u
#endif

/* Bytes asked of ps_hal_uart_read per call (a stack buffer of ps_app_step). */
#ifndef PS_APP_RX_READ_BYTES
#define PS_APP_RX_READ_BYTES 64u
#endif

/* Interval records moved from the probe's FIFO per step (each is PS_SMP_WORDS + 1 register
 * accesses). */
#ifndef PS_APP_INTERVAL_PULL
#define PS_APP_INTERVAL_PULL 16u
#endif

/* A partly filled INTERVAL frame goes out after this long (a full one at once). */
#ifndef PS_APP_INTERVAL_FLUSH_US
#define PS_APP_INTERVAL_FLUSH_US 10000u
#endif

/* While streaming, a HISTOGRAM frame follows the first periodic snapshot after this long (and
 * every STOP and LATENCY_HISTOGRAM): reading its PS_HIST_WORDS bins costs 2 * PS_HIST_WORDS
 * register reads, so it stays out of the 100-per-second snapshots. */
#ifndef PS_APP_HISTOGRAM_US
#define PS_APP_HISTOGRAM_US 1000000u
#endif

/* --- debugging (ps_assert.h) -------------------------------------------------------------- */

/* 1: PS_ASSERT checks internal invariants and calls ps_hal_assert_failed; 0: compiled out. */
#ifndef PS_ASSERT_ENABLE
#define PS_ASSERT_ENABLE 1
#endif

/* 1: PS_LOG formats messages through ps_hal_log; 0 (the default, the board's UART carries the
 * protocol): compiled out. */
#ifndef PS_LOG_ENABLE
#define PS_LOG_ENABLE 0
#endif

/* Longest formatted PS_LOG message a port keeps, terminating NUL included (longer: cut). */
#ifndef PS_LOG_LINE_BYTES
#define PS_LOG_LINE_BYTES 96u
#endif

/* --- board port (hal/xilinx) ------------------------------------------------------------ */
/* The XPAR_* names come from the BSP's xparameters.h and depend on the block design's instance
 * names; they are expanded only inside hal_xilinx.c. */

#ifndef PS_XIL_CSR_BASEADDR
#define PS_XIL_CSR_BASEADDR XPAR_PCIE_SCOPE_CSR_0_BASEADDR
#endif
#ifndef PS_XIL_UART_BASEADDR
#define PS_XIL_UART_BASEADDR XPAR_UARTLITE_0_BASEADDR
#endif
#ifndef PS_XIL_TIMER_BASEADDR
#define PS_XIL_TIMER_BASEADDR XPAR_TMRCTR_0_BASEADDR
#endif
#ifndef PS_XIL_TIMER_CLOCK_HZ
#define PS_XIL_TIMER_CLOCK_HZ XPAR_TMRCTR_0_CLOCK_FREQ_HZ
#endif
/* Which timer of the AXI Timer runs free as the time base (0 or 1). */
#ifndef PS_XIL_TIMER
#define PS_XIL_TIMER 0u
#endif
/* With PS_LOG_ENABLE: RAM ring of the latest messages, for a debugger (JTAG) to read. */
#ifndef PS_XIL_LOG_BYTES
#define PS_XIL_LOG_BYTES 1024u
#endif

/* --- compile-time checks ---------------------------------------------------------------- */

#ifdef __cplusplus
#define PS_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define PS_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

#if PS_ASSERT_ENABLE != 0 && PS_ASSERT_ENABLE != 1
#error "PS_ASSERT_ENABLE must be 0 or 1"
#endif
#if PS_LOG_ENABLE != 0 && PS_LOG_ENABLE != 1
#error "PS_LOG_ENABLE must be 0 or 1"
#endif

PS_STATIC_ASSERT(PS_FIRMWARE_VERSION <= 0xFFFFu, "PS_FIRMWARE_VERSION is a u16 on the wire");
PS_STATIC_ASSERT(PS_TXQ_BYTES >= PS_FRAME_MAX_ENCODED,
                 "PS_TXQ_BYTES: the TX ring must hold one maximal encoded frame");
PS_STATIC_ASSERT(PS_APP_TRACE_TXQ_BYTES >= PS_FRAME_MAX_ENCODED
                     && PS_APP_TRACE_TXQ_BYTES <= PS_TXQ_BYTES,
                 "PS_APP_TRACE_TXQ_BYTES: room for one TRACE frame, within the TX ring");
PS_STATIC_ASSERT(PS_RX_BUF_BYTES >= PS_FRAME_MAX_ENCODED,
                 "PS_RX_BUF_BYTES: the receive buffer must hold one maximal encoded frame");
PS_STATIC_ASSERT(PS_APP_RX_BUDGET >= 1u, "PS_APP_RX_BUDGET: a step must read something");
PS_STATIC_ASSERT(PS_APP_RX_READ_BYTES >= 1u && PS_APP_RX_READ_BYTES <= 1024u,
                 "PS_APP_RX_READ_BYTES: 1..1024 (it lives on the small MicroBlaze stack)");
PS_STATIC_ASSERT(PS_LOG_LINE_BYTES >= 16u && PS_LOG_LINE_BYTES <= 256u,
                 "PS_LOG_LINE_BYTES: 16..256 (a stack buffer in the ports)");
PS_STATIC_ASSERT(PS_XIL_LOG_BYTES >= PS_LOG_LINE_BYTES,
                 "PS_XIL_LOG_BYTES: the log ring must hold one message");

#endif /* PS_CONFIG_H */
