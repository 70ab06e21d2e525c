/* test_debug_off.c - with PS_ASSERT_ENABLE and PS_LOG_ENABLE at 0 (set here, before any
 * include, as a -D would), the macros compile to nothing: no evaluation, no hook call. The
 * whole firmware is also compiled that way by `make xilinx-check` (variant asserts-off). */
#define PS_ASSERT_ENABLE 0
#define PS_LOG_ENABLE 0

#include "hal_test.h"
#include "ps_assert.h"
#include "suites.h"
#include "th.h"

static int g_calls;

static int side_effect(void) { return ++g_calls; }

static void disabled_macros_are_no_ops(void)
{
    ps_test_asserts_clear();
    ps_test_log_clear();
    g_calls = 0;
    int only_in_an_assert = 7; /* no unused-variable warning with the assertion compiled out */
    PS_ASSERT(side_effect() == 99);
    PS_ASSERT(only_in_an_assert == 8);
    PS_LOG("%d", side_effect());
    TH_EQ(g_calls, 0);
    TH_EQ(ps_test_asserts().count, 0);
    TH_EQ(ps_test_log_count(), 0);
}

void suite_debug_off(void) { TH_RUN(disabled_macros_are_no_ops); }
