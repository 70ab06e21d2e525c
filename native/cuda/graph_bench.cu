// GPU graph kernels with CUDA (graph_bench.h): per (kernel, id width) the launch that reads the
// host memory (bfs_level, graph_relax, graph_pull), each thread running graph_kernel_body.h over
// native/model/graph_kernels.h, plus the vertex-state kernels between launches (relax_update,
// pagerank_contribs) that read GPU memory only.
#include <cuda_runtime.h>

#include <stdio.h>
#include <string.h>

#include <type_traits>
#include <vector>

#include "gpu_internal.h"
#include "graph_bench.h"
#include "graph_kernel_body.h"
#include "graph_launches.h"
#include "graph_reference.h"

namespace ps::gpu {

using namespace detail;

namespace {

static_assert(kGraphKernelCount == 12, "spec graphs.kernels changed: give each kernel a launch");

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

// SSSP's weights from the same host memory as the ids (graph_weight_offset).
struct DeviceLoadWeight {
    const unsigned int *weights;
    __device__ uint32_t operator()(uint64_t i) const { return weights[i]; }
};

struct DeviceMinInto {
    __device__ void operator()(uint32_t *x, uint32_t y) const { atomicMin(x, y); }
};

// SSSP and CC: one relaxation launch (reads the host memory: ids, and SSSP's weights).
template <GraphKernel K, uint32_t IdBytes>
__global__ void __launch_bounds__(kGraphBlockThreads)
    graph_relax(const uint64_t *offsets, const void *memory, uint64_t edges,
                const unsigned char *frontier, const uint32_t *prev, uint32_t *next,
                uint64_t vertices)
{
    const uint64_t thread = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    using Id = typename std::conditional<IdBytes == 4, unsigned int, unsigned long long>::type;
    const DeviceLoadId<IdBytes> load{static_cast<const Id *>(memory)};
    const DeviceLoadWeight weight{reinterpret_cast<const unsigned int *>(
        static_cast<const unsigned char *>(memory) + graph_weight_offset(0, edges, IdBytes))};
    relax_thread(K, thread, vertices, offsets, IdBytes, load, weight, frontier, prev, next,
                 DeviceMinInto{});
}

// SSSP and CC between launches (GPU memory only): the next frontier.
__global__ void __launch_bounds__(kGraphBlockThreads)
    relax_update_kernel(const uint32_t *next, uint32_t *prev, unsigned char *frontier,
                        uint64_t vertices, unsigned int *changed)
{
    const uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (v < vertices && relax_update(v, next, prev, frontier))
        *changed = 1;
}

// PageRank before each pull launch (GPU memory only).
__global__ void __launch_bounds__(kGraphBlockThreads)
    pagerank_contribs(const uint64_t *offsets, const float *score, float *contrib,
                      uint64_t vertices)
{
    const uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (v < vertices)
        contrib[v] = pagerank_contrib(v, offsets, score);
}

// PageRank: one pull launch (reads the host memory's ids). A warp per vertex adds its lanes'
// sums in the shuffle tree graph_warp_sum mirrors; the whole warp shares v, so it returns
// together past the last vertex.
template <GraphKernel K, uint32_t IdBytes>
__global__ void __launch_bounds__(kGraphBlockThreads)
    graph_pull(const uint64_t *offsets, const void *edges, const float *contrib, float *score,
               uint64_t vertices)
{
    const uint64_t thread = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint64_t v = graph_vertex_of_thread(K, thread);
    if (v >= vertices)
        return;
    using Id = typename std::conditional<IdBytes == 4, unsigned int, unsigned long long>::type;
    const DeviceLoadId<IdBytes> load{static_cast<const Id *>(edges)};
    float sum = pagerank_lane_sum(K, thread, vertices, offsets, IdBytes, load, contrib);
    if (graph_lanes_per_vertex(K) > 1)
        for (uint32_t off = kWarpSize / 2; off > 0; off /= 2)
            sum += __shfl_down_sync(0xFFFFFFFFu, sum, off);
    if (graph_lane_of_thread(K, thread) == 0)
        score[v] = pagerank_score(sum, vertices);
}

using LevelFn = void (*)(const uint64_t *, const void *, uint32_t *, uint64_t, uint32_t,
                         unsigned int *);
using RelaxFn = void (*)(const uint64_t *, const void *, uint64_t, const unsigned char *,
                         const uint32_t *, uint32_t *, uint64_t);
using PullFn = void (*)(const uint64_t *, const void *, const float *, float *, uint64_t);

// The host-memory launch of kernel K at one id width; the others null.
struct KernelFns {
    LevelFn level = nullptr;
    RelaxFn relax = nullptr;
    PullFn pull = nullptr;
};

template <GraphKernel K> KernelFns pick_width(uint32_t id_bytes)
{
    KernelFns f;
    switch (graph_algorithm(K)) {
    case GraphAlgorithm::Bfs:
        f.level = id_bytes == 4 ? bfs_level<K, 4> : bfs_level<K, 8>;
        break;
    case GraphAlgorithm::Sssp:
    case GraphAlgorithm::Cc:
        f.relax = id_bytes == 4 ? graph_relax<K, 4> : graph_relax<K, 8>;
        break;
    case GraphAlgorithm::PageRank:
        f.pull = id_bytes == 4 ? graph_pull<K, 4> : graph_pull<K, 8>;
        break;
    }
    return f;
}

// No default: a kernel added to the spec without a launch fails the build (-Werror=switch).
KernelFns pick_kernel(GraphKernel k, uint32_t id_bytes)
{
    switch (k) {
    case GraphKernel::BfsNaive:
        return pick_width<GraphKernel::BfsNaive>(id_bytes);
    case GraphKernel::BfsMerged:
        return pick_width<GraphKernel::BfsMerged>(id_bytes);
    case GraphKernel::BfsAligned:
        return pick_width<GraphKernel::BfsAligned>(id_bytes);
    case GraphKernel::SsspNaive:
        return pick_width<GraphKernel::SsspNaive>(id_bytes);
    case GraphKernel::SsspMerged:
        return pick_width<GraphKernel::SsspMerged>(id_bytes);
    case GraphKernel::SsspAligned:
        return pick_width<GraphKernel::SsspAligned>(id_bytes);
    case GraphKernel::CcNaive:
        return pick_width<GraphKernel::CcNaive>(id_bytes);
    case GraphKernel::CcMerged:
        return pick_width<GraphKernel::CcMerged>(id_bytes);
    case GraphKernel::CcAligned:
        return pick_width<GraphKernel::CcAligned>(id_bytes);
    case GraphKernel::PagerankNaive:
        return pick_width<GraphKernel::PagerankNaive>(id_bytes);
    case GraphKernel::PagerankMerged:
        return pick_width<GraphKernel::PagerankMerged>(id_bytes);
    case GraphKernel::PagerankAligned:
        return pick_width<GraphKernel::PagerankAligned>(id_bytes);
    }
    return KernelFns();
}

// Everything run_graph() allocates, released in one place whatever the exit path.
struct GraphResources {
    void *reserved = nullptr; // gpu_memory_limit's hold on device memory
    uint64_t *offsets = nullptr;
    uint32_t *labels = nullptr; // BFS levels; SSSP distances, CC labels (`prev`)
    uint32_t *next = nullptr;   // SSSP, CC: the values a relax launch writes
    unsigned char *frontier = nullptr;
    float *score = nullptr, *contrib = nullptr; // PageRank
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
        cudaFree(next);
        cudaFree(frontier);
        cudaFree(score);
        cudaFree(contrib);
        cudaFree(changed);
        cudaFree(reserved);
    }
};

// Holds device memory until `limit` bytes are free (nothing when limit is 0 or already met).
Status reserve_device_memory(uint64_t limit, GraphResources *r, GraphRunResult *out, char *err,
                             size_t errlen)
{
    size_t free_bytes = 0, total = 0;
    cudaError_t e = cudaMemGetInfo(&free_bytes, &total);
    if (e != cudaSuccess)
        return cuda_fail(e, "cudaMemGetInfo", err, errlen);
    if (limit > 0 && free_bytes > limit) {
        const size_t hold = free_bytes - limit;
        if ((e = cudaMalloc(&r->reserved, hold)) != cudaSuccess)
            return cuda_fail(e, "cudaMalloc (gpu memory limit reservation)", err, errlen);
        out->reserved_bytes = hold;
        cudaMemGetInfo(&free_bytes, &total);
    }
    out->free_bytes = free_bytes;
    return Status::Ok;
}

// Allocates the kernel's host memory (the edge list, and SSSP's weights) in cfg.memory and fills
// it; *device_ptr is what the kernel reads.
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
    case GraphMemory::UvmPlain:
    case GraphMemory::Uvm:
    case GraphMemory::UvmAccessedBy: {
        if ((e = cudaMallocManaged(&r->edges, size)) != cudaSuccess)
            return cuda_fail(e, "cudaMallocManaged (edge list)", err, errlen);
        memcpy(r->edges, bytes.data(), bytes.size()); // first touch on the host
        *device_ptr = r->edges;
        if (cfg.memory == GraphMemory::UvmPlain)
            return Status::Ok;
        cudaMemLocation loc{};
        loc.type = cudaMemLocationTypeDevice;
        loc.id = cfg.device;
        const cudaMemoryAdvise advice = cfg.memory == GraphMemory::Uvm ? cudaMemAdviseSetReadMostly
                                                                       : cudaMemAdviseSetAccessedBy;
        if ((e = cudaMemAdvise(r->edges, size, advice, loc)) != cudaSuccess)
            return cuda_fail(e, "cudaMemAdvise (edge list)", err, errlen);
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

namespace {

// The per-vertex answer the GPU must produce, from the CPU references (graph_reference.h).
struct Expected {
    std::vector<uint32_t> values; // BFS levels, SSSP distances (Dijkstra), CC components
    std::vector<double> scores;   // PageRank
};

Expected expected_of(GraphKernel k, const Csr &g, uint64_t source)
{
    Expected x;
    switch (graph_algorithm(k)) {
    case GraphAlgorithm::Bfs:
        x.values = bfs_levels(g, source);
        break;
    case GraphAlgorithm::Sssp:
        x.values = sssp_distances(g, source);
        break;
    case GraphAlgorithm::Cc:
        x.values = cc_components(g);
        break;
    case GraphAlgorithm::PageRank:
        x.scores = pagerank_scores(g, kPageRankIterations, kPageRankDamping);
        break;
    }
    return x;
}

const char *mismatch_sentence(GraphAlgorithm a)
{
    switch (a) {
    case GraphAlgorithm::Bfs:
        return "the GPU's BFS levels differ from the CPU's";
    case GraphAlgorithm::Sssp:
        return "the GPU's SSSP distances differ from Dijkstra's";
    case GraphAlgorithm::Cc:
        return "the GPU's components differ from union-find's";
    case GraphAlgorithm::PageRank:
        return "the GPU's PageRank scores lie outside the tolerance of the CPU's";
    }
    return "the GPU's answer differs from the CPU's";
}

// Everything one timed run needs on the device.
struct RunArgs {
    const GraphRunConfig *cfg;
    KernelFns fns;
    GraphResources *r;
    const void *memory; // the kernel's host memory as the GPU addresses it
    uint64_t blocks;    // of the host-memory launch
    uint64_t vertex_blocks;
};

// One whole BFS / SSSP / CC / PageRank on the device, timed from the first launch to the last;
// *launches gets the host-memory launches.
Status run_once(const RunArgs &a, uint32_t *launches, float *ms, char *err, size_t errlen)
{
    const Csr &g = *a.cfg->graph;
    GraphResources &r = *a.r;
    const unsigned threads = kGraphBlockThreads;
    const unsigned blocks = (unsigned)a.blocks, vblocks = (unsigned)a.vertex_blocks;
    cudaError_t e = cudaSuccess;
    uint32_t n = 0;
    cudaEventRecord(r.start);
    if (a.fns.pull) {
        for (; n < kPageRankIterations; ++n) {
            pagerank_contribs<<<vblocks, threads>>>(r.offsets, r.score, r.contrib, g.vertices);
            a.fns.pull<<<blocks, threads>>>(r.offsets, a.memory, r.contrib, r.score, g.vertices);
            if ((e = cudaGetLastError()) != cudaSuccess)
                return cuda_fail(e, "PageRank kernel launch", err, errlen);
        }
    } else {
        unsigned int changed = 1;
        while (changed) {
            changed = 0;
            cudaMemcpy(r.changed, &changed, sizeof changed, cudaMemcpyHostToDevice);
            if (a.fns.level) {
                a.fns.level<<<blocks, threads>>>(r.offsets, a.memory, r.labels, g.vertices, n,
                                                 r.changed);
            } else {
                a.fns.relax<<<blocks, threads>>>(r.offsets, a.memory, g.edges(), r.frontier,
                                                 r.labels, r.next, g.vertices);
                relax_update_kernel<<<vblocks, threads>>>(r.next, r.labels, r.frontier, g.vertices,
                                                          r.changed);
            }
            if ((e = cudaGetLastError()) != cudaSuccess)
                return cuda_fail(e, "graph kernel launch", err, errlen);
            if ((e = cudaMemcpy(&changed, r.changed, sizeof changed, cudaMemcpyDeviceToHost))
                != cudaSuccess)
                return cuda_fail(e, "graph launch", err, errlen);
            ++n;
        }
    }
    cudaEventRecord(r.stop);
    if ((e = cudaEventSynchronize(r.stop)) != cudaSuccess)
        return cuda_fail(e, "graph run", err, errlen);
    cudaEventElapsedTime(ms, r.start, r.stop);
    *launches = n;
    return Status::Ok;
}

// The vertex state before a run: BFS levels / SSSP distances / CC labels, frontier, scores.
Status reset_state(const GraphRunConfig &cfg, GraphResources *r, char *err, size_t errlen)
{
    const Csr &g = *cfg.graph;
    const GraphAlgorithm a = graph_algorithm(cfg.kernel);
    cudaError_t e = cudaSuccess;
    if (a == GraphAlgorithm::PageRank) {
        const std::vector<float> init(g.vertices, 1.0f / (float)g.vertices);
        if ((e = cudaMemcpy(r->score, init.data(), g.vertices * sizeof(float),
                            cudaMemcpyHostToDevice))
            != cudaSuccess)
            return cuda_fail(e, "cudaMemcpy (scores)", err, errlen);
        return Status::Ok;
    }
    std::vector<uint32_t> init(g.vertices, kSsspInfinity);
    std::vector<unsigned char> frontier(g.vertices, 0);
    if (a == GraphAlgorithm::Cc) {
        for (uint64_t v = 0; v < g.vertices; ++v) {
            init[v] = (uint32_t)v;
            frontier[v] = 1;
        }
    } else {
        init[cfg.source] = 0;
        frontier[cfg.source] = 1;
    }
    const size_t bytes = g.vertices * sizeof(uint32_t);
    if ((e = cudaMemcpy(r->labels, init.data(), bytes, cudaMemcpyHostToDevice)) != cudaSuccess
        || (r->next
            && (e = cudaMemcpy(r->next, init.data(), bytes, cudaMemcpyHostToDevice)) != cudaSuccess)
        || (r->frontier
            && (e = cudaMemcpy(r->frontier, frontier.data(), g.vertices, cudaMemcpyHostToDevice))
                != cudaSuccess))
        return cuda_fail(e, "cudaMemcpy (vertex state)", err, errlen);
    return Status::Ok;
}

// Vertices where the run's answer differs from the CPU's.
Status count_mismatches(const GraphRunConfig &cfg, const GraphResources &r, const Expected &want,
                        uint64_t *wrong, char *err, size_t errlen)
{
    const Csr &g = *cfg.graph;
    const GraphAlgorithm a = graph_algorithm(cfg.kernel);
    cudaError_t e = cudaSuccess;
    if (a == GraphAlgorithm::PageRank) {
        std::vector<float> got(g.vertices);
        if ((e = cudaMemcpy(got.data(), r.score, g.vertices * sizeof(float),
                            cudaMemcpyDeviceToHost))
            != cudaSuccess)
            return cuda_fail(e, "cudaMemcpy (scores back)", err, errlen);
        *wrong = pagerank_mismatches(got, want.scores, kPageRankTolerance);
        return Status::Ok;
    }
    std::vector<uint32_t> got(g.vertices);
    if ((e = cudaMemcpy(got.data(), r.labels, g.vertices * sizeof(uint32_t),
                        cudaMemcpyDeviceToHost))
        != cudaSuccess)
        return cuda_fail(e, "cudaMemcpy (vertex values back)", err, errlen);
    if (a == GraphAlgorithm::Cc) {
        *wrong = partition_mismatches(got, want.values);
        return Status::Ok;
    }
    *wrong = 0;
    for (uint64_t v = 0; v < g.vertices; ++v)
        *wrong += got[v] != want.values[v];
    return Status::Ok;
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
    const char *phase = graph_algorithm_name(graph_algorithm(cfg.kernel));
    auto report = [&](const char *p, uint32_t done, uint32_t total) {
        if (progress)
            progress(ctx, p, done, total);
    };

    const GraphAlgorithm algo = graph_algorithm(cfg.kernel);
    const Expected want = expected_of(cfg.kernel, g, cfg.source);
    const GraphLaunchPlan plan = graph_launch_plan(cfg.kernel, g, cfg.source);
    out->reached = plan.reached;
    out->edges_read = plan.edges_read;
    out->edge_bytes = plan.edges_read
        * (g.id_bytes + (graph_step_loads(cfg.kernel) == 2 ? kGraphWeightBytes : 0));
    const std::vector<unsigned char> host_bytes = g.host_bytes(cfg.kernel);

    GraphResources r;
    if ((s = reserve_device_memory(cfg.gpu_memory_limit, &r, out, err, errlen)) != Status::Ok)
        return s;
    const size_t vbytes = g.vertices * sizeof(uint32_t);
    const bool relax = algo == GraphAlgorithm::Sssp || algo == GraphAlgorithm::Cc;
    if ((e = cudaMalloc(&r.offsets, g.offsets.size() * sizeof(uint64_t))) != cudaSuccess
        || (e = cudaMalloc(&r.labels, vbytes)) != cudaSuccess
        || (relax && (e = cudaMalloc(&r.next, vbytes)) != cudaSuccess)
        || (relax && (e = cudaMalloc(&r.frontier, g.vertices)) != cudaSuccess)
        || (algo == GraphAlgorithm::PageRank
            && ((e = cudaMalloc(&r.score, g.vertices * sizeof(float))) != cudaSuccess
                || (e = cudaMalloc(&r.contrib, g.vertices * sizeof(float))) != cudaSuccess))
        || (e = cudaMalloc(&r.changed, sizeof(unsigned int))) != cudaSuccess)
        return cuda_fail(e, "cudaMalloc (vertex state)", err, errlen);
    if ((e = cudaMemcpy(r.offsets, g.offsets.data(), g.offsets.size() * sizeof(uint64_t),
                        cudaMemcpyHostToDevice))
        != cudaSuccess)
        return cuda_fail(e, "cudaMemcpy (offsets)", err, errlen);
    if ((e = cudaEventCreate(&r.start)) != cudaSuccess
        || (e = cudaEventCreate(&r.stop)) != cudaSuccess)
        return cuda_fail(e, "cudaEventCreate", err, errlen);

    RunArgs args;
    args.cfg = &cfg;
    args.fns = pick_kernel(cfg.kernel, g.id_bytes);
    args.r = &r;
    args.blocks = ps_div_ceil(graph_threads(cfg.kernel, g.vertices), kGraphBlockThreads);
    args.vertex_blocks = ps_div_ceil(g.vertices, kGraphBlockThreads);
    out->block_threads = kGraphBlockThreads;
    out->blocks = args.blocks;
    const uint32_t total = cfg.warmup + cfg.repeats;
    std::vector<float> ms_runs;
    bool all_ok = true;
    for (uint32_t run = 0; run < total; ++run) {
        if (cancel && *cancel) {
            snprintf(err, errlen, "the run was cancelled");
            return Status::Cancelled;
        }
        report(run < cfg.warmup ? "warmup" : phase, run < cfg.warmup ? run : run - cfg.warmup,
               run < cfg.warmup ? cfg.warmup : cfg.repeats);
        // UVM is re-allocated before every run (each run pays the migration); the others once
        if (run == 0 || cfg.memory == GraphMemory::Uvm || cfg.memory == GraphMemory::UvmPlain) {
            r.free_edges();
            if ((s = place_edges(cfg, host_bytes, &r, &args.memory, err, errlen)) != Status::Ok)
                return s;
        }
        if ((s = reset_state(cfg, &r, err, errlen)) != Status::Ok)
            return s;
        float ms = 0;
        // a timed run's launches alone (no vertex-state copies), for counters that need its window
        const bool timed = run >= cfg.warmup;
        if (timed)
            report("launches", run - cfg.warmup, cfg.repeats);
        if ((s = run_once(args, &out->launches, &ms, err, errlen)) != Status::Ok)
            return s;
        if (timed)
            report("launched", run - cfg.warmup + 1, cfg.repeats);
        uint64_t wrong = 0;
        if ((s = count_mismatches(cfg, r, want, &wrong, err, errlen)) != Status::Ok)
            return s;
        if (wrong > out->level_mismatches)
            out->level_mismatches = wrong;
        all_ok = all_ok && wrong == 0;
        if (run >= cfg.warmup)
            ms_runs.push_back(ms);
    }
    report(phase, cfg.repeats, cfg.repeats);
    out->bfs = stats(ms_runs);
    out->gteps = (double)out->edges_read / (out->bfs.median_ms * 1e-3) / 1e9;
    out->edge_gbps = (double)out->edge_bytes / (out->bfs.median_ms * 1e-3) / 1e9;
    out->levels_ok = all_ok;
    if (!all_ok) {
        snprintf(err, errlen, "%s at %llu vertices: the kernel did not compute the graph correctly",
                 mismatch_sentence(algo), (unsigned long long)out->level_mismatches);
        return Status::ChecksumMismatch;
    }
    return Status::Ok;
}

} // namespace ps::gpu
