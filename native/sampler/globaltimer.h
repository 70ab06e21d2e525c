// The GPU's %globaltimer in ns (globaltimer.cu), for placing host times on the samples' clock.
#ifndef PCIE_SCOPE_SAMPLER_GLOBALTIMER_H
#define PCIE_SCOPE_SAMPLER_GLOBALTIMER_H

#include <stdint.h>

bool ps_read_globaltimer(uint64_t *out);
// Mean ns of one dependent 4-B read of host memory by one thread, nothing else running.
bool ps_idle_round_trip_ns(double *out);

#endif
