// The GPU's own PCIe counters, sampled on a thread: CUPTI's PM sampling where the driver allows
// it, NVML's PCIe throughput otherwise. No CUDA header here: the addon and the CLI build against
// this on machines without CUDA, where every start answers PS_GPU_COUNTERS_UNAVAILABLE.
#ifndef PCIE_SCOPE_SAMPLER_SAMPLER_H
#define PCIE_SCOPE_SAMPLER_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include <string>
#include <vector>

namespace ps::sampler {

enum class Status {
    Ok = 0,
    Unavailable,
    BadArgument,
    Failed
};

// The stable code of each status ("PS_GPU_COUNTERS_UNAVAILABLE", ...).
const char *status_code(Status s);

// What a counter means to the derivations (host/src/gpu-counters/derive.ts).
enum class Role {
    ReadBytes,          // PCIe bytes into the GPU: completions (payload + headers) and host writes
    WriteBytes,         // PCIe bytes out of the GPU: read requests, GPU writes to host memory
    SysmemReadSectors,  // L2 32-B sectors read from system memory
    SysmemWriteSectors, // L2 32-B sectors written to system memory
    Other,
};
const char *role_name(Role r);

struct Metric {
    std::string name; // as the source names it: "pcie__read_bytes.sum", "nvml:rx"
    Role role;
};

// The most samples one decode pass takes (the counter-data image holds twice as many): the poll
// period shrinks for intervals so short that poll_ms would exceed it.
constexpr uint64_t kMaxSamplesPerPoll = 8192;

struct Config {
    int device = 0;                          // CUDA device ordinal (NVML: the same index)
    uint64_t interval_ns = 1000000;          // sampling interval
    std::string source = "auto";             // auto | pm-sampling | nvml
    uint64_t hw_buffer_bytes = 256ull << 20; // PM sampling's hardware buffer
    uint32_t poll_ms = 100; // decode passes: each costs CPU, most while the GPU is busy
};

struct SourceInfo {
    std::string source;               // "pm-sampling" or "nvml"
    std::string chip;                 // "GH100" (PM sampling), the NVML device name otherwise
    std::vector<Metric> metrics;      // what each sample holds, in order
    std::vector<std::string> offered; // the chip's PCIe and sysmem base metrics (PM sampling)
    uint64_t interval_ns = 0;         // the interval in force
    std::string origin_ns;            // the source's clock at time 0 of the samples, decimal
    std::vector<std::string> dropped; // wanted and offered, but not in one pass with those kept
    std::string trigger;              // PM sampling: "time" (ns) or "sysclk" (cycles); else ""
    std::string fallback_reason;      // why PM sampling was not used, when source is nvml
};

// A batch: `count` samples of `stride` = 2 + metrics doubles each: start and end in ns since
// origin_ns, then one value per metric.
struct Batch {
    const double *data;
    size_t count, stride;
    uint64_t lost_total;    // samples known missing so far (gaps, overflow, dropped)
    uint64_t samples_total; // samples delivered so far, this batch included
    double thread_cpu_s;    // CPU time of the sampling thread so far
    bool overflow;          // the GPU's buffer overflowed: samples after it are lost
};

struct Callbacks {
    void *ctx = nullptr;
    void (*on_start)(void *ctx, const SourceInfo &info) = nullptr;
    void (*on_batch)(void *ctx, const Batch &b) = nullptr;
};

// Samples until *stop is raised, on the calling thread: on_start once the source runs, then a
// batch per poll. Returns Ok after a clean stop, else the status and one sentence in *err.
Status run(const Config &cfg, const Callbacks &cb, const volatile bool *stop, std::string *err);

// Whether this build has the PM sampling source (CUPTI headers were found at build time).
bool pm_sampling_built();

} // namespace ps::sampler

#endif
