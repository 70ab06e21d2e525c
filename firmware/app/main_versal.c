/* main_versal.c - the VPK120's entry point (Cortex-R5F): bring up the HAL, then run the
 * superloop forever. */
#include "hal_versal.h"
#include "ps_app.h"

static ps_app_t g_app; /* static, never on the stack */

int main(void)
{
    ps_hal_versal_init();
    ps_app_init(&g_app);
    for (;;) {
        ps_app_step(&g_app);
    }
}
