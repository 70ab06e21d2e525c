/*
 * th.h - a tiny test harness: cases are plain functions, checks record failures and keep
 * going, the run ends with the project's closing line "N passed, N failed".
 */
#ifndef TH_H
#define TH_H

#include <stddef.h>

void th_fail(const char *file, int line, const char *what);
void th_fail_eq(const char *file, int line, const char *a, const char *b, unsigned long long va,
                unsigned long long vb);
void th_run(const char *name, void (*fn)(void));
/* Print the closing line (with an optional prefix) and return the exit status. */
int th_finish(const char *prefix);

#define TH_CHECK(cond)                          \
    do {                                        \
        if (!(cond)) {                          \
            th_fail(__FILE__, __LINE__, #cond); \
        }                                       \
    } while (0)

#define TH_EQ(a, b)                                               \
    do {                                                          \
        unsigned long long th_a_ = (unsigned long long)(a);       \
        unsigned long long th_b_ = (unsigned long long)(b);       \
        if (th_a_ != th_b_) {                                     \
            th_fail_eq(__FILE__, __LINE__, #a, #b, th_a_, th_b_); \
        }                                                         \
    } while (0)

#define TH_RUN(fn) th_run(#fn, fn)

#endif /* TH_H */
