/*
 * sim_uart_fault_test.c - the twin's serial-line faults (firmware/hal/sim/uart_fault.c) on real
 * frames from ps_frame_build, through a line that takes a few bytes per call, as a full PTY does.
 */
#include <string.h>

#include "ps_cobs.h"
#include "ps_frame.h"
#include "ps_le.h"
#include "th.h"
#include "uart_fault.h"

typedef struct line {
    uint8_t buf[8192];
    size_t len;
    size_t per_call; /* bytes the line takes per write (0: none, the line is full) */
} line_t;

static size_t line_take(void *ctx, const uint8_t *buf, size_t len)
{
    line_t *l = ctx;
    size_t n = len < l->per_call ? len : l->per_call;
    if (n > sizeof l->buf - l->len) {
        n = sizeof l->buf - l->len;
    }
    memcpy(&l->buf[l->len], buf, n);
    l->len += n;
    return n;
}

static size_t frame_of(uint8_t *wire, uint16_t seq)
{
    uint8_t payload[40];
    for (size_t i = 0; i < sizeof payload; i++) {
        payload[i] = (uint8_t)(i * 7u); /* zeros inside: COBS has work to do */
    }
    return ps_frame_build(wire, PS_FRAME_MAX_ENCODED, PS_FRAME_SNAPSHOT, seq, payload,
                          sizeof payload)
        .len;
}

/* The firmware's loop: offer the rest of its bytes each step until the filter took them all. */
static void firmware_sends(ps_uart_fault_t *f, line_t *l, const uint8_t *wire, size_t len)
{
    size_t done = 0;
    for (int step = 0; done < len && step < 10000; step++) {
        done += ps_uart_fault_write(f, &wire[done], len - done, line_take, l);
    }
    TH_EQ(done, len);
    for (int step = 0; step < 10000 && !ps_uart_fault_flush(f, line_take, l); step++) {
    }
}

/* The frames on the line, split at delimiters: parse status and seq of each (-1: bad COBS). */
typedef struct seen {
    int status[16];
    uint16_t seq[16];
    size_t lens[16];
    size_t count;
} seen_t;

static seen_t split(const line_t *l)
{
    seen_t s;
    memset(&s, 0, sizeof s);
    size_t start = 0;
    for (size_t i = 0; i < l->len && s.count < 16u; i++) {
        if (l->buf[i] != 0u) {
            continue;
        }
        uint8_t raw[PS_FRAME_MAX_ENCODED];
        ps_cobs_result_t d = ps_cobs_decode(raw, sizeof raw, &l->buf[start], i - start);
        ps_frame_view_t v;
        memset(&v, 0, sizeof v);
        s.lens[s.count] = i - start;
        s.status[s.count] = d.status != PS_COBS_OK ? -1 : (int)ps_frame_parse(raw, d.len, &v);
        s.seq[s.count] = v.seq;
        s.count++;
        start = i + 1u;
    }
    return s;
}

static void nothing_armed_passes_frames_unchanged(void)
{
    static ps_uart_fault_t f;
    static line_t l;
    memset(&l, 0, sizeof l);
    l.per_call = 7u;
    ps_uart_fault_init(&f);
    uint8_t a[PS_FRAME_MAX_ENCODED], b[PS_FRAME_MAX_ENCODED];
    size_t na = frame_of(a, 1), nb = frame_of(b, 2);
    firmware_sends(&f, &l, a, na);
    firmware_sends(&f, &l, b, nb);
    TH_EQ(l.len, na + nb);
    TH_CHECK(memcmp(l.buf, a, na) == 0 && memcmp(&l.buf[na], b, nb) == 0);
}

static void garbage_goes_between_frames_as_one_junk_frame(void)
{
    static ps_uart_fault_t f;
    static line_t l;
    memset(&l, 0, sizeof l);
    l.per_call = 5u;
    ps_uart_fault_init(&f);
    uint8_t a[PS_FRAME_MAX_ENCODED], b[PS_FRAME_MAX_ENCODED];
    size_t na = frame_of(a, 1), nb = frame_of(b, 2);
    /* armed while the first frame is half out: it waits for that frame's delimiter */
    size_t half = na / 2u, done = 0;
    while (done < half) {
        done += ps_uart_fault_write(&f, &a[done], half - done, line_take, &l);
    }
    TH_CHECK(ps_uart_fault_arm(&f, PS_UART_FAULT_GARBAGE, 32, 7));
    TH_CHECK(ps_uart_fault_flush(&f, line_take, &l));
    TH_EQ(l.len, half);
    firmware_sends(&f, &l, &a[half], na - half);
    firmware_sends(&f, &l, b, nb);
    TH_EQ(l.len, na + 33u + nb);
    TH_CHECK(memcmp(l.buf, a, na) == 0);
    TH_CHECK(memchr(&l.buf[na], 0, 32) == NULL);
    TH_CHECK(memcmp(&l.buf[na + 33u], b, nb) == 0);
    seen_t s = split(&l);
    TH_EQ(s.count, 3u);
    TH_EQ(s.status[0], PS_FRAME_OK);
    TH_CHECK(s.status[1] != PS_FRAME_OK);
    TH_EQ(s.status[2], PS_FRAME_OK);
    TH_EQ(f.injected[PS_UART_FAULT_GARBAGE], 1u);
}

static void truncate_cuts_the_next_frame_only(void)
{
    static ps_uart_fault_t f;
    static line_t l;
    memset(&l, 0, sizeof l);
    l.per_call = 64u;
    ps_uart_fault_init(&f);
    TH_CHECK(ps_uart_fault_arm(&f, PS_UART_FAULT_TRUNCATE, 1, 0));
    uint8_t a[PS_FRAME_MAX_ENCODED], b[PS_FRAME_MAX_ENCODED];
    size_t na = frame_of(a, 1), nb = frame_of(b, 2);
    firmware_sends(&f, &l, a, na);
    firmware_sends(&f, &l, b, nb);
    seen_t s = split(&l);
    TH_EQ(s.count, 2u);
    TH_EQ(s.lens[0], (na - 1u) / 2u);
    TH_CHECK(s.status[0] != PS_FRAME_OK);
    TH_EQ(s.status[1], PS_FRAME_OK);
    TH_EQ(s.seq[1], 2);
}

static void crc_and_skip_seq_rewrite_whole_frames(void)
{
    static ps_uart_fault_t f;
    static line_t l;
    memset(&l, 0, sizeof l);
    l.per_call = 3u;
    ps_uart_fault_init(&f);
    TH_CHECK(ps_uart_fault_arm(&f, PS_UART_FAULT_CRC, 1, 0));
    TH_CHECK(ps_uart_fault_arm(&f, PS_UART_FAULT_SKIP_SEQ, 5, 0));
    uint8_t w[PS_FRAME_MAX_ENCODED];
    for (uint16_t seq = 10; seq < 13; seq++) {
        firmware_sends(&f, &l, w, frame_of(w, seq));
    }
    seen_t s = split(&l);
    TH_EQ(s.count, 3u);
    TH_EQ(s.status[0], PS_FRAME_ERR_CRC); /* COBS intact, CRC wrong */
    TH_EQ(s.status[1], PS_FRAME_OK);
    TH_EQ(s.seq[1], 16);
    TH_EQ(s.status[2], PS_FRAME_OK);
    TH_EQ(s.seq[2], 17);
}

static void bad_counts_arm_nothing(void)
{
    static ps_uart_fault_t f;
    ps_uart_fault_init(&f);
    TH_CHECK(!ps_uart_fault_arm(&f, PS_UART_FAULT_GARBAGE, 0, 0));
    TH_CHECK(!ps_uart_fault_arm(&f, PS_UART_FAULT_GARBAGE, PS_UART_FAULT_GARBAGE_MAX + 1u, 0));
    TH_CHECK(!ps_uart_fault_arm(&f, PS_UART_FAULT_SKIP_SEQ, 0x8000u, 0));
    TH_CHECK(!ps_uart_fault_arm(&f, PS_UART_FAULT_KINDS, 1, 0));
    ps_uart_fault_kind_t k;
    TH_CHECK(ps_uart_fault_kind_of("skip-seq", &k) && k == PS_UART_FAULT_SKIP_SEQ);
    TH_CHECK(!ps_uart_fault_kind_of("flip", &k));
    TH_EQ(f.garbage + f.truncate + f.bad_crc + f.seq_skip, 0u);
}

void suite_uart_fault(void)
{
    TH_RUN(nothing_armed_passes_frames_unchanged);
    TH_RUN(garbage_goes_between_frames_as_one_junk_frame);
    TH_RUN(truncate_cuts_the_next_frame_only);
    TH_RUN(crc_and_skip_seq_rewrite_whole_frames);
    TH_RUN(bad_counts_arm_nothing);
}
