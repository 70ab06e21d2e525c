/*
 * hal_versal.h - board port of ps_hal on a Versal PS (VPK120): the Cortex-R5F of the RPU,
 * the PS UART (Arm PL011) for the protocol, a PS triple-timer counter (TTC) as the time base,
 * and the probe CSR in the PL behind the LPD's AXI port to the PL
 * (hdl/xilinx/boards/vpk120/README.md). Polled, interrupt-free, no BSP driver calls: the
 * registers are the PL011's and the TTC's own (offsets in hal_versal.c, from Arm's PL011 TRM and
 * the Versal TRM AM011), so the same C compiles on the host against a register model
 * (test/firmware/versal_hal_test.c). Includes no vendor header.
 */
#ifndef PS_HAL_VERSAL_H
#define PS_HAL_VERSAL_H

#include "ps_hal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Program the UART (PS_VSL_UART_BAUD, 8N1, FIFOs on, receive FIFO drained) and start the TTC
 * counter from 0; call once before ps_app_step. */
void ps_hal_versal_init(void);

#ifdef __cplusplus
}
#endif

#endif /* PS_HAL_VERSAL_H */
