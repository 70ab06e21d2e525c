/*
 * ps_app.c - the superloop step: receive path, command handling, periodic snapshots, TX.
 */
#include "ps_app.h"

#include <string.h>

#include "ps_assert.h"
#include "ps_cobs.h"
#include "ps_frame.h"
#include "ps_hal.h"
#include "ps_le.h"
#include "ps_probe.h"

void ps_app_init(ps_app_t *app)
{
    memset(app, 0, sizeof *app);
    ps_rx_init(&app->rx);
    ps_txq_init(&app->tx);
    ps_cmd_init(&app->cmd);
    ps_intervals_init(&app->intervals);
}

/* Frame, number and queue one device frame; a frame that does not fit is dropped whole. */
static bool send_frame(ps_app_t *app, uint8_t type, const uint8_t *payload, size_t len)
{
    if (!app->host_seen) { /* the host speaks first; a line may carry a bootloader or a shell */
        return false;
    }
    uint16_t seq = app->tx_seq++; /* consumed even when dropped: the host sees the gap */
    ps_frame_result_t fr = ps_frame_build(app->wire, sizeof app->wire, type, seq, payload, len);
    PS_ASSERT(fr.status == PS_FRAME_OK); /* wire holds a maximal frame; payloads are ours */
    if (fr.status != PS_FRAME_OK || !ps_txq_push(&app->tx, app->wire, fr.len)) {
        app->stats.tx_dropped++;
        PS_LOG("tx: frame type 0x%02x seq %u dropped (%u bytes free)", (unsigned)type,
               (unsigned)seq, (unsigned)ps_txq_free(&app->tx));
        return false;
    }
    return true;
}

/* Every tap is snapshotted together; tap 0 goes out as the SNAPSHOT frame, each further tap
 * (the switch design's host side) as a TAP_SNAPSHOT naming it. When the SNAPSHOT does not fit,
 * neither do the others: they would name a frame the host never got. Returns whether the
 * SNAPSHOT was queued. */
static bool send_snapshot(ps_app_t *app, uint8_t flags)
{
    app->taps = (uint8_t)ps_probe_tap_count();
    ps_probe_snapshot_taps(app->taps, app->counters);
    size_t len = ps_telemetry_encode_snapshot(app->snapshot, sizeof app->snapshot, flags,
                                              app->snapshot_index, app->counters[0], &app->stats);
    PS_ASSERT(len == PS_SNAPSHOT_BYTES);
    if (!send_frame(app, PS_FRAME_SNAPSHOT, app->snapshot, len)) {
        return false;
    }
    for (unsigned tap = 1; tap < app->taps; tap++) {
        len =
            ps_telemetry_encode_tap_snapshot(app->tap_snapshot, sizeof app->tap_snapshot,
                                             (uint8_t)tap, app->snapshot_index, app->counters[tap]);
        PS_ASSERT(len == PS_TAP_SNAPSHOT_BYTES);
        (void)send_frame(app, PS_FRAME_TAP_SNAPSHOT, app->tap_snapshot, len);
    }
    app->snapshot_index++;
    return true;
}

/* The histogram shadows were loaded with the snapshot just queued (same CMD.SNAPSHOT), so the
 * frames name that snapshot; after a dropped snapshot the bins would belong to no frame. One
 * frame per kind (last, then first completion), each built in the same buffer once the one
 * before is queued; then the same per further tap as TAP_HISTOGRAM frames. */
static void send_histograms(ps_app_t *app, uint8_t reason)
{
    uint64_t bins[PS_HIST_WORDS];
    uint32_t probe_layout = ps_probe_hist_layout();
    for (unsigned kind = 0; kind < PS_HIST_KINDS; kind++) {
        uint32_t layout = ps_probe_histogram(kind, probe_layout, bins);
        size_t len =
            ps_telemetry_encode_histogram(app->histogram, sizeof app->histogram, reason,
                                          (uint8_t)kind, app->snapshot_index - 1u, layout, bins);
        PS_ASSERT(len > 0u && len <= PS_HISTOGRAM_BYTES);
        (void)send_frame(app, PS_FRAME_HISTOGRAM, app->histogram, len);
    }
    for (unsigned tap = 1; tap < app->taps; tap++) {
        probe_layout = ps_probe_tap_hist_layout(tap);
        for (unsigned kind = 0; kind < PS_HIST_KINDS; kind++) {
            uint32_t layout = ps_probe_tap_histogram(tap, kind, probe_layout, bins);
            size_t len = ps_telemetry_encode_tap_histogram(
                app->tap_histogram, sizeof app->tap_histogram, (uint8_t)tap, reason, (uint8_t)kind,
                app->snapshot_index - 1u, layout, bins);
            PS_ASSERT(len > 0u && len <= PS_TAP_HISTOGRAM_BYTES);
            (void)send_frame(app, PS_FRAME_TAP_HISTOGRAM, app->tap_histogram, len);
        }
    }
}

static uint64_t period_us(const ps_app_t *app) { return (uint64_t)app->cmd.period_ms * 1000u; }

static void handle_command(ps_app_t *app, const ps_frame_view_t *frame)
{
    uint8_t *payload = app->reply;
    ps_cmd_result_t r = ps_cmd_execute(&app->cmd, frame->payload, frame->payload_len,
                                       &payload[PS_RESPONSE_BYTES], PS_CMD_REPLY_MAX);
    PS_ASSERT(r.reply_len <= PS_CMD_REPLY_MAX);
    if (r.status == PS_STATUS_UNKNOWN_COMMAND) {
        app->stats.unknown_commands++;
        PS_LOG("rx: unknown command %u", (unsigned)r.cmd);
    }
    if (r.effects & PS_CMD_FX_SNAPSHOT_FIRST) {
        uint8_t flags = (uint8_t)PS_SNAPSHOT_FLAG_ON_DEMAND;
        if (app->cmd.streaming) {
            flags = (uint8_t)(flags | PS_SNAPSHOT_FLAG_ENABLED);
        }
        bool sent = send_snapshot(app, flags);
        if (sent && (r.effects & PS_CMD_FX_HISTOGRAM)) {
            send_histograms(app,
                            r.cmd == PS_CMD_STOP ? (uint8_t)PS_HISTOGRAM_FINAL
                                                 : (uint8_t)PS_HISTOGRAM_ON_DEMAND);
        }
    }
    if (r.effects & PS_CMD_FX_RESTART_TIMER) {
        app->next_snapshot_us = app->now_us + period_us(app);
        app->next_histogram_us = app->now_us + PS_APP_HISTOGRAM_US;
    }
    ps_put_u8(&payload[PS_RESPONSE_CMD_OFFSET], r.cmd);
    ps_put_u8(&payload[PS_RESPONSE_STATUS_OFFSET], r.status);
    ps_put_u16le(&payload[PS_RESPONSE_REQUEST_SEQ_OFFSET], frame->seq);
    (void)send_frame(app, PS_FRAME_RESPONSE, payload, PS_RESPONSE_BYTES + r.reply_len);
}

/* One delimited chunk: COBS, CRC and type checks, then the command. */
static void handle_chunk(ps_app_t *app, const uint8_t *chunk, size_t len)
{
    ps_frame_view_t frame; /* its payload points into app->rx_raw */
    ps_cobs_result_t dec = ps_cobs_decode(app->rx_raw, sizeof app->rx_raw, chunk, len);
    if (dec.status != PS_COBS_OK || ps_frame_parse(app->rx_raw, dec.len, &frame) != PS_FRAME_OK
        || frame.type != PS_FRAME_COMMAND || frame.payload_len < PS_COMMAND_BYTES) {
        app->stats.rx_bad_frames++;
        PS_LOG("rx: bad frame (%u bytes)", (unsigned)len);
        return;
    }
    app->stats.rx_frames++;
    app->host_seen = true;
    handle_command(app, &frame);
}

static void poll_rx(ps_app_t *app)
{
    uint8_t buf[PS_APP_RX_READ_BYTES];
    size_t budget = PS_APP_RX_BUDGET;
    while (budget != 0u) {
        size_t want = budget < sizeof buf ? budget : sizeof buf;
        size_t n = ps_hal_uart_read(buf, want);
        if (n > want) { /* a port that over-reports must not make us read past buf */
            n = want;
        }
        for (size_t i = 0; i < n; i++) {
            switch (ps_rx_push(&app->rx, buf[i])) {
            case PS_RX_CHUNK:
                handle_chunk(app, app->rx.buf, app->rx.len);
                break;
            case PS_RX_OVERFLOW:
                app->stats.rx_overflows++;
                PS_LOG("rx: chunk over %u bytes, discarded", (unsigned)PS_RX_CHUNK_MAX);
                break;
            default:
                break;
            }
        }
        budget -= n;
        if (n < want) {
            break;
        }
    }
}

static void poll_stream(ps_app_t *app)
{
    if (!app->cmd.streaming || app->now_us < app->next_snapshot_us) {
        return;
    }
    bool sent = send_snapshot(app, (uint8_t)PS_SNAPSHOT_FLAG_ENABLED);
    if (sent && app->now_us >= app->next_histogram_us) {
        send_histograms(app, (uint8_t)PS_HISTOGRAM_PERIODIC);
        app->next_histogram_us = app->now_us + PS_APP_HISTOGRAM_US;
    }
    app->next_snapshot_us += period_us(app);
    if (app->next_snapshot_us <= app->now_us) { /* fell a period behind: skip, do not burst */
        app->next_snapshot_us = app->now_us + period_us(app);
    }
}

/* Records go out only while the TX ring keeps room for a maximal frame beside them, so a
 * due snapshot always finds its place: when the line backs up, records wait in the ring and
 * the ring drops its oldest (counted in the next INTERVAL frame), never a snapshot. */
static void poll_intervals(ps_app_t *app)
{
    (void)ps_intervals_pull(&app->intervals, PS_APP_INTERVAL_PULL);
    if (app->intervals.count == 0u || !app->host_seen) {
        return;
    }
    bool full = app->intervals.count >= PS_INTERVAL_MAX_RECORDS;
    if (!full && app->now_us - app->last_interval_us < PS_APP_INTERVAL_FLUSH_US) {
        return;
    }
    if (ps_txq_free(&app->tx) < 2u * PS_FRAME_MAX_ENCODED
        || ps_txq_used(&app->tx) + 2u * PS_FRAME_MAX_ENCODED > PS_APP_INTERVAL_TXQ_BYTES) {
        return;
    }
    size_t len = ps_intervals_encode(&app->intervals, app->interval, sizeof app->interval,
                                     ps_probe_sample_overflow());
    (void)send_frame(app, PS_FRAME_INTERVAL, app->interval, len);
    app->last_interval_us = app->now_us;
}

/* One TRACE frame a step at most, and only while the TX ring keeps half its room for
 * snapshots and histograms (PS_APP_TRACE_TXQ_BYTES): a drain takes what the line has left. */
static void poll_trace(ps_app_t *app)
{
    if (!app->cmd.trace.draining || !app->host_seen
        || ps_txq_used(&app->tx) + PS_FRAME_MAX_ENCODED > PS_APP_TRACE_TXQ_BYTES) {
        return;
    }
    size_t len = ps_trace_encode(&app->cmd.trace, app->trace, sizeof app->trace);
    if (len != 0u) {
        (void)send_frame(app, PS_FRAME_TRACE, app->trace, len);
    }
}

void ps_app_step(ps_app_t *app)
{
    app->now_us = ps_hal_time_us();
    (void)ps_txq_drain(&app->tx);
    poll_rx(app);
    poll_stream(app);
    poll_intervals(app);
    poll_trace(app);
    (void)ps_txq_drain(&app->tx);
}
