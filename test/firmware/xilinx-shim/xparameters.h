/* Compile-check shim of a BSP's xparameters.h: the instances the board design must provide.
 * The addresses are examples for the syntax check; the real file is generated from the
 * block design. */
#ifndef XPARAMETERS_H
#define XPARAMETERS_H
#define XPAR_PCIE_SCOPE_CSR_0_BASEADDR 0x44A00000
#define XPAR_UARTLITE_0_BASEADDR 0x40600000
#define XPAR_TMRCTR_0_BASEADDR 0x41C00000
#define XPAR_TMRCTR_0_CLOCK_FREQ_HZ 100000000
#endif
