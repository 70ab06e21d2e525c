/*
 * ps_cmd.h - command dispatch: checks arguments, performs the register side effects through
 * ps_probe, updates the streaming state and writes the reply fields. Framing, the RESPONSE
 * header and snapshot transmission belong to ps_app.
 */
#ifndef PS_CMD_H
#define PS_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "generated/pcie_scope_protocol.h"
#include "ps_config.h"
#include "ps_trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Room for the reply fields behind the RESPONSE header. */
#define PS_CMD_REPLY_MAX (PS_FRAME_MAX_PAYLOAD - PS_RESPONSE_BYTES)

typedef struct ps_cmd_state {
    bool streaming;     /* periodic snapshots on */
    uint16_t period_ms; /* the last period set; PS_CMD_START_ARG_PERIOD_MS_DEFAULT at reset */
    ps_trace_t trace;   /* the drain TRACE_READ starts and ps_app carries out */
} ps_cmd_state_t;

/* What the caller must do besides sending the RESPONSE: bits of ps_cmd_result_t.effects. */
typedef enum ps_cmd_fx {
    PS_CMD_FX_SNAPSHOT_FIRST = 1u << 0, /* send an ON_DEMAND snapshot before the response */
    PS_CMD_FX_RESTART_TIMER = 1u << 1,  /* streaming (re)started: next snapshot one period away */
    PS_CMD_FX_HISTOGRAM = 1u << 2 /* after that snapshot, the latency histogram read with it */
} ps_cmd_fx_t;

typedef struct ps_cmd_result {
    uint8_t cmd;      /* command id echoed in the response (0 if the payload was empty) */
    uint8_t status;   /* PS_STATUS_* */
    uint8_t effects;  /* ps_cmd_fx_t bits (PS_CMD_FX_*) */
    size_t reply_len; /* reply bytes written (0 unless status is OK) */
} ps_cmd_result_t;

void ps_cmd_init(ps_cmd_state_t *st);

/* payload = COMMAND payload (cmd u8, then arguments); reply gets the reply fields. */
ps_cmd_result_t ps_cmd_execute(ps_cmd_state_t *st, const uint8_t *payload, size_t payload_len,
                               uint8_t *reply, size_t reply_cap);

#ifdef __cplusplus
}
#endif

#endif /* PS_CMD_H */
