/* ps_probe.c - probe CSR driver; every access goes through ps_hal_reg_*. */
#include "ps_probe.h"

#include "ps_assert.h"
#include "ps_hal.h"

ps_probe_status_t ps_probe_identify(ps_probe_ident_t *ident)
{
    PS_ASSERT(ident != NULL);
    ident->id = ps_hal_reg_read(PS_REG_ID);
    ident->version = ps_hal_reg_read(PS_REG_VERSION);
    ident->clock_hz = ps_hal_reg_read(PS_REG_CLK_HZ);
    return ident->id == PS_ID_MAGIC ? PS_PROBE_OK : PS_PROBE_ERR_NO_PROBE;
}

void ps_probe_enable(void)
{
    ps_hal_reg_write(PS_REG_CTRL, ps_hal_reg_read(PS_REG_CTRL) | PS_REG_CTRL_ENABLE);
}

void ps_probe_disable(void)
{
    ps_hal_reg_write(PS_REG_CTRL, ps_hal_reg_read(PS_REG_CTRL) & ~(uint32_t)PS_REG_CTRL_ENABLE);
}

bool ps_probe_is_enabled(void)
{
    return (ps_hal_reg_read(PS_REG_STATUS) & PS_REG_STATUS_ENABLED) != 0u;
}

void ps_probe_clear(void) { ps_hal_reg_write(PS_REG_CMD, PS_REG_CMD_CLEAR); }

void ps_probe_snapshot(uint64_t counters[PS_CNT_COUNT])
{
    /* The shadows are frozen by CMD.SNAPSHOT, so LO and HI of one counter cannot tear; the
     * copy happens on the edge that raises the write's BVALID, before any later read. */
    ps_hal_reg_write(PS_REG_CMD, PS_REG_CMD_SNAPSHOT);
    for (unsigned i = 0; i < PS_CNT_COUNT; i++) {
        uint32_t lo = ps_hal_reg_read(PS_REG_CNT_LO(i));
        uint32_t hi = ps_hal_reg_read(PS_REG_CNT_HI(i));
        counters[i] = ((uint64_t)hi << 32) | lo;
    }
}

uint32_t ps_probe_bar_latency(void) { return ps_hal_reg_read(PS_REG_BAR_LATENCY); }
