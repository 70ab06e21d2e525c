// GPU graph traversal with CUDA (graph_bench.h): one BFS level kernel per (kernel, id width),
// each thread running graph_kernel_body.h's bfs_thread over native/model/graph_kernels.h.
#include <cuda_runtime.h>

#include <stdio.h>
#include <string.h>

#include <type_traits>
#include <vector>

#include "gpu_internal.h"
#include "graph_bench.h"
#include "graph_kernel_body.h"
#include "graph_reference.h"

namespace ps::gpu {

using namespace detail;

namespace {

static_assert(kGraphKernelCount == 3, "spec graphs.kernels changed: give each kernel a launch");

// A neighbour id of IdBytes from the edge list, a default (L1-cached) load as EMOGI's kernels.
template <uint32_t IdBytes> struct DeviceLoadId;
template <> struct DeviceLoadId<4> {
    const unsigned int *edges;
    __device__ uint64_t operator()(uint64_t i) const { return edges[i]; }
};
template <> struct DeviceLoadId<8> {
    const unsigned long long *edges;
    __device__ uint64_t operator()(uint64_t i) const { return edges[i]; }
};

template <GraphKernel K, uint32_t IdBytes>
__global__ void __launch_bounds__(kGraphBlockThreads)
    bfs_level(const uint64_t *offsets, const void *edges, uint32_t *labels, uint64_t vertices,
              uint32_t level, unsigned int *changed)
{
    const uint64_t thread = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    using Id = typename std::conditional<IdBytes == 4, unsigned int, unsigned long long>::type;
    const DeviceLoadId<IdBytes> load{static_cast<const Id *>(edges)};
    if (bfs_thread(K, thread, vertices, level, offsets, IdBytes, load, labels))
        *changed = 1;
}

using LevelFn = void (*)(const uint64_t *, const void *, uint32_t *, uint64_t, uint32_t,
                         unsigned int *);

template <GraphKernel K> LevelFn pick_width(uint32_t id_bytes)
{
    return id_bytes == 4 ? bfs_level<K, 4> : bfs_level<K, 8>;
}

// No default: a kernel added to the spec without a launch fails the build (-Werror=switch).
LevelFn pick_level_kernel(GraphKernel k, uint32_t id_bytes)
{
    switch (k) {
    case GraphKernel::BfsNaive:
        return pick_width<GraphKernel::BfsNaive>(id_bytes);
    case GraphKernel::BfsMerged:
        return pick_width<GraphKernel::BfsMerged>(id_bytes);
    case GraphKernel::BfsAligned:
        return pick_width<GraphKernel::BfsAligned>(id_bytes);
    }
    return nullptr;
}

// Everything run_graph() allocates, released in one place whatever the exit path.
struct GraphResources {
    uint64_t *offsets = nullptr;
    uint32_t *labels = nullptr;
    unsigned int *changed = nullptr;
    void *edges = nullptr; // the memory's allocation
    GraphMemory memory = GraphMemory::ZeroCopy;
    cudaEvent_t start = nullptr, stop = nullptr;
    void free_edges()
    {
        if (!edges)
            return;
        if (memory == GraphMemory::ZeroCopy)
            cudaFreeHost(edges);
        else
            cudaFree(edges); // managed and device memory alike
        edges = nullptr;
    }
    ~GraphResources()
    {
        free_edges();
        if (start)
            cudaEventDestroy(start);
        if (stop)
            cudaEventDestroy(stop);
        cudaFree(offsets);
        cudaFree(labels);
        cudaFree(changed);
    }
};

// Allocates the edge list in cfg.memory and fills it; *device_ptr is what the kernel reads.
Status place_edges(const GraphRunConfig &cfg, const std::vector<unsigned char> &bytes,
                   GraphResources *r, const void **device_ptr, char *err, size_t errlen)
{
    const size_t size = bytes.size() ? bytes.size() : 1;
    cudaError_t e = cudaSuccess;
    r->memory = cfg.memory;
    switch (cfg.memory) {
    case GraphMemory::ZeroCopy: {
        if ((e = cudaHostAlloc(&r->edges, size, cudaHostAllocMapped)) != cudaSuccess)
            return cuda_fail(e, "cudaHostAlloc (mapped edge list)", err, errlen);
        memcpy(r->edges, bytes.data(), bytes.size());
        void *mapped = nullptr;
        if ((e = cudaHostGetDevicePointer(&mapped, r->edges, 0)) != cudaSuccess)
            return cuda_fail(e, "cudaHostGetDevicePointer", err, errlen);
        *device_ptr = mapped;
        return Status::Ok;
    }
    case GraphMemory::Uvm:
    case GraphMemory::UvmAccessedBy: {
        if ((e = cudaMallocManaged(&r->edges, size)) != cudaSuccess)
            return cuda_fail(e, "cudaMallocManaged (edge list)", err, errlen);
        memcpy(r->edges, bytes.data(), bytes.size()); // first touch on the host
        cudaMemLocation loc{};
        loc.type = cudaMemLocationTypeDevice;
        loc.id = cfg.device;
        const cudaMemoryAdvise advice = cfg.memory == GraphMemory::Uvm ? cudaMemAdviseSetReadMostly
                                                                       : cudaMemAdviseSetAccessedBy;
        if ((e = cudaMemAdvise(r->edges, size, advice, loc)) != cudaSuccess)
            return cuda_fail(e, "cudaMemAdvise (edge list)", err, errlen);
        *device_ptr = r->edges;
        return Status::Ok;
    }
    case GraphMemory::Device: {
        size_t free_bytes = 0, total = 0;
        cudaMemGetInfo(&free_bytes, &total);
        if (size + (64ull << 20) > free_bytes) {
            snprintf(err, errlen,
                     "the edge list (%llu bytes) does not fit the GPU's free memory (%llu bytes) "
                     "with room for the vertex state: use zerocopy or uvm",
                     (unsigned long long)size, (unsigned long long)free_bytes);
            return Status::BadArgument;
        }
        if ((e = cudaMalloc(&r->edges, size)) != cudaSuccess)
            return cuda_fail(e, "cudaMalloc (edge list)", err, errlen);
        if ((e = cudaMemcpy(r->edges, bytes.data(), bytes.size(), cudaMemcpyHostToDevice))
            != cudaSuccess)
            return cuda_fail(e, "cudaMemcpy (edge list)", err, errlen);
        *device_ptr = r->edges;
        return Status::Ok;
    }
    }
    return Status::BadArgument;
}

} // namespace

Status run_graph(const GraphRunConfig &cfg, const volatile bool *cancel, ProgressFn progress,
                 void *ctx, GraphRunResult *out, char *err, size_t errlen)
{
    if (!check_graph_config(cfg, err, errlen))
        return Status::BadArgument;
    memset(out, 0, sizeof *out);
    const Csr &g = *cfg.graph;
    Status s = select_device(cfg.device, &out->device, err, errlen);
    if (s != Status::Ok)
        return s;
    cudaError_t e = cudaSuccess;
    auto report = [&](const char *phase, uint32_t done, uint32_t total) {
        if (progress)
            progress(ctx, phase, done, total);
    };

    const std::vector<uint32_t> want = bfs_levels(g, cfg.source);
    const BfsSummary summary = bfs_summary(g, want);
    out->reached = summary.reached;
    out->edges_read = summary.edges;
    out->edge_bytes = summary.edges * g.id_bytes;
    const std::vector<unsigned char> edge_bytes = g.edge_bytes();
    std::vector<uint32_t> init(g.vertices, kBfsUnreached), got(g.vertices);
    init[cfg.source] = 0;

    GraphResources r;
    if ((e = cudaMalloc(&r.offsets, g.offsets.size() * sizeof(uint64_t))) != cudaSuccess
        || (e = cudaMalloc(&r.labels, g.vertices * sizeof(uint32_t))) != cudaSuccess
        || (e = cudaMalloc(&r.changed, sizeof(unsigned int))) != cudaSuccess)
        return cuda_fail(e, "cudaMalloc (vertex state)", err, errlen);
    if ((e = cudaMemcpy(r.offsets, g.offsets.data(), g.offsets.size() * sizeof(uint64_t),
                        cudaMemcpyHostToDevice))
        != cudaSuccess)
        return cuda_fail(e, "cudaMemcpy (offsets)", err, errlen);
    if ((e = cudaEventCreate(&r.start)) != cudaSuccess
        || (e = cudaEventCreate(&r.stop)) != cudaSuccess)
        return cuda_fail(e, "cudaEventCreate", err, errlen);

    const LevelFn kernel = pick_level_kernel(cfg.kernel, g.id_bytes);
    const uint64_t threads = graph_threads(cfg.kernel, g.vertices);
    const uint64_t blocks = ps_div_ceil(threads, kGraphBlockThreads);
    out->block_threads = kGraphBlockThreads;
    out->blocks = blocks;
    const void *edges = nullptr;
    const uint32_t total = cfg.warmup + cfg.repeats;
    std::vector<float> ms_runs;
    bool all_ok = true;
    for (uint32_t run = 0; run < total; ++run) {
        if (cancel && *cancel) {
            snprintf(err, errlen, "the run was cancelled");
            return Status::Cancelled;
        }
        report(run < cfg.warmup ? "warmup" : "bfs", run < cfg.warmup ? run : run - cfg.warmup,
               run < cfg.warmup ? cfg.warmup : cfg.repeats);
        // UVM is re-allocated before every run (each run pays the migration); the others once
        if (run == 0 || cfg.memory == GraphMemory::Uvm) {
            r.free_edges();
            if ((s = place_edges(cfg, edge_bytes, &r, &edges, err, errlen)) != Status::Ok)
                return s;
        }
        if ((e = cudaMemcpy(r.labels, init.data(), g.vertices * sizeof(uint32_t),
                            cudaMemcpyHostToDevice))
            != cudaSuccess)
            return cuda_fail(e, "cudaMemcpy (levels)", err, errlen);
        cudaEventRecord(r.start);
        uint32_t level = 0;
        unsigned int changed = 1;
        while (changed) {
            changed = 0;
            cudaMemcpy(r.changed, &changed, sizeof changed, cudaMemcpyHostToDevice);
            kernel<<<(unsigned)blocks, kGraphBlockThreads>>>(r.offsets, edges, r.labels, g.vertices,
                                                             level, r.changed);
            if ((e = cudaGetLastError()) != cudaSuccess)
                return cuda_fail(e, "BFS kernel launch", err, errlen);
            if ((e = cudaMemcpy(&changed, r.changed, sizeof changed, cudaMemcpyDeviceToHost))
                != cudaSuccess)
                return cuda_fail(e, "BFS level", err, errlen);
            ++level;
        }
        cudaEventRecord(r.stop);
        if ((e = cudaEventSynchronize(r.stop)) != cudaSuccess)
            return cuda_fail(e, "BFS", err, errlen);
        float ms = 0;
        cudaEventElapsedTime(&ms, r.start, r.stop);
        out->launches = level;
        if ((e = cudaMemcpy(got.data(), r.labels, g.vertices * sizeof(uint32_t),
                            cudaMemcpyDeviceToHost))
            != cudaSuccess)
            return cuda_fail(e, "cudaMemcpy (levels back)", err, errlen);
        uint64_t wrong = 0;
        for (uint64_t v = 0; v < g.vertices; ++v)
            wrong += got[v] != want[v];
        if (wrong > out->level_mismatches)
            out->level_mismatches = wrong;
        all_ok = all_ok && wrong == 0;
        if (run >= cfg.warmup)
            ms_runs.push_back(ms);
    }
    report("bfs", cfg.repeats, cfg.repeats);
    out->bfs = stats(ms_runs);
    out->gteps = (double)out->edges_read / (out->bfs.median_ms * 1e-3) / 1e9;
    out->edge_gbps = (double)out->edge_bytes / (out->bfs.median_ms * 1e-3) / 1e9;
    out->levels_ok = all_ok;
    if (!all_ok) {
        snprintf(err, errlen,
                 "the GPU's BFS levels differ from the CPU's at %llu vertices: the kernel did "
                 "not traverse the graph correctly",
                 (unsigned long long)out->level_mismatches);
        return Status::ChecksumMismatch;
    }
    return Status::Ok;
}

} // namespace ps::gpu
