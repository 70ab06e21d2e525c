/* suites.h - the groups of cases the unit-test binary runs. */
#ifndef SUITES_H
#define SUITES_H
void suite_codec(void);
void suite_probe(void);
void suite_commands(void);
void suite_stream(void);
void suite_link(void);
void suite_intervals(void);
void suite_histogram(void);
void suite_taps(void);
void suite_trace(void);
void suite_sim(const char *sim_binary);
void suite_debug_off(void);
void suite_debug(void); /* last: checks that no other suite tripped an assertion */
#endif
