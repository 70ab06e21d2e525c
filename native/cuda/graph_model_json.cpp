// pcie-scope-model's graph mode (graph_model_json.h).
#include "graph_model_json.h"

#include <stdio.h>

#include <chrono>

#include "graph_reference.h" // bfs_default_source
#include "graph_traffic.h"
#include "link.h"

namespace ps {

namespace {
constexpr uint64_t kBase = 0x100000000ull; // 4 GiB: 64-bit (4-DW) MRd headers
constexpr uint32_t kMrdHeaderBytes = 16;

} // namespace

std::string json_quote(const std::string &s)
{
    std::string out;
    for (char ch : s) {
        const unsigned char c = (unsigned char)ch;
        if (c == '"' || c == '\\') {
            out += '\\';
            out += ch;
        } else if (c < 0x20) {
            char u[8];
            snprintf(u, sizeof u, "\\u%04x", c);
            out += u;
        } else {
            out += ch;
        }
    }
    return out;
}
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
    cfg.gpu.order = a.warp_order;
    GraphTrafficGenerator gen(cfg);
    Mrd m;
    while (gen.next(&m)) {
    }
    const auto t2 = std::chrono::steady_clock::now();
    if (wall_seconds)
        *wall_seconds = std::chrono::duration<double>(t2 - t1).count();
    const GraphTrafficCounts &c = gen.counts();
    const GraphLaunchPlan &s = gen.plan();
    std::string by_size;
    for (int k = 0; k < kSizeClassCount; ++k)
        by_size += std::string(k ? "," : "") + "\"" + kSizeClassKeys[k]
            + "\":" + std::to_string(c.by_size[k]);
    const uint64_t read_bytes = c.mrd_bytes + (uint64_t)kCplHeaderBytes * c.mrds;
    char buf[4096];
    snprintf(buf, sizeof buf,
             "{\"pattern\":\"%s\",\"graph\":\"%s\",\"vertices\":%llu,\"edges\":%llu,"
             "\"idBytes\":%u,\"source\":%llu,\"levels\":%u,\"reached\":%llu,\"edgesRead\":%llu,"
             "\"l1\":\"%s\",\"l1Model\":\"%s\",\"instructions\":%llu,\"usefulBytes\":%llu,"
             "\"mrd\":{\"count\":%llu,\"bySize\":{%s},\"bytes\":%llu},"
             "\"pcieWriteBytes\":%llu,\"pcieReadBytes\":%llu,\"sectorsPerRequest\":%.6g,"
             "\"loadSeconds\":%.3f,\"modelSeconds\":%.3f}",
             graph_kernel_name(a.kernel), json_quote(a.graph).c_str(),
             (unsigned long long)g.vertices, (unsigned long long)g.edges(), g.id_bytes,
             (unsigned long long)source, c.launches, (unsigned long long)s.reached,
             (unsigned long long)s.edges_read, a.l1 == L1Mode::Ideal ? "ideal" : "bypass",
             l1_model_name(a.l1_model), (unsigned long long)c.instructions,
             (unsigned long long)c.useful_bytes, (unsigned long long)c.mrds, by_size.c_str(),
             (unsigned long long)c.mrd_bytes, (unsigned long long)(kMrdHeaderBytes * c.mrds),
             (unsigned long long)read_bytes,
             c.mrds ? (double)c.mrd_bytes / kSectorBytes / (double)c.mrds : 0.0,
             std::chrono::duration<double>(t1 - t0).count(),
             std::chrono::duration<double>(t2 - t1).count());
    return buf;
}

} // namespace ps
