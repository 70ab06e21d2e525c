// Parts of the GPU benchmark library that do not need CUDA: status codes and argument checks.
#include <stdio.h>

#include "gpu_bench.h"
#include "graph_bench.h"

namespace ps::gpu {

const char *status_code(Status s)
{
    switch (s) {
    case Status::Ok:
        return "PS_GPU_OK";
    case Status::NotBuilt:
        return "PS_GPU_NOT_BUILT";
    case Status::NoDevice:
        return "PS_GPU_NO_DEVICE";
    case Status::BadArgument:
        return "PS_GPU_BAD_ARGUMENT";
    case Status::Cancelled:
        return "PS_GPU_CANCELLED";
    case Status::CudaError:
        return "PS_GPU_CUDA";
    case Status::ChecksumMismatch:
        return "PS_GPU_CHECKSUM";
    }
    return "PS_GPU_CUDA";
}

namespace {

// The timing and device fields every GPU run has (micro and graph runs alike).
bool check_run_counts(uint32_t repeats, uint32_t warmup, int device, char *err, size_t errlen)
{
    if (repeats < 1 || repeats > 1000) {
        snprintf(err, errlen, "repeats must be 1..1000");
        return false;
    }
    if (warmup > 1000) {
        snprintf(err, errlen, "warmup must be 0..1000");
        return false;
    }
    if (device < 0) {
        snprintf(err, errlen, "device must be a CUDA device ordinal (0, 1, ...)");
        return false;
    }
    return true;
}

} // namespace

bool check_config(const RunConfig &cfg, char *err, size_t errlen)
{
    if ((unsigned)cfg.pattern >= kPatternCount) {
        snprintf(err, errlen, "unknown pattern %u (%s)", (unsigned)cfg.pattern, kPatternNameList);
        return false;
    }
    if (!workload_valid(cfg.bytes, cfg.offset, cfg.element_bytes, err, errlen, chunk_bytes_of(cfg)))
        return false;
    return check_run_counts(cfg.repeats, cfg.warmup, cfg.device, err, errlen);
}

const char *graph_memory_name(GraphMemory m)
{
    switch (m) {
    case GraphMemory::ZeroCopy:
        return "zerocopy";
    case GraphMemory::Uvm:
        return "uvm";
    case GraphMemory::UvmAccessedBy:
        return "uvm-accessed-by";
    case GraphMemory::Device:
        return "device";
    case GraphMemory::UvmPlain:
        return "uvm-plain";
    }
    return "?";
}

bool graph_memory_from_name(const char *name, GraphMemory *out)
{
    for (GraphMemory m : kGraphMemories) {
        if (ps_str_eq(graph_memory_name(m), name)) {
            *out = m;
            return true;
        }
    }
    return false;
}

bool check_graph_config(const GraphRunConfig &cfg, char *err, size_t errlen)
{
    if ((unsigned)cfg.kernel >= kGraphKernelCount) {
        snprintf(err, errlen, "unknown graph kernel %u (%s)", (unsigned)cfg.kernel,
                 kGraphKernelNameList);
        return false;
    }
    if (!cfg.graph || cfg.graph->vertices == 0) {
        snprintf(err, errlen, "the graph has no vertices");
        return false;
    }
    if (cfg.graph->vertices > kSsspInfinity) {
        snprintf(err, errlen, "the graph has %llu vertices: the kernels keep 32-bit vertex values",
                 (unsigned long long)cfg.graph->vertices);
        return false;
    }
    if (cfg.source >= cfg.graph->vertices) {
        snprintf(err, errlen, "source %llu is not a vertex (the graph has %llu)",
                 (unsigned long long)cfg.source, (unsigned long long)cfg.graph->vertices);
        return false;
    }
    return check_run_counts(cfg.repeats, cfg.warmup, cfg.device, err, errlen);
}

} // namespace ps::gpu
