/*
 * hal_xilinx.h - board port of ps_hal (MicroBlaze, AXI UART Lite, AXI Timer, probe CSR).
 * Includes no Xilinx header, so app/main.c stays vendor-free.
 */
#ifndef PS_HAL_XILINX_H
#define PS_HAL_XILINX_H

#include "ps_hal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Start the free-running time base and flush the UART FIFOs; call once before ps_app_step. */
void ps_hal_xilinx_init(void);

#ifdef __cplusplus
}
#endif

#endif /* PS_HAL_XILINX_H */
