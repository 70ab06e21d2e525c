// pcie-scope-model's graph mode: a graph kernel's predicted host-memory traffic as JSON (the same
// members as the microbenchmarks' object, plus the graph's).
#ifndef PCIE_SCOPE_CUDA_GRAPH_MODEL_JSON_H
#define PCIE_SCOPE_CUDA_GRAPH_MODEL_JSON_H

#include <stdint.h>

#include <string>

#include "coalescer.h"
#include "graph.h"
#include "graph_kernels.h"
#include "sm_schedule.h"

namespace ps {

struct GraphModelArgs {
    GraphKernel kernel = GraphKernel::BfsAligned;
    std::string graph; // spec text: kron:S[:SEED], urand:S[:SEED], file:PATH
    uint32_t id_bytes = kGraphIdBytesDefault;
    bool source_given = false;
    uint64_t source = 0;
    L1Mode l1 = L1Mode::Ideal;
    L1Model l1_model = L1Model::Ideal;
    WarpOrder warp_order = WarpOrder::RoundRobin; // with L1Model::Lru
    std::string cache_dir;                        // graph cache; empty = none
    GpuModel gpu = default_gpu_model();           // the scheduled model's GPU, merge window
};

// Runs the model; returns the JSON line. Throws GraphError for a bad graph or source.
std::string graph_model_json(const GraphModelArgs &a, double *wall_seconds);

} // namespace ps

#endif
