/*
 * libfuzz_rx.c - coverage-guided fuzz target (libFuzzer) for the firmware's receive and command
 * path, beside the fixed-seed random loops of fuzz_rx.c.
 *
 * Each input is one power-on session on the test port. Its first byte picks the mode:
 *   bit 7 clear  raw wire bytes: the rest of the input goes to the UART as it is (COBS, CRC and
 *                framing errors, overflows, stray delimiters);
 *   bit 7 set    structured: the rest is a list of (length u8, payload) records, each sent as a
 *                well-formed COMMAND frame, so mutations reach the command parser and the
 *                argument range checks instead of dying at the CRC.
 * Bits 0..5 set how many bytes the UART hands over per read (0 = all at once), bit 6 lets
 * simulated time run between steps so streaming snapshots interleave with the replies.
 *
 * After every step the host's view must hold: every byte the firmware sent decodes to a valid
 * frame of a device-to-host type, replies carry a known status, the link statistics never go
 * down, and no more replies arrive than good commands were received. ASan and UBSan abort on
 * any memory or arithmetic fault.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "ps_frame.h"
#include "ps_le.h"

static ps_app_t app;
static host_rx_t rx;

#define FUZZ_CHECK(cond) \
    do {                 \
        if (!(cond)) {   \
            abort();     \
        }                \
    } while (0)

typedef struct session {
    ps_link_stats_t prev;
    uint64_t replies;
} session_t;

static void check(session_t *s)
{
    host_collect(&rx);
    FUZZ_CHECK(rx.bad == 0u); /* the firmware never tears a frame */
    for (size_t i = 0; i < rx.count; i++) {
        const host_frame_t *f = &rx.frames[i];
        FUZZ_CHECK(f->type != PS_FRAME_COMMAND);
        if (f->type == PS_FRAME_RESPONSE) {
            FUZZ_CHECK(f->len >= PS_RESPONSE_BYTES);
            FUZZ_CHECK(f->payload[PS_RESPONSE_STATUS_OFFSET] <= PS_STATUS_BAD_ARGUMENT);
            s->replies++;
        }
    }
    const ps_link_stats_t *now = &app.stats;
    FUZZ_CHECK(now->rx_frames >= s->prev.rx_frames);
    FUZZ_CHECK(now->rx_bad_frames >= s->prev.rx_bad_frames);
    FUZZ_CHECK(now->rx_overflows >= s->prev.rx_overflows);
    FUZZ_CHECK(now->unknown_commands >= s->prev.unknown_commands);
    FUZZ_CHECK(now->tx_dropped >= s->prev.tx_dropped);
    FUZZ_CHECK(s->replies <= now->rx_frames);
    s->prev = *now;
}

static void step(session_t *s, int time_runs)
{
    for (unsigned i = 0; i < 4u; i++) {
        if (time_runs) {
            ps_test_time_advance(5000u); /* 5 ms: a 10-ms stream period fires every other step */
        }
        ps_app_step(&app);
    }
    check(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0u) {
        return 0;
    }
    const uint8_t mode = data[0];
    const int structured = (mode & 0x80u) != 0u;
    const int time_runs = (mode & 0x40u) != 0u;
    const size_t chunk = mode & 0x3Fu;
    data++;
    size--;

    host_reset(&app);
    ps_test_rx_set_chunk(chunk == 0u ? PS_TEST_UNLIMITED : chunk);
    session_t s;
    memset(&s, 0, sizeof s);

    if (!structured) {
        while (size > 0u) { /* feed in pieces so partial frames cross steps */
            size_t n = size < 97u ? size : 97u;
            (void)ps_test_rx_push(data, n);
            data += n;
            size -= n;
            step(&s, time_runs);
        }
    } else {
        uint16_t seq = 0;
        while (size > 0u) {
            size_t len = data[0];
            data++;
            size--;
            if (len > size) {
                len = size;
            }
            if (len > PS_FRAME_MAX_PAYLOAD) {
                len = PS_FRAME_MAX_PAYLOAD;
            }
            host_send_frame(PS_FRAME_COMMAND, seq++, data, len);
            data += len;
            size -= len;
            step(&s, time_runs);
        }
    }
    for (unsigned i = 0; i < 8u; i++) { /* drain what is still queued */
        step(&s, time_runs);
    }
    return 0;
}
