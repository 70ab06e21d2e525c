/*
 * host.h - the host's side of the link, for tests: builds COMMAND frames into the test
 * port's RX queue and decodes what the firmware wrote to its TX queue.
 */
#ifndef HOST_H
#define HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hal_test.h"
#include "ps_app.h"

typedef struct host_frame {
    uint8_t type;
    uint16_t seq;
    uint8_t payload[PS_FRAME_MAX_PAYLOAD];
    size_t len;
} host_frame_t;

#define HOST_MAX_FRAMES 512u

typedef struct host_rx {
    host_frame_t frames[HOST_MAX_FRAMES];
    size_t count;
    unsigned bad; /* chunks that failed COBS or CRC: must stay 0, the firmware never tears */
} host_rx_t;

/* Power-on for the test port, the app and the host decoder. */
void host_reset(ps_app_t *app);
/* Queue one frame of any type to the firmware. */
void host_send_frame(uint8_t type, uint16_t seq, const uint8_t *payload, size_t len);
/* Queue one COMMAND frame. */
void host_cmd(uint16_t seq, uint8_t cmd, const uint8_t *args, size_t args_len);
void host_raw(const uint8_t *bytes, size_t len);
void host_steps(ps_app_t *app, unsigned n);
/* Decode every complete frame the firmware wrote since the last call. */
void host_collect(host_rx_t *out);

/* Send one command, step, and expect exactly its frames; returns the RESPONSE or NULL. */
const host_frame_t *host_call(ps_app_t *app, host_rx_t *rx, uint16_t seq, uint8_t cmd,
                              const uint8_t *args, size_t args_len);

#endif /* HOST_H */
