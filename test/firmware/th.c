/* th.c - the harness: one failure line per failed check, one closing line per run. */
#include "th.h"

#include <stdio.h>

static unsigned g_passed;
static unsigned g_failed;
static unsigned g_case_failures;
static const char *g_case = "?";

void th_fail(const char *file, int line, const char *what)
{
    g_case_failures++;
    if (g_case_failures <= 5u) { /* a failing loop should not bury the report */
        printf("FAIL %s: %s:%d: %s\n", g_case, file, line, what);
    }
}

void th_fail_eq(const char *file, int line, const char *a, const char *b, unsigned long long va,
                unsigned long long vb)
{
    g_case_failures++;
    if (g_case_failures <= 5u) {
        printf("FAIL %s: %s:%d: %s == %s (0x%llx != 0x%llx)\n", g_case, file, line, a, b, va, vb);
    }
}

void th_run(const char *name, void (*fn)(void))
{
    g_case = name;
    g_case_failures = 0;
    fn();
    if (g_case_failures == 0u) {
        g_passed++;
    } else {
        g_failed++;
    }
}

int th_finish(const char *prefix)
{
    printf("%s%u passed, %u failed\n", prefix, g_passed, g_failed);
    return (g_failed == 0u && g_passed > 0u) ? 0 : 1;
}
