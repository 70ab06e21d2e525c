/*
 * fuzz_check.h - the fuzz targets' assertion: a broken property aborts, which libFuzzer reports
 * as a crash with the input that caused it (PS_ASSERT would only count it on the test port).
 */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdlib.h>

#define FUZZ_CHECK(cond) \
    do {                 \
        if (!(cond)) {   \
            abort();     \
        }                \
    } while (0)

#endif /* FUZZ_CHECK_H */
