/* uart_fault.c - the twin's serial-line faults, between the firmware's frames (uart_fault.h). */
#include "uart_fault.h"

#include <string.h>

#include "ps_cobs.h"
#include "ps_crc16.h"
#include "ps_frame.h"
#include "ps_le.h"

static const char *const k_names[PS_UART_FAULT_KINDS] = {"garbage", "truncate", "crc", "skip-seq"};

void ps_uart_fault_init(ps_uart_fault_t *f)
{
    memset(f, 0, sizeof *f);
    f->rng = 0x9E3779B9u;
}

const char *ps_uart_fault_name(ps_uart_fault_kind_t kind)
{
    return (unsigned)kind < PS_UART_FAULT_KINDS ? k_names[kind] : "?";
}

bool ps_uart_fault_kind_of(const char *name, ps_uart_fault_kind_t *kind)
{
    for (unsigned k = 0; k < PS_UART_FAULT_KINDS; k++) {
        if (strcmp(name, k_names[k]) == 0) {
            *kind = (ps_uart_fault_kind_t)k;
            return true;
        }
    }
    return false;
}

bool ps_uart_fault_arm(ps_uart_fault_t *f, ps_uart_fault_kind_t kind, uint32_t count, uint32_t seed)
{
    switch (kind) {
    case PS_UART_FAULT_GARBAGE:
        if (count == 0u || count > PS_UART_FAULT_GARBAGE_MAX - f->garbage) {
            return false;
        }
        if (seed != 0u) {
            f->rng = seed;
        }
        f->garbage += count;
        return true;
    case PS_UART_FAULT_TRUNCATE:
    case PS_UART_FAULT_CRC:
    case PS_UART_FAULT_SKIP_SEQ:
        if (count == 0u || count > PS_UART_FAULT_COUNT_MAX) {
            return false;
        }
        if (kind == PS_UART_FAULT_TRUNCATE) {
            f->truncate += count;
        } else if (kind == PS_UART_FAULT_CRC) {
            f->bad_crc += count;
        } else {
            f->seq_skip = (uint16_t)(f->seq_skip + count);
            f->injected[kind]++;
        }
        return true;
    case PS_UART_FAULT_KINDS:
        break;
    }
    return false;
}

static uint8_t next_nonzero(ps_uart_fault_t *f)
{
    uint8_t b;
    do {
        uint32_t x = f->rng; /* xorshift32 */
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        f->rng = x;
        b = (uint8_t)(x >> 24);
    } while (b == 0u);
    return b;
}

static void owe(ps_uart_fault_t *f, const uint8_t *buf, size_t len)
{
    memcpy(&f->out[f->out_len], buf, len);
    f->out_len += len;
}

/* Garbage goes out only where a frame may start: never inside one of the firmware's. */
static void queue_garbage(ps_uart_fault_t *f)
{
    if (f->garbage == 0u || f->mid_frame || f->collecting) {
        return;
    }
    for (uint32_t i = 0; i < f->garbage; i++) {
        f->out[f->out_len++] = next_nonzero(f);
    }
    f->out[f->out_len++] = (uint8_t)PS_FRAME_DELIMITER;
    f->garbage = 0u;
    f->injected[PS_UART_FAULT_GARBAGE]++;
}

bool ps_uart_fault_flush(ps_uart_fault_t *f, ps_uart_sink_fn sink, void *ctx)
{
    if (f->out_len == 0u) {
        queue_garbage(f);
    }
    while (f->out_pos < f->out_len) {
        size_t n = sink(ctx, &f->out[f->out_pos], f->out_len - f->out_pos);
        if (n == 0u) {
            return false;
        }
        f->out_pos += n;
    }
    f->out_pos = 0u;
    f->out_len = 0u;
    return true;
}

static bool rewriting(const ps_uart_fault_t *f)
{
    return f->truncate != 0u || f->bad_crc != 0u || f->seq_skip != 0u;
}

/* One whole frame of the firmware's (delimiter included) becomes what the line carries. */
static void rewrite(ps_uart_fault_t *f)
{
    const size_t enc_len = f->frame_len - 1u;
    if (f->truncate != 0u && enc_len >= 2u) {
        f->truncate--;
        f->injected[PS_UART_FAULT_TRUNCATE]++;
        owe(f, f->frame, enc_len / 2u);
        f->out[f->out_len++] = (uint8_t)PS_FRAME_DELIMITER;
        return;
    }
    uint8_t raw[PS_FRAME_MAX_RAW];
    ps_cobs_result_t dec = ps_cobs_decode(raw, sizeof raw, f->frame, enc_len);
    if (dec.status != PS_COBS_OK || dec.len < PS_FRAME_OVERHEAD_BYTES) {
        owe(f, f->frame, f->frame_len); /* not a frame we can read: it goes as it came */
        return;
    }
    const size_t body = dec.len - PS_FRAME_CRC_BYTES;
    ps_put_u16le(&raw[1], (uint16_t)(ps_get_u16le(&raw[1]) + f->seq_skip));
    uint16_t crc = ps_crc16(raw, body);
    if (f->bad_crc != 0u) {
        f->bad_crc--;
        f->injected[PS_UART_FAULT_CRC]++;
        crc ^= 0xFFFFu;
    }
    ps_put_u16le(&raw[body], crc);
    ps_cobs_result_t enc =
        ps_cobs_encode(&f->out[f->out_len], sizeof f->out - f->out_len - 1u, raw, dec.len);
    if (enc.status != PS_COBS_OK) {
        owe(f, f->frame, f->frame_len);
        return;
    }
    f->out_len += enc.len;
    f->out[f->out_len++] = (uint8_t)PS_FRAME_DELIMITER;
}

size_t ps_uart_fault_write(ps_uart_fault_t *f, const uint8_t *buf, size_t len, ps_uart_sink_fn sink,
                           void *ctx)
{
    if (!ps_uart_fault_flush(f, sink, ctx)) {
        return 0u; /* what is owed goes first; the firmware tries again next step */
    }
    if (!f->collecting && !f->mid_frame && rewriting(f)) {
        f->collecting = true;
        f->frame_len = 0u;
    }
    if (!f->collecting) {
        size_t n = sink(ctx, buf, len);
        if (n > len) {
            n = len;
        }
        if (n != 0u) {
            f->mid_frame = buf[n - 1u] != (uint8_t)PS_FRAME_DELIMITER;
        }
        return n;
    }
    size_t n = 0u;
    while (n < len) {
        const uint8_t b = buf[n++];
        f->frame[f->frame_len++] = b;
        if (b == (uint8_t)PS_FRAME_DELIMITER) {
            f->collecting = false;
            if (f->frame_len > 1u) {
                rewrite(f);
            } else {
                owe(f, f->frame, 1u);
            }
            break;
        }
        if (f->frame_len == sizeof f->frame) { /* longer than any frame: pass it on untouched */
            owe(f, f->frame, f->frame_len);
            f->collecting = false;
            f->mid_frame = true;
            break;
        }
    }
    (void)ps_uart_fault_flush(f, sink, ctx);
    return n;
}
