// cxx_headers.cpp - the twin (C++) includes these: they must compile as C++ and link as C.
#include "hal_sim.h"
#include "ps_app.h"
#include "ps_assert.h"
#include "ps_cobs.h"
#include "ps_config.h"
#include "ps_crc16.h"
#include "ps_frame.h"
#include "ps_hal.h"
#include "ps_le.h"
#include "ps_probe.h"

static ps_app_t g_app; // complete type: the caller allocates it statically

void cxx_headers_use(void);
void cxx_headers_use(void)
{
    ps_sim_bus_t bus{};
    ps_sim_bus tagged{}; // the tag is a type name in C++: native/twin/main.cpp spells it so
    (void)tagged;
    bus.uart_fd = -1;
    PS_ASSERT(bus.uart_fd == -1);
    PS_LOG("uart fd %d", bus.uart_fd);
    ps_hal_sim_bind(&bus);
    ps_app_init(&g_app);
    ps_app_step(&g_app);
}
