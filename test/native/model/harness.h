// Tiny test harness for the native model tests: TEST(name) { CHECK(...); CHECK_EQ(a, b); }.
// main() runs every test and prints one closing line "N passed, N failed" (exit 1 on failure).
#ifndef PCIE_SCOPE_TEST_HARNESS_H
#define PCIE_SCOPE_TEST_HARNESS_H

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

namespace harness {

struct Test {
    const char *name;
    void (*fn)();
    Test *next;
};
Test *&registry();
int &current_failures();

struct Register {
    Register(Test *t)
    {
        // keep registration order
        Test **p = &registry();
        while (*p)
            p = &(*p)->next;
        *p = t;
    }
};

template <class A, class B>
void check_eq(const A &a, const B &b, const char *ea, const char *eb, const char *file, int line)
{
    if (a == b)
        return;
    std::ostringstream os;
    os << ea << " == " << eb << ": got " << a << " vs " << b;
    std::fprintf(stderr, "  %s:%d: FAILED %s\n", file, line, os.str().c_str());
    ++current_failures();
}

} // namespace harness

#define PS_CAT2(a, b) a##b
#define PS_CAT(a, b) PS_CAT2(a, b)
#define TEST(name)                                                     \
    static void name();                                                \
    static harness::Test PS_CAT(test_, name){#name, &name, nullptr};   \
    static harness::Register PS_CAT(reg_, name){&PS_CAT(test_, name)}; \
    static void name()
#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            std::fprintf(stderr, "  %s:%d: FAILED %s\n", __FILE__, __LINE__, #cond); \
            ++harness::current_failures();                                           \
        }                                                                            \
    } while (0)
#define CHECK_EQ(a, b) harness::check_eq((a), (b), #a, #b, __FILE__, __LINE__)

#endif
