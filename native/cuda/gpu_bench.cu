// The GPU benchmark library with CUDA (gpu_bench.h): one kernel template per spec pattern,
// instantiated per lane width (4/8/16 B) and L1 use (default loads / ld.global.cg), each thread
// running the pattern's loop of native/model/patterns.h through kernel_body.h.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <thread>
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
    case Pattern::MergedChunked:
        return pick_width<Pattern::MergedChunked>(e, bypass);
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

// A pinned, mapped, filled host buffer (buffer_word(i) at word i over all `size` bytes).
struct HostBuffer {
    unsigned char *host = nullptr; // 4-KiB aligned, pinned and mapped
    uint64_t size = 0;
    bool registered = false;
    bool host_alloc = false; // from cudaHostAlloc (else aligned_alloc + register)
    bool portable = false;   // mapped for every device (cudaHostAllocPortable)
    void release()
    {
        if (host && host_alloc)
            cudaFreeHost(host);
        if (host && !host_alloc) {
            if (registered)
                cudaHostUnregister(host);
            free(host);
        }
        *this = HostBuffer{};
    }
};

// The runner's batch mode keeps the last buffer between runs (keep_host_buffer): a 1-GiB buffer
// takes a second to pin and fill, which a sweep of many kernels would pay every time.
std::mutex g_cache_mutex;
HostBuffer g_cached;
bool g_keep_buffer = false;

// Everything run() allocates, released in one place whatever the exit path.
struct Resources {
    HostBuffer buf;
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
        std::lock_guard<std::mutex> lock(g_cache_mutex);
        if (g_keep_buffer && buf.host && (!g_cached.host || g_cached.size <= buf.size)) {
            g_cached.release();
            g_cached = buf;
        } else {
            buf.release();
        }
    }
};

// A buffer of at least `size` bytes in the asked flavour: the cached one when it fits, else a
// new one, pinned, mapped and filled.
Status host_buffer(uint64_t size, bool host_register, bool portable, HostBuffer *out, char *err,
                   size_t errlen)
{
    {
        std::lock_guard<std::mutex> lock(g_cache_mutex);
        if (g_cached.host && g_cached.size >= size && g_cached.registered == host_register
            && g_cached.portable == portable) {
            *out = g_cached;
            g_cached = HostBuffer{};
            return Status::Ok;
        }
    }
    cudaError_t e = cudaSuccess;
    out->size = size;
    out->portable = portable;
    if (host_register) {
        out->host = static_cast<unsigned char *>(aligned_alloc(4096, size));
        if (!out->host) {
            snprintf(err, errlen, "cannot allocate %llu bytes of host memory",
                     (unsigned long long)size);
            return Status::CudaError;
        }
        e = cudaHostRegister(out->host, size,
                             cudaHostRegisterMapped | (portable ? cudaHostRegisterPortable : 0));
        if (e != cudaSuccess)
            return cuda_fail(e, "cudaHostRegister (mapped)", err, errlen);
        out->registered = true;
    } else {
        void *p = nullptr;
        e = cudaHostAlloc(&p, size, cudaHostAllocMapped | (portable ? cudaHostAllocPortable : 0));
        if (e != cudaSuccess)
            return cuda_fail(e, "cudaHostAlloc (mapped)", err, errlen);
        out->host = static_cast<unsigned char *>(p);
        out->host_alloc = true;
    }
    fill_buffer(out->host, size / 4);
    return Status::Ok;
}

bool cancelled(const volatile bool *cancel) { return cancel && *cancel; }

} // namespace

bool cuda_built() { return true; }

void keep_host_buffer(bool keep)
{
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    g_keep_buffer = keep;
    if (!keep)
        g_cached.release();
}

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
    report("fill", 0, 1);
    if ((s = host_buffer(size, cfg.host_register, false, &r.buf, err, errlen)) != Status::Ok)
        return s;
    void *mapped = nullptr;
    e = cudaHostGetDevicePointer(&mapped, r.buf.host, 0);
    if (e != cudaSuccess)
        return cuda_fail(e, "cudaHostGetDevicePointer", err, errlen);
    out->checksum_cpu = reference_sum(r.buf.host, cfg.offset, cfg.bytes);
    report("fill", 1, 1);

    if ((e = cudaMalloc(&r.device_copy, cfg.bytes)) != cudaSuccess)
        return cuda_fail(e, "cudaMalloc (memcpy target)", err, errlen);
    if ((e = cudaMalloc(&r.sum, sizeof *r.sum)) != cudaSuccess)
        return cuda_fail(e, "cudaMalloc (checksum)", err, errlen);
    if ((e = cudaEventCreate(&r.start)) != cudaSuccess
        || (e = cudaEventCreate(&r.stop)) != cudaSuccess)
        return cuda_fail(e, "cudaEventCreate", err, errlen);

    const PatternSpec spec =
        make_pattern_spec(cfg.pattern, cfg.bytes, cfg.offset, cfg.element_bytes, kDefaultGridWarps,
                          chunk_bytes_of(cfg));
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
        e = cudaMemcpyAsync(r.device_copy, r.buf.host + cfg.offset, cfg.bytes,
                            cudaMemcpyHostToDevice);
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

namespace {

// One device's part of run_multi: its checksum word, events and stream, and its pointer to the
// shared host buffer.
struct DeviceSide {
    int device = 0;
    const unsigned char *mapped = nullptr;
    unsigned long long *sum = nullptr;
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    ~DeviceSide()
    {
        if (!sum)
            return;
        cudaSetDevice(device);
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
        cudaStreamDestroy(stream);
        cudaFree(sum);
    }
};

Status prepare_side(int dev, unsigned char *host, DeviceSide *d, char *err, size_t errlen)
{
    d->device = dev;
    cudaError_t e = cudaSetDevice(dev);
    if (e != cudaSuccess)
        return cuda_fail(e, "cudaSetDevice", err, errlen);
    void *mapped = nullptr;
    if ((e = cudaHostGetDevicePointer(&mapped, host, 0)) != cudaSuccess)
        return cuda_fail(e, "cudaHostGetDevicePointer", err, errlen);
    d->mapped = static_cast<const unsigned char *>(mapped);
    if ((e = cudaMalloc(&d->sum, sizeof *d->sum)) != cudaSuccess
        || (e = cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking)) != cudaSuccess
        || (e = cudaEventCreate(&d->start)) != cudaSuccess
        || (e = cudaEventCreate(&d->stop)) != cudaSuccess)
        return cuda_fail(e, "device set-up", err, errlen);
    return Status::Ok;
}

// `runs` kernels on one device, timed by its events; *all_ok is false if any checksum differs.
cudaError_t run_side(const DeviceSide &d, const PatternSpec &spec, KernelFn kernel, uint64_t blocks,
                     uint32_t runs, uint64_t want, std::vector<float> *ms, bool *all_ok,
                     uint64_t *last)
{
    cudaError_t e = cudaSetDevice(d.device);
    for (uint32_t i = 0; i < runs && e == cudaSuccess; ++i) {
        if ((e = cudaMemsetAsync(d.sum, 0, sizeof *d.sum, d.stream)) != cudaSuccess)
            break;
        cudaEventRecord(d.start, d.stream);
        kernel<<<(unsigned)blocks, kBlockThreads, 0, d.stream>>>(spec, d.mapped, d.sum);
        cudaEventRecord(d.stop, d.stream);
        if ((e = cudaGetLastError()) != cudaSuccess
            || (e = cudaEventSynchronize(d.stop)) != cudaSuccess)
            break;
        float t = 0;
        cudaEventElapsedTime(&t, d.start, d.stop);
        unsigned long long got = 0;
        if ((e = cudaMemcpy(&got, d.sum, sizeof got, cudaMemcpyDeviceToHost)) != cudaSuccess)
            break;
        *last = got;
        *all_ok = *all_ok && got == want;
        if (ms)
            ms->push_back(t);
    }
    return e;
}

// A barrier for the concurrent section: every device thread starts its timed runs together.
class Barrier {
public:
    explicit Barrier(int n) : left_(n) {}
    void wait()
    {
        std::unique_lock<std::mutex> lock(m_);
        if (--left_ == 0)
            cv_.notify_all();
        else
            cv_.wait(lock, [this] { return left_ <= 0; });
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    int left_;
};

void fill_result(const RunConfig &cfg, const PatternShape &shape, uint64_t blocks,
                 const std::vector<float> &ms, RunResult *r)
{
    r->kernel = stats(ms);
    r->payload_bytes = cfg.bytes;
    r->kernel_gbps = cfg.bytes / (r->kernel.median_ms * 1e-3) / 1e9;
    r->threads = (uint32_t)shape.threads;
    r->blocks = (uint32_t)blocks;
    r->block_threads = kBlockThreads;
    r->grid_warps = kDefaultGridWarps;
}

} // namespace

Status run_multi(const RunConfig &cfg, const int *devices, int count, const volatile bool *cancel,
                 MultiRunResult *out, char *err, size_t errlen)
{
    if (!check_config(cfg, err, errlen))
        return Status::BadArgument;
    if (count < 1 || count > kMaxDevices) {
        snprintf(err, errlen, "1..%d devices can run together", kMaxDevices);
        return Status::BadArgument;
    }
    memset(out, 0, sizeof *out);
    out->count = count;
    for (int i = 0; i < count; ++i) {
        const Status s = select_device(devices[i], &out->alone[i].device, err, errlen);
        if (s != Status::Ok)
            return s;
        out->together[i].device = out->alone[i].device;
    }
    Resources r; // the shared buffer (its device parts stay unused)
    const uint64_t size = (cfg.offset + cfg.bytes + 4095) / 4096 * 4096;
    Status s = host_buffer(size, cfg.host_register, true, &r.buf, err, errlen);
    if (s != Status::Ok)
        return s;
    const uint64_t want = reference_sum(r.buf.host, cfg.offset, cfg.bytes);
    std::vector<DeviceSide> sides(count);
    for (int i = 0; i < count; ++i)
        if ((s = prepare_side(devices[i], r.buf.host, &sides[i], err, errlen)) != Status::Ok)
            return s;
    const PatternSpec spec =
        make_pattern_spec(cfg.pattern, cfg.bytes, cfg.offset, cfg.element_bytes, kDefaultGridWarps,
                          chunk_bytes_of(cfg));
    const PatternShape shape = pattern_shape(spec);
    const uint64_t blocks = ps_div_ceil(shape.threads, kBlockThreads);
    const KernelFn kernel = pick_kernel(cfg.pattern, cfg.element_bytes, cfg.bypass_l1);

    bool all_ok = true;
    // each device alone
    for (int i = 0; i < count; ++i) {
        if (cancelled(cancel)) {
            snprintf(err, errlen, "the run was cancelled");
            return Status::Cancelled;
        }
        std::vector<float> ms;
        uint64_t last = 0;
        cudaError_t e =
            run_side(sides[i], spec, kernel, blocks, cfg.warmup, want, nullptr, &all_ok, &last);
        if (e == cudaSuccess)
            e = run_side(sides[i], spec, kernel, blocks, cfg.repeats, want, &ms, &all_ok, &last);
        if (e != cudaSuccess)
            return cuda_fail(e, "kernel (one device alone)", err, errlen);
        fill_result(cfg, shape, blocks, ms, &out->alone[i]);
        out->alone[i].checksum_gpu = last;
        out->alone[i].checksum_cpu = want;
        out->alone[i].checksum_ok = all_ok;
        out->sum_alone_gbps += out->alone[i].kernel_gbps;
    }
    // every device at once: warm-up, a barrier, then the timed runs side by side
    using Clock = std::chrono::steady_clock;
    std::vector<Clock::time_point> t0(count), t1(count);
    std::vector<std::vector<float>> ms(count);
    std::vector<cudaError_t> errs(count, cudaSuccess);
    std::vector<char> oks(count, 1);
    std::vector<uint64_t> lasts(count, 0);
    Barrier barrier(count);
    std::vector<std::thread> threads;
    for (int i = 0; i < count; ++i) {
        threads.emplace_back([&, i] {
            bool ok = true;
            errs[i] =
                run_side(sides[i], spec, kernel, blocks, cfg.warmup, want, nullptr, &ok, &lasts[i]);
            barrier.wait();
            t0[i] = Clock::now();
            if (errs[i] == cudaSuccess)
                errs[i] = run_side(sides[i], spec, kernel, blocks, cfg.repeats, want, &ms[i], &ok,
                                   &lasts[i]);
            t1[i] = Clock::now();
            oks[i] = ok;
        });
    }
    for (std::thread &t : threads)
        t.join();
    Clock::time_point first = t0[0], last = t1[0];
    for (int i = 0; i < count; ++i) {
        if (errs[i] != cudaSuccess)
            return cuda_fail(errs[i], "kernel (devices together)", err, errlen);
        fill_result(cfg, shape, blocks, ms[i], &out->together[i]);
        out->together[i].checksum_gpu = lasts[i];
        out->together[i].checksum_cpu = want;
        out->together[i].checksum_ok = oks[i];
        all_ok = all_ok && oks[i];
        first = std::min(first, t0[i]);
        last = std::max(last, t1[i]);
    }
    out->together_wall_ms = std::chrono::duration<double, std::milli>(last - first).count();
    out->total_gbps =
        (double)cfg.bytes * cfg.repeats * count / (out->together_wall_ms * 1e-3) / 1e9;
    if (!all_ok) {
        snprintf(err, errlen,
                 "a device's checksum differs from the CPU's: it did not read exactly "
                 "the workload's bytes");
        return Status::ChecksumMismatch;
    }
    return Status::Ok;
}

} // namespace ps::gpu
