/* host.c - host side of the link for tests. */
#include "host.h"

#include <string.h>

#include "ps_cobs.h"
#include "ps_frame.h"

static uint8_t g_pending[4096]; /* a frame split across host_collect calls */
static size_t g_pending_len;

void host_reset(ps_app_t *app)
{
    ps_test_reset();
    ps_app_init(app);
    g_pending_len = 0;
}

void host_send_frame(uint8_t type, uint16_t seq, const uint8_t *payload, size_t len)
{
    uint8_t wire[PS_FRAME_MAX_ENCODED];
    ps_frame_result_t r = ps_frame_build(wire, sizeof wire, type, seq, payload, len);
    if (r.status == PS_FRAME_OK) {
        (void)ps_test_rx_push(wire, r.len);
    }
}

void host_cmd(uint16_t seq, uint8_t cmd, const uint8_t *args, size_t args_len)
{
    uint8_t payload[PS_FRAME_MAX_PAYLOAD];
    payload[0] = cmd;
    if (args_len != 0u) {
        memcpy(&payload[1], args, args_len);
    }
    host_send_frame(PS_FRAME_COMMAND, seq, payload, 1u + args_len);
}

void host_raw(const uint8_t *bytes, size_t len) { (void)ps_test_rx_push(bytes, len); }

void host_steps(ps_app_t *app, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        ps_app_step(app);
    }
}

static void decode_chunk(host_rx_t *out, const uint8_t *chunk, size_t len)
{
    uint8_t raw[PS_FRAME_MAX_RAW];
    ps_frame_view_t v;
    ps_cobs_result_t d = ps_cobs_decode(raw, sizeof raw, chunk, len);
    if (d.status != PS_COBS_OK || ps_frame_parse(raw, d.len, &v) != PS_FRAME_OK) {
        out->bad++;
        return;
    }
    if (out->count < HOST_MAX_FRAMES) {
        host_frame_t *f = &out->frames[out->count++];
        f->type = v.type;
        f->seq = v.seq;
        f->len = v.payload_len;
        memcpy(f->payload, v.payload, v.payload_len);
    }
}

void host_collect(host_rx_t *out)
{
    out->count = 0;
    out->bad = 0;
    uint8_t buf[1024];
    size_t n;
    while ((n = ps_test_tx_take(buf, sizeof buf)) != 0u) {
        for (size_t i = 0; i < n; i++) {
            if (buf[i] == 0u) {
                if (g_pending_len != 0u) {
                    decode_chunk(out, g_pending, g_pending_len);
                }
                g_pending_len = 0;
            } else if (g_pending_len < sizeof g_pending) {
                g_pending[g_pending_len++] = buf[i];
            } else {
                out->bad++; /* a chunk longer than any frame */
            }
        }
    }
}

const host_frame_t *host_call(ps_app_t *app, host_rx_t *rx, uint16_t seq, uint8_t cmd,
                              const uint8_t *args, size_t args_len)
{
    host_cmd(seq, cmd, args, args_len);
    host_steps(app, 3);
    host_collect(rx);
    for (size_t i = 0; i < rx->count; i++) {
        if (rx->frames[i].type == PS_FRAME_RESPONSE) {
            return &rx->frames[i];
        }
    }
    return NULL;
}
