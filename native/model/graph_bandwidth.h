// pcie-scope graph kernels through the bandwidth model (bandwidth.h): a graph kernel's MRd stream
// split by launch, each launch timed by its reads and by its longest warp's dependent steps.
#ifndef PCIE_SCOPE_MODEL_GRAPH_BANDWIDTH_H
#define PCIE_SCOPE_MODEL_GRAPH_BANDWIDTH_H

#include <stdint.h>

#include <vector>

#include "bandwidth.h"
#include "graph_traffic.h"

namespace ps {

struct GraphTiming {
    std::vector<ReadStream> launches; // each host-memory launch's reads
    std::vector<uint64_t> steps;      // each launch's longest warp loop (graph_steps)
    double seconds = 0;               // the launches' predicted time, added up
    uint64_t edge_bytes = 0;          // ids (and SSSP's weights) read, as the GPU runner counts
    double edge_gbps = 0;
};

// Drains `gen` (a fresh generator of kernel `k` on `g`) and times its launches on `host`.
GraphTiming drain_graph_timing(GraphTrafficGenerator &gen, const Csr &g, GraphKernel k,
                               const HostModel &host);

} // namespace ps

#endif
