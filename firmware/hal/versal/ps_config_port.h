/*
 * ps_config_port.h - the Versal port's tunables (build with -DPS_CONFIG_PORT and this folder on
 * the include path: ps_config.h includes it first). Each under #ifndef, so the command line
 * wins (hdl/xilinx/boards/vpk120/firmware.mk passes the CSR base from board.mk).
 */
#ifndef PS_CONFIG_PORT_VERSAL_H
#define PS_CONFIG_PORT_VERSAL_H

/* The probe CSR: the PL address the block design gives M_AXI_CSR in the LPD's PL window
 * (hdl/xilinx/boards/vpk120/board.mk PS_VSL_CSR_BASEADDR, the one truth). */
#ifndef PS_VSL_CSR_BASEADDR
#define PS_VSL_CSR_BASEADDR 0x80000000u
#endif

/* PS UART0 (PL011) and TTC0 in the LPD (Versal TRM AM011 address map; not checked on a board). */
#ifndef PS_VSL_UART_BASEADDR
#define PS_VSL_UART_BASEADDR 0xFF000000u
#endif
#ifndef PS_VSL_TTC_BASEADDR
#define PS_VSL_TTC_BASEADDR 0xFF0E0000u
#endif

/* The UART's reference clock and the line rate: 921 600 baud, as on the VCU118, from the
 * 100 MHz UART reference ps_bd.tcl asks the CIPS for (divisor 6 + 50/64: under 0.01 % off). */
#ifndef PS_VSL_UART_CLOCK_HZ
#define PS_VSL_UART_CLOCK_HZ 100000000u
#endif
#ifndef PS_VSL_UART_BAUD
#define PS_VSL_UART_BAUD 921600u
#endif

/* The TTC's counting clock (its APB clock, undivided: the prescaler is off); ps_bd.tcl asks for
 * a 100 MHz LPD_LSBUS clock. */
#ifndef PS_VSL_TTC_CLOCK_HZ
#define PS_VSL_TTC_CLOCK_HZ 100000000u
#endif

/* PS_LOG messages: a RAM ring a debugger dumps (the UART carries the protocol). */
#ifndef PS_VSL_LOG_BYTES
#define PS_VSL_LOG_BYTES 1024u
#endif

#endif /* PS_CONFIG_PORT_VERSAL_H */
