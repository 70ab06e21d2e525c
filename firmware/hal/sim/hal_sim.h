/*
 * hal_sim.h - the twin's port of ps_hal: registers are real AXI4-Lite transactions on the
 * Verilated model (through callbacks the twin provides), the UART is a PTY master.
 */
#ifndef PS_HAL_SIM_H
#define PS_HAL_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "ps_hal.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ps_sim_bus {
    void *ctx;
    /* Each performs a real AXI4-Lite transaction on the Verilated model. */
    uint32_t (*reg_read)(void *ctx, uint32_t offset);
    void (*reg_write)(void *ctx, uint32_t offset, uint32_t value);
    int uart_fd; /* PTY master, O_NONBLOCK */
} ps_sim_bus_t;

/* Bind (by copy) before the first ps_app_step. Unbound: reads 0, writes and UART do nothing. */
void ps_hal_sim_bind(const ps_sim_bus_t *bus);

/*
 * Arms a fault on the serial line (uart_fault.h: "garbage", "truncate", "crc", "skip-seq"), put
 * between the firmware's frames; false when the kind or count is not valid. Binding clears faults.
 */
bool ps_hal_sim_inject(const char *kind, uint32_t count, uint32_t seed);

#ifdef __cplusplus
}
#endif

#endif /* PS_HAL_SIM_H */
