/* main.c - the board's entry point: bring up the HAL, then run the superloop forever. */
#include "hal_xilinx.h"
#include "ps_app.h"

static ps_app_t g_app; /* ~3.2 KiB: static, never on the small MicroBlaze stack */

int main(void)
{
    ps_hal_xilinx_init();
    ps_app_init(&g_app);
    for (;;) {
        ps_app_step(&g_app);
    }
}
