// pcie-scope GPU zero-copy benchmark library (native/cuda): runs one access pattern of
// native/model/patterns.h as a CUDA kernel over pinned, mapped host memory, times it against a
// cudaMemcpy host-to-device of the same bytes, and checks what the kernel read.
//
// Built two ways from one header (native/cuda/CMakeLists.txt, target ps_gpu_bench): with nvcc,
// the real implementation (gpu_bench.cu); without, a stub (gpu_bench_stub.cpp) whose cuda_built()
// is false and whose list_devices/run return Status::NotBuilt with one sentence saying why, so
// the runner and the Node addon always link. Status codes are stable strings (status_code()).
//
// Threading: run() blocks the calling thread for the whole measurement; call it from a worker.
// `cancel` (may be null) is polled between warm-up and timed repeats; `progress` (may be null)
// is called on the same thread with the phase ("fill", "warmup", "kernel", "memcpy") and counts.
#ifndef PCIE_SCOPE_CUDA_GPU_BENCH_H
#define PCIE_SCOPE_CUDA_GPU_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "patterns.h"

namespace ps::gpu {

struct RunConfig {
    Pattern pattern;
    uint64_t bytes;         // useful bytes (workload rules of patterns.h: workload_valid)
    uint32_t offset;        // data offset from the 128-B aligned buffer base
    uint32_t element_bytes; // lane load width: 4, 8 or 16
    bool bypass_l1;         // true: ld.global.cg loads (spec l1 "bypass"); false: default loads
    uint32_t warmup;        // untimed runs first (kernel and memcpy each)
    uint32_t repeats;       // timed runs (>= 1); median, min and max are reported
    int device;             // CUDA device ordinal
    bool host_register;     // false: cudaHostAlloc mapped; true: malloc + cudaHostRegister mapped
    uint64_t chunk_bytes;   // merged-chunked: bytes each warp walks (0: spec default)
};

// The chunk a config runs at (0 means the spec's default).
inline uint64_t chunk_bytes_of(const RunConfig &cfg)
{
    return cfg.chunk_bytes ? cfg.chunk_bytes : kChunkBytesDefault;
}

struct DeviceInfo {
    char name[128];
    int pcie_gen;   // the link generation the GPU and system support (NVML max), -1 unknown
    int pcie_width; // lanes (NVML max), -1 unknown
    int sm_count;
    int cc_major, cc_minor;
    int driver_version;     // cudaDriverGetVersion, e.g. 13000
    int runtime_version;    // cudaRuntimeGetVersion
    char pci_bus_id[32];    // "0000:65:00.0"
    int pcie_gen_current;   // NVML current link generation (after the run), -1 unknown
    int pcie_width_current; // NVML current link width, -1 unknown
    char nvidia_driver[32]; // NVML's driver version ("580.65.06"), "" unknown
};

struct Timing {
    double median_ms, min_ms, max_ms;
};

struct RunResult {
    DeviceInfo device;
    Timing kernel;
    Timing memcpy_h2d;
    uint64_t payload_bytes;                           // useful bytes the kernel read (= cfg.bytes)
    double kernel_gbps, memcpy_gbps, ratio_to_memcpy; // GB/s = 1e9 B/s, from the medians
    uint64_t checksum_gpu, checksum_cpu;
    bool checksum_ok; // every run's (warm-up and timed) GPU checksum equalled the CPU's
    uint32_t threads, blocks;
    uint32_t block_threads; // 256
    uint64_t grid_warps;    // patterns.h grid_warps the merged patterns stride over
};

enum class Status {
    Ok = 0,
    NotBuilt /* compiled without CUDA */,
    NoDevice,
    BadArgument,
    Cancelled,
    CudaError,
    ChecksumMismatch
};

using ProgressFn = void (*)(void *ctx, const char *phase, uint32_t done, uint32_t total);

// "PS_GPU_OK", "PS_GPU_NOT_BUILT", "PS_GPU_NO_DEVICE", "PS_GPU_BAD_ARGUMENT",
// "PS_GPU_CANCELLED", "PS_GPU_CUDA", "PS_GPU_CHECKSUM"
const char *status_code(Status);
bool cuda_built();
// Fills up to `max` entries of `out`; *count = devices present (may exceed max).
Status list_devices(DeviceInfo *out, int max, int *count, char *err, size_t errlen);
Status run(const RunConfig &cfg, const volatile bool *cancel, ProgressFn progress, void *ctx,
           RunResult *out, char *err, size_t errlen);

// Several GPUs at once (run_multi): every listed device runs cfg's kernel over ONE pinned, mapped
// host buffer (cudaHostAllocPortable), first each device alone, then all of them together,
// started by one barrier; each device's timed repeats are its own median.
constexpr int kMaxDevices = 16;
struct MultiRunResult {
    int count;                       // devices run
    RunResult alone[kMaxDevices];    // device i by itself (the others idle)
    RunResult together[kMaxDevices]; // device i while every device runs
    double together_wall_ms;         // first start to last end of the concurrent repeats
    double total_gbps;               // every device's bytes over together_wall_ms
    double sum_alone_gbps;           // the devices' alone GB/s added up
};
// devices: ordinals; count 1..kMaxDevices. cfg.device is ignored.
Status run_multi(const RunConfig &cfg, const int *devices, int count, const volatile bool *cancel,
                 MultiRunResult *out, char *err, size_t errlen);

// Keep the last run's pinned host buffer for the next run of the process (a sweep of many
// kernels); off by default, and off again releases it.
void keep_host_buffer(bool keep);

// Shared by both builds: the argument check run() applies first (BadArgument + one sentence).
bool check_config(const RunConfig &cfg, char *err, size_t errlen);

constexpr uint32_t kBlockThreads = kGpuBlockThreads; // spec/workloads.json gpus.blockThreads

} // namespace ps::gpu

#endif
