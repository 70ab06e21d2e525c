// The GPU benchmark library with CUDA (gpu_bench.h): one kernel template per spec pattern,
// instantiated per lane width (4/8/16 B) and L1 use (default loads / ld.global.cg), each thread
// running the pattern's loop of native/model/patterns.h through kernel_body.h.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "gpu_bench.h"
#include "gpu_internal.h"
#include "kernel_body.h"
#include "nvml_link.h"

namespace ps::gpu {

namespace {

static_assert(kElementBytesCount == 3 && kElementBytesValues[0] == 4 && kElementBytesValues[1] == 8
                  && kElementBytesValues[2] == 16,
              "spec/workloads.json elementBytes changed: give the kernels a load of each width");
static_assert(kL1LoadCount == 2, "spec/workloads.json l1 changed: give the kernels each load kind");

// One lane's load of E bytes, returning the sum of its 32-bit words. Default loads compile to
// LDG.E (cached in L1); __ldcg to LDG.E.STRONG.GPU (ld.global.cg: L1 bypassed).
template <uint32_t E, bool Bypass> struct DeviceLoad;
template <> struct DeviceLoad<4, false> {
    __device__ uint64_t operator()(const unsigned char *p) const
    {
        return *reinterpret_cast<const unsigned int *>(p);
    }
};
template <> struct DeviceLoad<4, true> {
    __device__ uint64_t operator()(const unsigned char *p) const
    {
        return __ldcg(reinterpret_cast<const unsigned int *>(p));
    }
};
template <> struct DeviceLoad<8, false> {
    __device__ uint64_t operator()(const unsigned char *p) const
    {
        const uint2 v = *reinterpret_cast<const uint2 *>(p);
        return (uint64_t)v.x + v.y;
    }
};
template <> struct DeviceLoad<8, true> {
    __device__ uint64_t operator()(const unsigned char *p) const
    {
        const uint2 v = __ldcg(reinterpret_cast<const uint2 *>(p));
        return (uint64_t)v.x + v.y;
    }
};
template <> struct DeviceLoad<16, false> {
    __device__ uint64_t operator()(const unsigned char *p) const
    {
        const uint4 v = *reinterpret_cast<const uint4 *>(p);
        return (uint64_t)v.x + v.y + v.z + v.w;
    }
};
template <> struct DeviceLoad<16, true> {
    __device__ uint64_t operator()(const unsigned char *p) const
    {
        const uint4 v = __ldcg(reinterpret_cast<const uint4 *>(p));
        return (uint64_t)v.x + v.y + v.z + v.w;
    }
};

// The kernel of pattern P: every thread runs the pattern's loop (kernel_body.h thread_sum), the
// warp adds its lanes' sums and one lane adds that into *sum. At least 8 blocks per SM (<= 32
// registers): the reference grid of patterns.h (8 x 132 blocks) is resident at once on a 132-SM
// Hopper GPU, as the traffic model's resident set assumes.
constexpr int kMinBlocksPerSm = (int)kGpuMinBlocksPerSm; // spec/workloads.json gpus.minBlocksPerSm
template <Pattern P, uint32_t E, bool Bypass>
__global__ void __launch_bounds__(kBlockThreads, kMinBlocksPerSm)
    zc_read(PatternSpec spec, const unsigned char *base, unsigned long long *sum)
{
    const PatternSpec s = fixed_spec<P, E>(spec);
    const PatternShape shape = pattern_shape(s);
    const uint64_t thread = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t v = thread_sum(s, shape, thread, base, DeviceLoad<E, Bypass>{});
    for (int d = 16; d > 0; d >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, d);
    if ((threadIdx.x & 31) == 0 && v)
        atomicAdd(sum, (unsigned long long)v);
}

using KernelFn = void (*)(PatternSpec, const unsigned char *, unsigned long long *);

template <Pattern P, uint32_t E> KernelFn pick_l1(bool bypass)
{
    return bypass ? zc_read<P, E, true> : zc_read<P, E, false>;
}

template <Pattern P> KernelFn pick_width(uint32_t e, bool bypass)
{
    return e == 4 ? pick_l1<P, 4>(bypass) : e == 8 ? pick_l1<P, 8>(bypass) : pick_l1<P, 16>(bypass);
}

// No default: a pattern added to the spec without a kernel fails the build (-Werror=switch).
KernelFn pick_kernel(Pattern p, uint32_t e, bool bypass)
{
    switch (p) {
    case Pattern::Strided:
        return pick_width<Pattern::Strided>(e, bypass);
    case Pattern::MergedAligned:
        return pick_width<Pattern::MergedAligned>(e, bypass);
    case Pattern::MergedMisaligned:
        return pick_width<Pattern::MergedMisaligned>(e, bypass);
    }
    return nullptr;
}

} // namespace

// Shared with graph_bench.cu (gpu_internal.h).
namespace detail {

Status cuda_fail(cudaError_t e, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s failed: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
    return Status::CudaError;
}

// No driver, no device, or a driver too old for this runtime: the machine cannot run CUDA.
bool is_no_device(cudaError_t e)
{
    return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver
        || e == cudaErrorInitializationError || e == cudaErrorSystemDriverMismatch
        || e == cudaErrorCompatNotSupportedOnDevice;
}

Status device_count(int *n, char *err, size_t errlen)
{
    *n = 0;
    const cudaError_t e = cudaGetDeviceCount(n);
    if (e == cudaSuccess && *n > 0)
        return Status::Ok;
    if (e == cudaSuccess || is_no_device(e)) {
        // without a driver the runtime says "driver version is insufficient": say what it means
        void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
        if (driver)
            dlclose(driver);
        snprintf(err, errlen, "no CUDA device is usable on this machine: %s",
                 !driver                ? "no NVIDIA driver is installed (libcuda.so.1 not found)"
                     : e == cudaSuccess ? "the driver reports no GPU"
                                        : cudaGetErrorString(e));
        return Status::NoDevice;
    }
    return cuda_fail(e, "cudaGetDeviceCount", err, errlen);
}

Status describe(int dev, DeviceInfo *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, dev);
    if (e != cudaSuccess)
        return cuda_fail(e, "cudaGetDeviceProperties", err, errlen);
    snprintf(d->name, sizeof d->name, "%.127s", p.name);
    d->sm_count = p.multiProcessorCount;
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    cudaDriverGetVersion(&d->driver_version);
    cudaRuntimeGetVersion(&d->runtime_version);
    if (cudaDeviceGetPCIBusId(d->pci_bus_id, sizeof d->pci_bus_id, dev) != cudaSuccess)
        d->pci_bus_id[0] = 0;
    const PcieLink link = d->pci_bus_id[0] ? query_pcie_link(d->pci_bus_id) : PcieLink{};
    d->pcie_gen = link.max_gen;
    d->pcie_width = link.max_width;
    d->pcie_gen_current = link.cur_gen;
    d->pcie_width_current = link.cur_width;
    snprintf(d->nvidia_driver, sizeof d->nvidia_driver, "%s", link.driver);
    return Status::Ok;
}

Timing stats(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    Timing t;
    t.min_ms = v.front();
    t.max_ms = v.back();
    t.median_ms = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return t;
}

Status select_device(int dev, DeviceInfo *d, char *err, size_t errlen)
{
    int n = 0;
    Status s = device_count(&n, err, errlen);
    if (s != Status::Ok)
        return s;
    if (dev >= n) {
        snprintf(err, errlen, "device %d does not exist: this machine has %d CUDA device%s", dev, n,
                 n == 1 ? "" : "s");
        return Status::BadArgument;
    }
    const cudaError_t e = cudaSetDevice(dev);
    if (e != cudaSuccess)
        return cuda_fail(e, "cudaSetDevice", err, errlen);
    return describe(dev, d, err, errlen);
}

} // namespace detail

using namespace detail;

namespace {

// Everything run() allocates, released in one place whatever the exit path.
struct Resources {
    bool registered = false;
    unsigned char *host = nullptr; // 4-KiB aligned, pinned and mapped
    bool host_alloc = false;       // from cudaHostAlloc (else aligned_alloc + register)
    unsigned char *device_copy = nullptr;
    unsigned long long *sum = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    ~Resources()
    {
        if (start)
            cudaEventDestroy(start);
        if (stop)
            cudaEventDestroy(stop);
        if (sum)
            cudaFree(sum);
        if (device_copy)
            cudaFree(device_copy);
        if (host && host_alloc)
            cudaFreeHost(host);
        if (host && !host_alloc) {
            if (registered)
                cudaHostUnregister(host);
            free(host);
        }
    }
};

bool cancelled(const volatile bool *cancel) { return cancel && *cancel; }

} // namespace

bool cuda_built() { return true; }

Status list_devices(DeviceInfo *out, int max, int *count, char *err, size_t errlen)
{
    int n = 0;
    const Status s = device_count(&n, err, errlen);
    if (count)
        *count = n;
    if (s != Status::Ok)
        return s;
    for (int i = 0; i < n && i < max; ++i) {
        const Status d = describe(i, &out[i], err, errlen);
        if (d != Status::Ok)
            return d;
    }
    return Status::Ok;
}

Status run(const RunConfig &cfg, const volatile bool *cancel, ProgressFn progress, void *ctx,
           RunResult *out, char *err, size_t errlen)
{
    if (!check_config(cfg, err, errlen))
        return Status::BadArgument;
    memset(out, 0, sizeof *out);
    Status s = select_device(cfg.device, &out->device, err, errlen);
    if (s != Status::Ok)
        return s;
    cudaError_t e = cudaSuccess;
    auto report = [&](const char *phase, uint32_t done, uint32_t total) {
        if (progress)
            progress(ctx, phase, done, total);
    };

    // The buffer: offset + bytes rounded up to whole pages, base page-aligned (so 128-B aligned).
    Resources r;
    const uint64_t size = (cfg.offset + cfg.bytes + 4095) / 4096 * 4096;
    if (cfg.host_register) {
        r.host = static_cast<unsigned char *>(aligned_alloc(4096, size));
        if (!r.host) {
            snprintf(err, errlen, "cannot allocate %llu bytes of host memory",
                     (unsigned long long)size);
            return Status::CudaError;
        }
        e = cudaHostRegister(r.host, size, cudaHostRegisterMapped);
        if (e != cudaSuccess)
            return cuda_fail(e, "cudaHostRegister (mapped)", err, errlen);
        r.registered = true;
    } else {
        void *p = nullptr;
        e = cudaHostAlloc(&p, size, cudaHostAllocMapped);
        if (e != cudaSuccess)
            return cuda_fail(e, "cudaHostAlloc (mapped)", err, errlen);
        r.host = static_cast<unsigned char *>(p);
        r.host_alloc = true;
    }
    void *mapped = nullptr;
    e = cudaHostGetDevicePointer(&mapped, r.host, 0);
    if (e != cudaSuccess)
        return cuda_fail(e, "cudaHostGetDevicePointer", err, errlen);
    report("fill", 0, 1);
    fill_buffer(r.host, size / 4);
    out->checksum_cpu = reference_sum(r.host, cfg.offset, cfg.bytes);
    report("fill", 1, 1);

    if ((e = cudaMalloc(&r.device_copy, cfg.bytes)) != cudaSuccess)
        return cuda_fail(e, "cudaMalloc (memcpy target)", err, errlen);
    if ((e = cudaMalloc(&r.sum, sizeof *r.sum)) != cudaSuccess)
        return cuda_fail(e, "cudaMalloc (checksum)", err, errlen);
    if ((e = cudaEventCreate(&r.start)) != cudaSuccess
        || (e = cudaEventCreate(&r.stop)) != cudaSuccess)
        return cuda_fail(e, "cudaEventCreate", err, errlen);

    const PatternSpec spec =
        make_pattern_spec(cfg.pattern, cfg.bytes, cfg.offset, cfg.element_bytes);
    const PatternShape shape = pattern_shape(spec);
    const uint64_t blocks = ps_div_ceil(shape.threads, kBlockThreads);
    out->threads = (uint32_t)shape.threads;
    out->blocks = (uint32_t)blocks;
    out->block_threads = kBlockThreads;
    out->grid_warps = spec.grid_warps;
    out->payload_bytes = cfg.bytes;
    const KernelFn kernel = pick_kernel(cfg.pattern, cfg.element_bytes, cfg.bypass_l1);
    const uint32_t total = cfg.warmup + cfg.repeats;

    // Kernel runs: warm-up then timed; every run's checksum is checked.
    std::vector<float> kernel_ms, copy_ms;
    bool all_ok = true;
    for (uint32_t i = 0; i < total; ++i) {
        if (cancelled(cancel)) {
            snprintf(err, errlen, "the run was cancelled");
            return Status::Cancelled;
        }
        report(i < cfg.warmup ? "warmup" : "kernel", i < cfg.warmup ? i : i - cfg.warmup,
               i < cfg.warmup ? cfg.warmup : cfg.repeats);
        if ((e = cudaMemset(r.sum, 0, sizeof *r.sum)) != cudaSuccess)
            return cuda_fail(e, "cudaMemset", err, errlen);
        cudaEventRecord(r.start);
        kernel<<<(unsigned)blocks, kBlockThreads>>>(
            spec, static_cast<const unsigned char *>(mapped), r.sum);
        cudaEventRecord(r.stop);
        if ((e = cudaGetLastError()) != cudaSuccess)
            return cuda_fail(e, "kernel launch", err, errlen);
        if ((e = cudaEventSynchronize(r.stop)) != cudaSuccess)
            return cuda_fail(e, "kernel", err, errlen);
        float ms = 0;
        cudaEventElapsedTime(&ms, r.start, r.stop);
        unsigned long long got = 0;
        if ((e = cudaMemcpy(&got, r.sum, sizeof got, cudaMemcpyDeviceToHost)) != cudaSuccess)
            return cuda_fail(e, "cudaMemcpy (checksum)", err, errlen);
        out->checksum_gpu = got;
        all_ok = all_ok && got == out->checksum_cpu;
        if (i >= cfg.warmup)
            kernel_ms.push_back(ms);
    }
    report("kernel", cfg.repeats, cfg.repeats);

    // Baseline: cudaMemcpy host-to-device of the same bytes from the same pinned buffer.
    for (uint32_t i = 0; i < total; ++i) {
        if (cancelled(cancel)) {
            snprintf(err, errlen, "the run was cancelled");
            return Status::Cancelled;
        }
        report("memcpy", i, total);
        cudaEventRecord(r.start);
        e = cudaMemcpyAsync(r.device_copy, r.host + cfg.offset, cfg.bytes, cudaMemcpyHostToDevice);
        cudaEventRecord(r.stop);
        if (e != cudaSuccess)
            return cuda_fail(e, "cudaMemcpyAsync (host to device)", err, errlen);
        if ((e = cudaEventSynchronize(r.stop)) != cudaSuccess)
            return cuda_fail(e, "cudaMemcpy (host to device)", err, errlen);
        float ms = 0;
        cudaEventElapsedTime(&ms, r.start, r.stop);
        if (i >= cfg.warmup)
            copy_ms.push_back(ms);
    }
    report("memcpy", total, total);

    out->kernel = stats(kernel_ms);
    out->memcpy_h2d = stats(copy_ms);
    out->kernel_gbps = cfg.bytes / (out->kernel.median_ms * 1e-3) / 1e9;
    out->memcpy_gbps = cfg.bytes / (out->memcpy_h2d.median_ms * 1e-3) / 1e9;
    out->ratio_to_memcpy = out->kernel_gbps / out->memcpy_gbps;
    out->checksum_ok = all_ok;
    // the link as trained right after the traffic (an idle GPU may have downclocked it before)
    const PcieLink link = query_pcie_link(out->device.pci_bus_id);
    out->device.pcie_gen_current = link.cur_gen;
    out->device.pcie_width_current = link.cur_width;
    if (!all_ok) {
        snprintf(err, errlen,
                 "the kernel's checksum 0x%016llx differs from the CPU's 0x%016llx: it did not "
                 "read exactly the workload's bytes",
                 (unsigned long long)out->checksum_gpu, (unsigned long long)out->checksum_cpu);
        return Status::ChecksumMismatch;
    }
    return Status::Ok;
}

} // namespace ps::gpu
