#include <cstring>

#include "harness.h"

namespace harness {
Test *&registry()
{
    static Test *head = nullptr;
    return head;
}
int &current_failures()
{
    static int n = 0;
    return n;
}
} // namespace harness

// Usage: model-tests [substring]  (runs the tests whose name contains it)
int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    for (harness::Test *t = harness::registry(); t; t = t->next) {
        if (argc > 1 && !std::strstr(t->name, argv[1]))
            continue;
        harness::current_failures() = 0;
        t->fn();
        if (harness::current_failures() == 0) {
            ++passed;
            std::printf("ok   %s\n", t->name);
        } else {
            ++failed;
            std::printf("FAIL %s\n", t->name);
        }
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return (failed == 0 && passed > 0) ? 0 : 1;
}
