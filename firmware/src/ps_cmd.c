/* ps_cmd.c - one handler per command of spec/protocol.json; arguments checked before effects. */
#include "ps_cmd.h"

#include "generated/pcie_scope_regs.h"
#include "ps_assert.h"
#include "ps_le.h"
#include "ps_probe.h"

_Static_assert(PS_CMD_INFO_REPLY_BYTES <= PS_CMD_REPLY_MAX, "INFO reply must fit a frame");
_Static_assert(PS_CMD_LINK_INFO_REPLY_BYTES <= PS_CMD_REPLY_MAX,
               "LINK_INFO reply must fit a frame");
_Static_assert(PS_CMD_TRACE_FORCE_ARG_TAP_OFFSET == 0u && PS_CMD_TRACE_STOP_ARG_TAP_OFFSET == 0u,
               "TRACE_FORCE and TRACE_STOP take the tap alone");

void ps_cmd_init(ps_cmd_state_t *st)
{
    st->streaming = false;
    st->period_ms = PS_CMD_START_ARG_PERIOD_MS_DEFAULT;
    ps_trace_init(&st->trace);
}

static ps_cmd_result_t reply(uint8_t cmd, uint8_t status, uint8_t effects, size_t len)
{
    ps_cmd_result_t r;
    r.cmd = cmd;
    r.status = status;
    r.effects = effects;
    r.reply_len = len;
    return r;
}

static ps_cmd_result_t do_ping(const uint8_t *args, uint8_t *out)
{
    ps_put_u32le(&out[PS_CMD_PING_REPLY_NONCE_OFFSET],
                 ps_get_u32le(&args[PS_CMD_PING_ARG_NONCE_OFFSET]));
    return reply(PS_CMD_PING, PS_STATUS_OK, 0, PS_CMD_PING_REPLY_BYTES);
}

static ps_cmd_result_t do_info(const ps_cmd_state_t *st, uint8_t *out)
{
    ps_probe_ident_t ident;
    (void)ps_probe_identify(&ident); /* a wrong ID is reported as read: the host judges it */
    ps_put_u16le(&out[PS_CMD_INFO_REPLY_PROTOCOL_VERSION_OFFSET], (uint16_t)PS_PROTOCOL_VERSION);
    ps_put_u16le(&out[PS_CMD_INFO_REPLY_FIRMWARE_VERSION_OFFSET], (uint16_t)PS_FIRMWARE_VERSION);
    ps_put_u32le(&out[PS_CMD_INFO_REPLY_PROBE_ID_OFFSET], ident.id);
    ps_put_u32le(&out[PS_CMD_INFO_REPLY_REG_VERSION_OFFSET], ident.version);
    ps_put_u32le(&out[PS_CMD_INFO_REPLY_CLOCK_HZ_OFFSET], ident.clock_hz);
    ps_put_u8(&out[PS_CMD_INFO_REPLY_COUNTER_COUNT_OFFSET], (uint8_t)PS_CNT_COUNT);
    ps_put_u8(&out[PS_CMD_INFO_REPLY_STREAMING_OFFSET], st->streaming ? 1u : 0u);
    ps_put_u16le(&out[PS_CMD_INFO_REPLY_PERIOD_MS_OFFSET], st->period_ms);
    ps_put_u32le(&out[PS_CMD_INFO_REPLY_BAR_LATENCY_CYCLES_OFFSET], ps_probe_bar_latency());
    return reply(PS_CMD_INFO, PS_STATUS_OK, 0, PS_CMD_INFO_REPLY_BYTES);
}

static ps_cmd_result_t do_start(ps_cmd_state_t *st, const uint8_t *args)
{
    uint16_t period = ps_get_u16le(&args[PS_CMD_START_ARG_PERIOD_MS_OFFSET]);
    if (period == 0u) {
        period = PS_CMD_START_ARG_PERIOD_MS_DEFAULT;
    }
    if (period < PS_CMD_START_ARG_PERIOD_MS_MIN || period > PS_CMD_START_ARG_PERIOD_MS_MAX) {
        return reply(PS_CMD_START, PS_STATUS_BAD_ARGUMENT, 0, 0);
    }
    ps_probe_enable();
    st->streaming = true;
    st->period_ms = period;
    return reply(PS_CMD_START, PS_STATUS_OK, PS_CMD_FX_RESTART_TIMER, 0);
}

/* Stopping a stream sends its final snapshot and histogram (counters already disabled), so a
 * host that only listens still gets the totals; a STOP while stopped sends nothing more. */
static ps_cmd_result_t do_stop(ps_cmd_state_t *st)
{
    bool was_streaming = st->streaming;
    ps_probe_disable();
    st->streaming = false;
    uint8_t fx = was_streaming ? (uint8_t)(PS_CMD_FX_SNAPSHOT_FIRST | PS_CMD_FX_HISTOGRAM) : 0u;
    return reply(PS_CMD_STOP, PS_STATUS_OK, fx, 0);
}

static ps_cmd_result_t do_clear(void)
{
    ps_probe_clear();
    return reply(PS_CMD_CLEAR, PS_STATUS_OK, 0, 0);
}

static ps_cmd_result_t do_set_sample_period(const uint8_t *args)
{
    uint32_t period = ps_get_u32le(&args[PS_CMD_SET_SAMPLE_PERIOD_ARG_PERIOD_CYCLES_OFFSET]);
    /* 0 turns sampling off; anything else must be a period the register holds */
    if (period != 0u
        && (period < PS_CMD_SET_SAMPLE_PERIOD_ARG_PERIOD_CYCLES_MIN
            || period > PS_CMD_SET_SAMPLE_PERIOD_ARG_PERIOD_CYCLES_MAX)) {
        return reply(PS_CMD_SET_SAMPLE_PERIOD, PS_STATUS_BAD_ARGUMENT, 0, 0);
    }
    ps_probe_set_sample_period(period);
    return reply(PS_CMD_SET_SAMPLE_PERIOD, PS_STATUS_OK, 0, 0);
}

static ps_cmd_result_t do_set_filter(const uint8_t *args)
{
    uint64_t base = ps_get_u64le(&args[PS_CMD_SET_FILTER_ARG_BASE_OFFSET]);
    uint64_t limit = ps_get_u64le(&args[PS_CMD_SET_FILTER_ARG_LIMIT_OFFSET]);
    bool off = base == 0u && limit == 0u;
    if (!off && limit < base) {
        return reply(PS_CMD_SET_FILTER, PS_STATUS_BAD_ARGUMENT, 0, 0);
    }
    ps_probe_set_filter(!off, base, limit);
    return reply(PS_CMD_SET_FILTER, PS_STATUS_OK, 0, 0);
}

static ps_cmd_result_t do_set_bar_latency(const uint8_t *args)
{
    uint32_t cycles = ps_get_u32le(&args[PS_CMD_SET_BAR_LATENCY_ARG_CYCLES_OFFSET]);
    if (cycles > PS_CMD_SET_BAR_LATENCY_ARG_CYCLES_MAX) {
        return reply(PS_CMD_SET_BAR_LATENCY, PS_STATUS_BAD_ARGUMENT, 0, 0);
    }
    ps_probe_set_bar_latency(cycles);
    return reply(PS_CMD_SET_BAR_LATENCY, PS_STATUS_OK, 0, 0);
}

static ps_cmd_result_t do_link_info(uint8_t *out)
{
    ps_probe_link_info_t li;
    ps_probe_link_info(&li);
    ps_put_u8(&out[PS_CMD_LINK_INFO_REPLY_LINK_GEN_OFFSET], (uint8_t)li.link_gen);
    ps_put_u8(&out[PS_CMD_LINK_INFO_REPLY_LINK_WIDTH_OFFSET], (uint8_t)li.link_width);
    ps_put_u8(&out[PS_CMD_LINK_INFO_REPLY_TAG_BITS_OFFSET], (uint8_t)li.tag_bits);
    ps_put_u8(&out[PS_CMD_LINK_INFO_REPLY_FILTER_ENABLED_OFFSET], li.filter_enabled ? 1u : 0u);
    ps_put_u16le(&out[PS_CMD_LINK_INFO_REPLY_MPS_OFFSET], (uint16_t)li.mps);
    ps_put_u16le(&out[PS_CMD_LINK_INFO_REPLY_MRRS_OFFSET], (uint16_t)li.mrrs);
    ps_put_u16le(&out[PS_CMD_LINK_INFO_REPLY_RCB_OFFSET], (uint16_t)li.rcb);
    ps_put_u16le(&out[PS_CMD_LINK_INFO_REPLY_SAMPLE_DEPTH_OFFSET], (uint16_t)li.sample_depth);
    ps_put_u32le(&out[PS_CMD_LINK_INFO_REPLY_CLOCK_HZ_OFFSET], li.clock_hz);
    ps_put_u32le(&out[PS_CMD_LINK_INFO_REPLY_BUILD_ID_OFFSET], li.build_id);
    ps_put_u32le(&out[PS_CMD_LINK_INFO_REPLY_SAMPLE_PERIOD_CYCLES_OFFSET], li.sample_period);
    ps_put_u64le(&out[PS_CMD_LINK_INFO_REPLY_FILTER_BASE_OFFSET], li.filter_base);
    ps_put_u64le(&out[PS_CMD_LINK_INFO_REPLY_FILTER_LIMIT_OFFSET], li.filter_limit);
    return reply(PS_CMD_LINK_INFO, PS_STATUS_OK, 0, PS_CMD_LINK_INFO_REPLY_BYTES);
}

/* TRC_STATUS bits 3:2 as the replies' flags: bit 0 TRIGGERED, bit 1 FULL. */
static uint8_t trace_flags(uint32_t status)
{
    return (uint8_t)(((status & PS_REG_TRC_STATUS_TRIGGERED) ? 1u : 0u)
                     | ((status & PS_REG_TRC_STATUS_FULL) ? 2u : 0u));
}

static bool trace_tap_ok(uint8_t tap) { return tap < ps_probe_tap_count(); }

static ps_cmd_result_t do_trace_arm(ps_cmd_state_t *st, const uint8_t *args, uint8_t *out)
{
    uint8_t tap = ps_get_u8(&args[PS_CMD_TRACE_ARM_ARG_TAP_OFFSET]);
    if (!trace_tap_ok(tap)) {
        return reply(PS_CMD_TRACE_ARM, PS_STATUS_BAD_ARGUMENT, 0, 0);
    }
    ps_probe_trace_config_t cfg;
    cfg.pre = ps_get_u32le(&args[PS_CMD_TRACE_ARM_ARG_PRE_OFFSET]);
    cfg.trig_enable = ps_get_u16le(&args[PS_CMD_TRACE_ARM_ARG_TRIG_ENABLE_OFFSET]);
    cfg.trig_types = ps_get_u8(&args[PS_CMD_TRACE_ARM_ARG_TRIG_TYPES_OFFSET]);
    cfg.trig_status = ps_get_u8(&args[PS_CMD_TRACE_ARM_ARG_TRIG_STATUS_OFFSET]);
    cfg.trig_rid = ps_get_u16le(&args[PS_CMD_TRACE_ARM_ARG_TRIG_RID_OFFSET]);
    cfg.trig_tag = ps_get_u16le(&args[PS_CMD_TRACE_ARM_ARG_TRIG_TAG_OFFSET]);
    cfg.trig_len = ps_get_u16le(&args[PS_CMD_TRACE_ARM_ARG_TRIG_LEN_OFFSET]);
    cfg.trig_outstanding = ps_get_u16le(&args[PS_CMD_TRACE_ARM_ARG_TRIG_OUTSTANDING_OFFSET]);
    cfg.trig_latency = ps_get_u32le(&args[PS_CMD_TRACE_ARM_ARG_TRIG_LATENCY_OFFSET]);
    cfg.trig_base = ps_get_u64le(&args[PS_CMD_TRACE_ARM_ARG_TRIG_BASE_OFFSET]);
    cfg.trig_limit = ps_get_u64le(&args[PS_CMD_TRACE_ARM_ARG_TRIG_LIMIT_OFFSET]);
    cfg.filter_types = ps_get_u8(&args[PS_CMD_TRACE_ARM_ARG_FILTER_TYPES_OFFSET]);
    uint8_t filter_enable = ps_get_u8(&args[PS_CMD_TRACE_ARM_ARG_FILTER_ENABLE_OFFSET]);
    cfg.filter_enable = filter_enable == 1u;
    cfg.filter_base = ps_get_u64le(&args[PS_CMD_TRACE_ARM_ARG_FILTER_BASE_OFFSET]);
    cfg.filter_limit = ps_get_u64le(&args[PS_CMD_TRACE_ARM_ARG_FILTER_LIMIT_OFFSET]);
    uint32_t depth = ps_probe_trace_depth(tap);
    /* every value as the registers hold it, never truncated; a unit of no depth is no unit */
    if (depth < 8u || cfg.pre > depth - 8u || cfg.trig_enable > 0x3FFu || cfg.trig_types > 0x1Fu
        || cfg.trig_status > PS_REG_TRC_TRIG_STATUS_MAX || cfg.trig_tag > PS_REG_TRC_TRIG_TAG_MAX
        || cfg.trig_len > PS_REG_TRC_TRIG_LEN_MAX
        || cfg.trig_outstanding > PS_REG_TRC_TRIG_OUTSTANDING_MAX || cfg.filter_types > 0x1Fu
        || filter_enable > 1u || (cfg.filter_enable && cfg.filter_limit < cfg.filter_base)) {
        return reply(PS_CMD_TRACE_ARM, PS_STATUS_BAD_ARGUMENT, 0, 0);
    }
    if (st->trace.draining && st->trace.tap == tap) {
        ps_trace_end(&st->trace);
    }
    ps_probe_trace_arm(tap, &cfg);
    ps_put_u32le(&out[PS_CMD_TRACE_ARM_REPLY_DEPTH_OFFSET], depth);
    return reply(PS_CMD_TRACE_ARM, PS_STATUS_OK, 0, PS_CMD_TRACE_ARM_REPLY_BYTES);
}

static ps_cmd_result_t do_trace_pulse(uint8_t cmd, const uint8_t *args, uint32_t bits)
{
    uint8_t tap = ps_get_u8(&args[0]); /* both commands' only argument */
    if (!trace_tap_ok(tap)) {
        return reply(cmd, PS_STATUS_BAD_ARGUMENT, 0, 0);
    }
    ps_probe_trace_command(tap, bits);
    return reply(cmd, PS_STATUS_OK, 0, 0);
}

static ps_cmd_result_t do_trace_status(const ps_cmd_state_t *st, const uint8_t *args, uint8_t *out)
{
    uint8_t tap = ps_get_u8(&args[PS_CMD_TRACE_STATUS_ARG_TAP_OFFSET]);
    if (!trace_tap_ok(tap)) {
        return reply(PS_CMD_TRACE_STATUS, PS_STATUS_BAD_ARGUMENT, 0, 0);
    }
    ps_probe_trace_status_t ts;
    ps_probe_trace_status(tap, &ts);
    bool ours = st->trace.tap == tap;
    ps_put_u8(&out[PS_CMD_TRACE_STATUS_REPLY_STATE_OFFSET], (uint8_t)(ts.status & 3u));
    ps_put_u8(&out[PS_CMD_TRACE_STATUS_REPLY_FLAGS_OFFSET], trace_flags(ts.status));
    ps_put_u8(&out[PS_CMD_TRACE_STATUS_REPLY_DRAINING_OFFSET],
              (ours && st->trace.draining) ? 1u : 0u);
    ps_put_u32le(&out[PS_CMD_TRACE_STATUS_REPLY_DEPTH_OFFSET], ts.depth);
    ps_put_u32le(&out[PS_CMD_TRACE_STATUS_REPLY_COUNT_OFFSET], ts.count);
    ps_put_u32le(&out[PS_CMD_TRACE_STATUS_REPLY_TRIGGER_INDEX_OFFSET], ts.trigger_index);
    ps_put_u32le(&out[PS_CMD_TRACE_STATUS_REPLY_LOST_OFFSET], ts.lost);
    ps_put_u32le(&out[PS_CMD_TRACE_STATUS_REPLY_SENT_OFFSET], ours ? st->trace.next : 0u);
    ps_put_u64le(&out[PS_CMD_TRACE_STATUS_REPLY_TRIGGER_CLOCK_OFFSET], ts.trigger_clock);
    return reply(PS_CMD_TRACE_STATUS, PS_STATUS_OK, 0, PS_CMD_TRACE_STATUS_REPLY_BYTES);
}

/* A trace is read once it is stopped (docs/trace.md: while recording the ring moves under the
 * index); the frames follow the reply, one per step, from ps_app. */
static ps_cmd_result_t do_trace_read(ps_cmd_state_t *st, const uint8_t *args, uint8_t *out)
{
    uint8_t tap = ps_get_u8(&args[PS_CMD_TRACE_READ_ARG_TAP_OFFSET]);
    if (!trace_tap_ok(tap)) {
        return reply(PS_CMD_TRACE_READ, PS_STATUS_BAD_ARGUMENT, 0, 0);
    }
    ps_probe_trace_status_t ts;
    ps_probe_trace_status(tap, &ts);
    uint32_t state = ts.status & 3u;
    if (state != PS_PROBE_TRACE_STOPPED && state != PS_PROBE_TRACE_IDLE) {
        return reply(PS_CMD_TRACE_READ, PS_STATUS_NOT_READY, 0, 0);
    }
    ps_trace_begin(&st->trace, tap, &ts);
    ps_put_u32le(&out[PS_CMD_TRACE_READ_REPLY_COUNT_OFFSET], st->trace.total);
    ps_put_u32le(&out[PS_CMD_TRACE_READ_REPLY_TRIGGER_INDEX_OFFSET], st->trace.trigger_index);
    ps_put_u32le(&out[PS_CMD_TRACE_READ_REPLY_LOST_OFFSET], st->trace.lost);
    ps_put_u8(&out[PS_CMD_TRACE_READ_REPLY_FLAGS_OFFSET], trace_flags(ts.status));
    return reply(PS_CMD_TRACE_READ, PS_STATUS_OK, 0, PS_CMD_TRACE_READ_REPLY_BYTES);
}

ps_cmd_result_t ps_cmd_execute(ps_cmd_state_t *st, const uint8_t *payload, size_t payload_len,
                               uint8_t *out, size_t out_cap)
{
    if (payload == NULL || payload_len < PS_COMMAND_BYTES) {
        return reply(0, PS_STATUS_BAD_LENGTH, 0, 0);
    }
    uint8_t cmd = payload[PS_COMMAND_CMD_OFFSET];
    const uint8_t *args = &payload[PS_COMMAND_BYTES];
    size_t args_len = payload_len - PS_COMMAND_BYTES;
    size_t want;
    size_t reply_bytes;

    switch (cmd) {
    case PS_CMD_PING:
        want = PS_CMD_PING_ARGS_BYTES;
        reply_bytes = PS_CMD_PING_REPLY_BYTES;
        break;
    case PS_CMD_INFO:
        want = PS_CMD_INFO_ARGS_BYTES;
        reply_bytes = PS_CMD_INFO_REPLY_BYTES;
        break;
    case PS_CMD_START:
        want = PS_CMD_START_ARGS_BYTES;
        reply_bytes = PS_CMD_START_REPLY_BYTES;
        break;
    case PS_CMD_STOP:
        want = PS_CMD_STOP_ARGS_BYTES;
        reply_bytes = PS_CMD_STOP_REPLY_BYTES;
        break;
    case PS_CMD_CLEAR:
        want = PS_CMD_CLEAR_ARGS_BYTES;
        reply_bytes = PS_CMD_CLEAR_REPLY_BYTES;
        break;
    case PS_CMD_SNAPSHOT:
        want = PS_CMD_SNAPSHOT_ARGS_BYTES;
        reply_bytes = PS_CMD_SNAPSHOT_REPLY_BYTES;
        break;
    case PS_CMD_SET_SAMPLE_PERIOD:
        want = PS_CMD_SET_SAMPLE_PERIOD_ARGS_BYTES;
        reply_bytes = PS_CMD_SET_SAMPLE_PERIOD_REPLY_BYTES;
        break;
    case PS_CMD_SET_FILTER:
        want = PS_CMD_SET_FILTER_ARGS_BYTES;
        reply_bytes = PS_CMD_SET_FILTER_REPLY_BYTES;
        break;
    case PS_CMD_SET_BAR_LATENCY:
        want = PS_CMD_SET_BAR_LATENCY_ARGS_BYTES;
        reply_bytes = PS_CMD_SET_BAR_LATENCY_REPLY_BYTES;
        break;
    case PS_CMD_LINK_INFO:
        want = PS_CMD_LINK_INFO_ARGS_BYTES;
        reply_bytes = PS_CMD_LINK_INFO_REPLY_BYTES;
        break;
    case PS_CMD_LATENCY_HISTOGRAM:
        want = PS_CMD_LATENCY_HISTOGRAM_ARGS_BYTES;
        reply_bytes = PS_CMD_LATENCY_HISTOGRAM_REPLY_BYTES;
        break;
    case PS_CMD_TRACE_ARM:
        want = PS_CMD_TRACE_ARM_ARGS_BYTES;
        reply_bytes = PS_CMD_TRACE_ARM_REPLY_BYTES;
        break;
    case PS_CMD_TRACE_FORCE:
        want = PS_CMD_TRACE_FORCE_ARGS_BYTES;
        reply_bytes = PS_CMD_TRACE_FORCE_REPLY_BYTES;
        break;
    case PS_CMD_TRACE_STOP:
        want = PS_CMD_TRACE_STOP_ARGS_BYTES;
        reply_bytes = PS_CMD_TRACE_STOP_REPLY_BYTES;
        break;
    case PS_CMD_TRACE_STATUS:
        want = PS_CMD_TRACE_STATUS_ARGS_BYTES;
        reply_bytes = PS_CMD_TRACE_STATUS_REPLY_BYTES;
        break;
    case PS_CMD_TRACE_READ:
        want = PS_CMD_TRACE_READ_ARGS_BYTES;
        reply_bytes = PS_CMD_TRACE_READ_REPLY_BYTES;
        break;
    default:
        return reply(cmd, PS_STATUS_UNKNOWN_COMMAND, 0, 0);
    }
    if (args_len != want) {
        return reply(cmd, PS_STATUS_BAD_LENGTH, 0, 0);
    }
    PS_ASSERT(out != NULL && out_cap >= reply_bytes); /* ps_app sizes the reply buffer */
    if (out == NULL || out_cap < reply_bytes) {       /* caller bug; refuse rather than overrun */
        return reply(cmd, PS_STATUS_BAD_LENGTH, 0, 0);
    }

    switch (cmd) {
    case PS_CMD_PING:
        return do_ping(args, out);
    case PS_CMD_INFO:
        return do_info(st, out);
    case PS_CMD_START:
        return do_start(st, args);
    case PS_CMD_STOP:
        return do_stop(st);
    case PS_CMD_CLEAR:
        return do_clear();
    case PS_CMD_SET_SAMPLE_PERIOD:
        return do_set_sample_period(args);
    case PS_CMD_SET_FILTER:
        return do_set_filter(args);
    case PS_CMD_SET_BAR_LATENCY:
        return do_set_bar_latency(args);
    case PS_CMD_LINK_INFO:
        return do_link_info(out);
    case PS_CMD_TRACE_ARM:
        return do_trace_arm(st, args, out);
    case PS_CMD_TRACE_FORCE:
        return do_trace_pulse(PS_CMD_TRACE_FORCE, args, PS_REG_TRC_CMD_FORCE);
    case PS_CMD_TRACE_STOP:
        return do_trace_pulse(PS_CMD_TRACE_STOP, args, PS_REG_TRC_CMD_STOP);
    case PS_CMD_TRACE_STATUS:
        return do_trace_status(st, args, out);
    case PS_CMD_TRACE_READ:
        return do_trace_read(st, args, out);
    case PS_CMD_LATENCY_HISTOGRAM: /* both frames are sent by the caller, ahead of the reply */
        return reply(PS_CMD_LATENCY_HISTOGRAM, PS_STATUS_OK,
                     PS_CMD_FX_SNAPSHOT_FIRST | PS_CMD_FX_HISTOGRAM, 0);
    default: /* PS_CMD_SNAPSHOT: the snapshot is sent by the caller, ahead of the reply */
        return reply(PS_CMD_SNAPSHOT, PS_STATUS_OK, PS_CMD_FX_SNAPSHOT_FIRST, 0);
    }
}
