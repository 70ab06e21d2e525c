/* test_main.c - the firmware unit tests on the test port. Usage: ps_tests [sim-port-binary] */
#include "suites.h"
#include "th.h"

int main(int argc, char **argv)
{
    suite_codec();
    suite_probe();
    suite_commands();
    suite_stream();
    suite_link();
    suite_intervals();
    suite_histogram();
    suite_taps();
    suite_trace();
    if (argc > 1) {
        suite_sim(argv[1]);
    }
    suite_debug_off();
    suite_debug();
    return th_finish("");
}
