// The GPU's global timer (the clock PM sampling stamps its samples with), read by one thread.
#include <cuda_runtime.h>
#include <stdint.h>

#include "globaltimer.h"

namespace {
__global__ void read_globaltimer(unsigned long long *out)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    *out = t;
}
} // namespace

bool ps_read_globaltimer(uint64_t *out)
{
    unsigned long long *d = nullptr;
    if (cudaMalloc(&d, sizeof *d) != cudaSuccess)
        return false;
    read_globaltimer<<<1, 1>>>(d);
    unsigned long long h = 0;
    const bool ok = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess;
    cudaFree(d);
    *out = h;
    return ok;
}

namespace {
// One thread follows a chain through host memory, each load's address the previous load's
// value, L1 bypassed and every line touched once: each step is one idle PCIe round trip.
__global__ void chase(const unsigned *chain, unsigned steps, unsigned long long *ns, unsigned *sink)
{
    unsigned i = 0;
    unsigned long long t0, t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    for (unsigned k = 0; k < steps; ++k)
        i = __ldcg(chain + i);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    *ns = t1 - t0;
    *sink = i;
}
} // namespace

bool ps_idle_round_trip_ns(double *out)
{
    const unsigned stride = 4160 / 4, slots = 16384, steps = 4096; // 4160 B: a new page each step
    unsigned *host = nullptr;
    if (cudaHostAlloc(&host, (size_t)stride * slots * 4, cudaHostAllocMapped) != cudaSuccess)
        return false;
    // slot k -> slot (k * 7919 + 1) mod slots: a walk that visits distinct lines
    for (unsigned k = 0; k < slots; ++k)
        host[(size_t)k * stride] = ((k * 7919u + 1u) % slots) * stride;
    unsigned *dev = nullptr;
    cudaHostGetDevicePointer(&dev, host, 0);
    unsigned long long *ns = nullptr;
    unsigned *sink = nullptr;
    bool ok = cudaMalloc(&ns, sizeof *ns) == cudaSuccess
        && cudaMalloc(&sink, sizeof *sink) == cudaSuccess;
    unsigned long long h = 0;
    if (ok) {
        chase<<<1, 1>>>(dev, steps, ns, sink);
        ok = cudaMemcpy(&h, ns, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess;
    }
    cudaFree(ns);
    cudaFree(sink);
    cudaFreeHost(host);
    *out = (double)h / steps;
    return ok;
}
