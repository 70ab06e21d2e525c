/* test_sim.c - runs the sim-port binary (it links hal_sim, so it cannot share this one). */
#include <stdio.h>
#include <stdlib.h>

#include "suites.h"
#include "th.h"

static const char *g_bin;

static void sim_port_over_a_pty(void)
{
    fflush(stdout); /* keep the child's lines in order with ours */
    int rc = system(g_bin);
    TH_EQ(rc, 0);
}

void suite_sim(const char *sim_binary)
{
    g_bin = sim_binary;
    TH_RUN(sim_port_over_a_pty);
}
