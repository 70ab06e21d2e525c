/* test_debug.c - PS_ASSERT and PS_LOG reach the HAL hooks (the test port records both), and
 * the test port's ps_config_port.h is applied. Runs last: it also checks that no other suite
 * tripped an assertion. */
#include <string.h>

#include "hal_test.h"
#include "host.h"
#include "ps_assert.h"
#include "ps_cmd.h"
#include "suites.h"
#include "th.h"

static ps_app_t app;
static host_rx_t rx;

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s);
    size_t t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

static void no_assertion_fired_in_the_other_suites(void)
{
    ps_test_assert_record_t a = ps_test_asserts();
    TH_EQ(a.count, 0);
    if (a.count != 0u) {
        TH_CHECK(a.file == NULL); /* names the culprit in the failure line */
    }
}

static void config_port_header_is_applied(void)
{
    TH_EQ(PS_ASSERT_ENABLE, 1); /* the default */
    TH_EQ(PS_LOG_ENABLE, 1);    /* hal/test/ps_config_port.h, through -DPS_CONFIG_PORT */
    TH_EQ(PS_FIRMWARE_VERSION, 1);
}

static void assertion_reaches_the_hal_hook(void)
{
    ps_test_asserts_clear();
    volatile int two = 2;
    int line = __LINE__ + 1;
    PS_ASSERT(two + two == 5);
    ps_test_assert_record_t a = ps_test_asserts();
    TH_EQ(a.count, 1);
    TH_EQ(a.line, line);
    TH_CHECK(a.file != NULL && ends_with(a.file, "test_debug.c"));
    TH_CHECK(a.expr != NULL && strcmp(a.expr, "two + two == 5") == 0);
    ps_test_asserts_clear();
}

static void passing_assertion_is_silent_and_evaluated_once(void)
{
    ps_test_asserts_clear();
    int evaluated = 0;
    PS_ASSERT(++evaluated == 1);
    TH_EQ(evaluated, 1);
    TH_EQ(ps_test_asserts().count, 0);
}

static void firmware_invariant_fires_in_the_module(void)
{
    /* A caller bug (no reply buffer): asserted in ps_cmd.c, then still refused safely. */
    ps_test_asserts_clear();
    ps_cmd_state_t st;
    ps_cmd_init(&st);
    const uint8_t ping[] = {PS_CMD_PING, 1, 2, 3, 4};
    ps_cmd_result_t r = ps_cmd_execute(&st, ping, sizeof ping, NULL, 0);
    TH_EQ(r.status, PS_STATUS_BAD_LENGTH);
    ps_test_assert_record_t a = ps_test_asserts();
    TH_EQ(a.count, 1);
    TH_CHECK(a.file != NULL && ends_with(a.file, "ps_cmd.c"));
    ps_test_asserts_clear();
}

static void log_reaches_the_hal_hook(void)
{
    ps_test_log_clear();
    PS_LOG("x=%u y=%s", 42u, "ok");
    TH_EQ(ps_test_log_count(), 1);
    TH_CHECK(strcmp(ps_test_log_last(), "x=42 y=ok") == 0);
    /* a long message is cut to PS_LOG_LINE_BYTES, never overrun */
    char big[300];
    memset(big, 'a', sizeof big - 1u);
    big[sizeof big - 1u] = '\0';
    PS_LOG("%s", big);
    TH_EQ(strlen(ps_test_log_last()), PS_LOG_LINE_BYTES - 1u);
    ps_test_log_clear();
}

static void firmware_logs_a_dropped_frame(void)
{
    host_reset(&app);
    ps_test_log_clear();
    TH_CHECK(host_call(&app, &rx, 1, PS_CMD_PING, (const uint8_t[]){1, 2, 3, 4}, 4) != NULL);
    TH_EQ(ps_test_log_count(), 0); /* a good exchange logs nothing */
    ps_test_tx_set_accept(0);
    for (unsigned i = 0; i < 40u; i++) {
        host_cmd((uint16_t)(10u + i), PS_CMD_SNAPSHOT, NULL, 0);
        host_steps(&app, 1);
    }
    TH_CHECK(app.stats.tx_dropped > 0u);
    TH_CHECK(ps_test_log_count() >= app.stats.tx_dropped);
    TH_CHECK(strstr(ps_test_log_last(), "dropped") != NULL);
    TH_EQ(ps_test_asserts().count, 0); /* a full ring is not a bug */
    ps_test_log_clear();
}

void suite_debug(void)
{
    TH_RUN(no_assertion_fired_in_the_other_suites);
    TH_RUN(config_port_header_is_applied);
    TH_RUN(assertion_reaches_the_hal_hook);
    TH_RUN(passing_assertion_is_silent_and_evaluated_once);
    TH_RUN(firmware_invariant_fires_in_the_module);
    TH_RUN(log_reaches_the_hal_hook);
    TH_RUN(firmware_logs_a_dropped_frame);
}
