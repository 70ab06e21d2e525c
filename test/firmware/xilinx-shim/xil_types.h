/* Compile-check shim: the few xil_types.h names hal_xilinx.c needs (Xilinx embeddedsw). */
#ifndef XIL_TYPES_H
#define XIL_TYPES_H
#include <stdint.h>
typedef uint8_t u8;
typedef uint32_t u32;
typedef uintptr_t UINTPTR;
#endif
