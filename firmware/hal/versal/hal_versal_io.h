/*
 * hal_versal_io.h - the board port's only memory access: 32-bit loads and stores at physical
 * addresses. On the R5F they are volatile accesses (the standalone BSP's MPU table maps the PS
 * peripherals and the LPD's PL window as device memory); a host test builds with
 * PS_VSL_IO_EXTERN and links its own register model instead.
 */
#ifndef PS_HAL_VERSAL_IO_H
#define PS_HAL_VERSAL_IO_H

#include <stdint.h>

#ifdef PS_VSL_IO_EXTERN
uint32_t ps_vsl_read32(uintptr_t addr);
void ps_vsl_write32(uintptr_t addr, uint32_t value);
#else
static inline uint32_t ps_vsl_read32(uintptr_t addr) { return *(volatile const uint32_t *)addr; }

static inline void ps_vsl_write32(uintptr_t addr, uint32_t value)
{
    *(volatile uint32_t *)addr = value;
}
#endif

#endif /* PS_HAL_VERSAL_IO_H */
