// pcie-scope-model's graph mode (graph_model_json.h).
#include "graph_model_json.h"

#include <chrono>

#include "graph_bandwidth.h"
#include "graph_reference.h" // bfs_default_source
#include "graph_traffic.h"
#include "json.h"
#include "link.h"

namespace ps {

namespace {
constexpr uint64_t kBase = 0x100000000ull; // 4 GiB: 64-bit (4-DW) MRd headers
constexpr uint32_t kMrdHeaderBytes = 16;

} // namespace

std::string graph_model_json(const GraphModelArgs &a, double *wall_seconds)
{
    const auto t0 = std::chrono::steady_clock::now();
    const Csr g = load_graph(parse_graph_spec(a.graph, a.id_bytes), a.cache_dir);
    const auto t1 = std::chrono::steady_clock::now();
    const uint64_t source = a.source_given ? a.source : bfs_default_source(g);
    if (source >= g.vertices)
        throw GraphError("PS_GRAPH_BAD_SOURCE",
                         "source " + std::to_string(source) + " is not a vertex (the graph has "
                             + std::to_string(g.vertices) + ")");
    GraphTrafficConfig cfg;
    cfg.kernel = a.kernel;
    cfg.graph = &g;
    cfg.source = source;
    cfg.base = kBase;
    cfg.l1 = a.l1;
    cfg.l1_model = a.l1_model;
    cfg.gpu = a.gpu;
    cfg.gpu.order = a.warp_order;
    GraphTrafficGenerator gen(cfg);
    const GraphTiming timing =
        drain_graph_timing(gen, g, a.kernel, host_model_of(kGpus[kGpuDefault]));
    const auto t2 = std::chrono::steady_clock::now();
    if (wall_seconds)
        *wall_seconds = std::chrono::duration<double>(t2 - t1).count();
    const GraphTrafficCounts &c = gen.counts();
    const GraphLaunchPlan &s = gen.plan();
    const uint64_t read_bytes = c.mrd_bytes + (uint64_t)kCplHeaderBytes * c.mrds;
    json::Writer w;
    w.begin_object().field("pattern", graph_kernel_name(a.kernel)).field("graph", a.graph);
    w.field("vertices", g.vertices).field("edges", g.edges()).field("idBytes", g.id_bytes);
    w.field("source", source).field("levels", c.launches).field("reached", s.reached);
    w.field("edgesRead", s.edges_read).field("l1", a.l1 == L1Mode::Ideal ? "ideal" : "bypass");
    w.field("l1Model", l1_model_name(a.l1_model)).field("instructions", c.instructions);
    w.field("usefulBytes", c.useful_bytes);
    w.key("mrd").begin_object().field("count", c.mrds).key("bySize").begin_object();
    for (int k = 0; k < kSizeClassCount; ++k)
        w.field(kSizeClassKeys[k], c.by_size[k]);
    w.end_object().field("bytes", c.mrd_bytes).end_object();
    w.field("pcieWriteBytes", (uint64_t)kMrdHeaderBytes * c.mrds)
        .field("pcieReadBytes", read_bytes);
    w.field_number("sectorsPerRequest",
                   c.mrds ? (double)c.mrd_bytes / kSectorBytes / (double)c.mrds : 0.0);
    w.field("mergeWindow", cfg.gpu.merge_window);
    w.key("launchReads").begin_array();
    for (size_t l = 0; l < timing.launches.size(); ++l) {
        w.begin_object().field("reads", timing.launches[l].reads);
        w.field("cplWireBytes", timing.launches[l].wire_bytes).field("steps", timing.steps[l]);
        w.end_object();
    }
    w.end_array();
    w.key("predicted").begin_object().field("gpu", kGpus[kGpuDefault].name);
    w.field_number("seconds", timing.seconds, "%.6g");
    w.field_number("edgeGbps", timing.edge_gbps).end_object();
    w.field_number("loadSeconds", std::chrono::duration<double>(t1 - t0).count(), "%.3f");
    w.field_number("modelSeconds", std::chrono::duration<double>(t2 - t1).count(), "%.3f");
    return w.end_object().text();
}

} // namespace ps
