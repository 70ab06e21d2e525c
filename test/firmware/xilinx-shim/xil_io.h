/* Compile-check shim of xil_io.h:
 * u32 Xil_In32(UINTPTR Addr); void Xil_Out32(UINTPTR Addr, u32 Value). */
#ifndef XIL_IO_H
#define XIL_IO_H
#include "xil_types.h"
u32 Xil_In32(UINTPTR Addr);
void Xil_Out32(UINTPTR Addr, u32 Value);
#endif
