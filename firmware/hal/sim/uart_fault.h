/*
 * uart_fault.h - faults the twin puts on its own serial line, between the firmware's frames
 * (the twin's stdin `inject ...`, docs/contracts.md §3). The firmware's code runs unchanged: the
 * sim HAL passes each ps_hal_uart_write through this filter, which knows frames only by their
 * 0x00 delimiters, the way a host's decoder does.
 *
 *   garbage N   N random non-zero bytes and a delimiter at the next frame boundary: one junk frame
 *   truncate    the next frame cut after half its encoded bytes, then a delimiter
 *   crc         the next frame with its CRC inverted (COBS still valid)
 *   skip-seq N  every later frame's sequence number advanced by N (CRC recomputed): a gap of N
 *
 * The state is one caller-allocated struct; nothing is allocated.
 */
#ifndef PS_UART_FAULT_H
#define PS_UART_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "generated/pcie_scope_protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most garbage bytes waiting at once (more than a frame, less than a second of snapshots). */
#define PS_UART_FAULT_GARBAGE_MAX 4096u
/* Most frames to cut or corrupt, or sequence numbers to skip, in one injection: a host reads a
 * larger jump as a step back, not a loss. */
#define PS_UART_FAULT_COUNT_MAX 0x7FFFu

typedef enum ps_uart_fault_kind {
    PS_UART_FAULT_GARBAGE = 0,
    PS_UART_FAULT_TRUNCATE,
    PS_UART_FAULT_CRC,
    PS_UART_FAULT_SKIP_SEQ,
    PS_UART_FAULT_KINDS
} ps_uart_fault_kind_t;

/* Puts bytes on the line; returns how many it took (fewer when the line is full). */
typedef size_t (*ps_uart_sink_fn)(void *ctx, const uint8_t *buf, size_t len);

typedef struct ps_uart_fault {
    uint32_t garbage;  /* garbage bytes waiting for the next frame boundary */
    uint32_t rng;      /* xorshift32 state of the garbage */
    uint32_t truncate; /* frames still to cut */
    uint32_t bad_crc;  /* frames still to corrupt */
    uint16_t seq_skip; /* added to every frame's sequence number from now on */
    bool mid_frame;    /* the firmware's last byte on the line was not a delimiter */
    bool collecting;   /* a frame is being held whole to be rewritten */
    size_t frame_len;
    uint8_t frame[PS_FRAME_MAX_ENCODED];
    size_t out_len, out_pos; /* bytes owed to the line before any more of the firmware's */
    uint8_t out[PS_UART_FAULT_GARBAGE_MAX + PS_FRAME_MAX_ENCODED];
    uint32_t injected[PS_UART_FAULT_KINDS]; /* faults put on the line so far, by kind */
} ps_uart_fault_t;

void ps_uart_fault_init(ps_uart_fault_t *f);

/* Name of a kind as the stdin command spells it ("garbage", "truncate", "crc", "skip-seq"). */
const char *ps_uart_fault_name(ps_uart_fault_kind_t kind);
/* The kind of a name; false when there is none. */
bool ps_uart_fault_kind_of(const char *name, ps_uart_fault_kind_t *kind);

/*
 * Arms a fault: count is the garbage's bytes (1..PS_UART_FAULT_GARBAGE_MAX), the frames to cut
 * or corrupt, or the sequence numbers to skip (1..PS_UART_FAULT_COUNT_MAX); seed seeds the garbage
 * (0: keep the current stream). False (nothing armed) when count is out of range.
 */
bool ps_uart_fault_arm(ps_uart_fault_t *f, ps_uart_fault_kind_t kind, uint32_t count,
                       uint32_t seed);

/* The firmware's write: returns how many of its bytes were accepted (never more than len). */
size_t ps_uart_fault_write(ps_uart_fault_t *f, const uint8_t *buf, size_t len, ps_uart_sink_fn sink,
                           void *ctx);

/* Sends what is owed (garbage armed at a boundary included); true once nothing is left owed. */
bool ps_uart_fault_flush(ps_uart_fault_t *f, ps_uart_sink_fn sink, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* PS_UART_FAULT_H */
