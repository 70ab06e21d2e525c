// pcie-scope GPU graph kernels (native/cuda): a kernel of native/model/graph_kernels.h (BFS,
// SSSP, CC, PageRank) run launch by launch on the GPU, its host memory (the edge list, and SSSP's
// weights beside it) in one of four memories, timed, and its answer checked against the CPU
// reference (BFS levels, Dijkstra's distances, union-find's components as a partition, PageRank
// within kPageRankTolerance). Same build rules as gpu_bench.h: graph_bench.cu with nvcc, a
// NotBuilt stub in gpu_bench_stub.cpp without.
//
// Memories of the edge list (offsets and all vertex state always live in GPU memory):
//   zerocopy         cudaHostAlloc(mapped): every edge-list load is a PCIe read (EMOGI)
//   uvm              cudaMallocManaged + cudaMemAdviseSetReadMostly: pages migrate (duplicated
//                    read-only) on first touch; re-allocated before every run so each run pays
//                    the migration, as EMOGI's UVM baseline did
//   uvm-accessed-by  cudaMallocManaged + cudaMemAdviseSetAccessedBy(device) alone: mapped like
//                    zero-copy where the driver does not migrate on access counters
//   device           cudaMalloc + one untimed copy: the in-memory ceiling, when it fits
//   uvm-plain        cudaMallocManaged with no advice: pages migrate on first touch (UVM
//                    without hints, EMOGI's plain UVM baseline); re-allocated before every run
// gpu_memory_limit (EMOGI's comparison at a scale the GPU cannot hold): before anything else the
// run allocates and holds device memory until only that many bytes are free, so an edge list
// larger than the limit cannot be placed in `device` memory and UVM must evict to read it all.
// Timing (CUDA events) covers the whole launch loop, with the 4-B "changed" copies between
// launches (BFS, SSSP, CC) and the vertex-state kernels (SSSP's and CC's frontier update,
// PageRank's contributions), as EMOGI timed it.
#ifndef PCIE_SCOPE_CUDA_GRAPH_BENCH_H
#define PCIE_SCOPE_CUDA_GRAPH_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_bench.h"
#include "graph.h"
#include "graph_kernels.h"

namespace ps::gpu {

enum class GraphMemory : uint8_t {
    ZeroCopy = 0,
    Uvm = 1,
    UvmAccessedBy = 2,
    Device = 3,
    UvmPlain = 4
};
constexpr GraphMemory kGraphMemories[] = {GraphMemory::ZeroCopy, GraphMemory::Uvm,
                                          GraphMemory::UvmAccessedBy, GraphMemory::Device,
                                          GraphMemory::UvmPlain};
constexpr const char *kGraphMemoryNameList = "zerocopy, uvm, uvm-accessed-by, device, uvm-plain";
const char *graph_memory_name(GraphMemory m);
bool graph_memory_from_name(const char *name, GraphMemory *out);

struct GraphRunConfig {
    GraphKernel kernel = GraphKernel::BfsAligned;
    const Csr *graph = nullptr;
    uint64_t source = 0;
    GraphMemory memory = GraphMemory::ZeroCopy;
    uint32_t warmup = 1;
    uint32_t repeats = 5;
    int device = 0;
    uint64_t gpu_memory_limit = 0; // bytes left free for the run (0: no reservation)
};

struct GraphRunResult {
    DeviceInfo device;
    Timing bfs;                // one whole run of the kernel (every launch), per run
    uint32_t launches;         // host-memory launches per run (BFS: levels + the last, empty one)
    uint64_t reached;          // vertices with a level / distance (CC, PageRank: all)
    uint64_t edges_read;       // neighbour ids loaded over all launches (graph_launches.h)
    uint64_t edge_bytes;       // edges_read x (id bytes, + 4 for SSSP's weights)
    double gteps;              // edges_read / median time / 1e9
    double edge_gbps;          // edge_bytes / median time / 1e9
    uint64_t level_mismatches; // vertices whose GPU answer differs from the CPU's (worst run)
    bool levels_ok;
    uint32_t block_threads;
    uint64_t blocks;
    uint64_t reserved_bytes; // device memory held by gpu_memory_limit
    uint64_t free_bytes;     // free device memory after the reservation
};

// Progress phases: "warmup" (done = runs so far), the algorithm's name ("bfs", ...) at the start
// of each timed run and once at the end, and around each timed run's launch loop alone
// "launches" (done = runs before it) and "launched" (done = runs after it): the window a counter
// of the kernels' own traffic sums over, free of the vertex-state copies between runs.
// Argument check shared by both builds (BadArgument + one sentence).
bool check_graph_config(const GraphRunConfig &cfg, char *err, size_t errlen);
Status run_graph(const GraphRunConfig &cfg, const volatile bool *cancel, ProgressFn progress,
                 void *ctx, GraphRunResult *out, char *err, size_t errlen);

constexpr uint32_t kGraphBlockThreads = kGpuBlockThreads; // spec/workloads.json gpus.blockThreads

} // namespace ps::gpu

#endif
