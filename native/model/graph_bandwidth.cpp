// pcie-scope graph kernels through the bandwidth model (graph_bandwidth.h).
#include "graph_bandwidth.h"

namespace ps {

GraphTiming drain_graph_timing(GraphTrafficGenerator &gen, const Csr &g, GraphKernel k,
                               const HostModel &host)
{
    GraphTiming t;
    Mrd m;
    while (gen.next(&m)) {
        t.launches.resize(gen.counts().launches);
        t.launches.back().add(m.len);
    }
    const GraphLaunchPlan &plan = gen.plan();
    t.launches.resize(plan.launches.size());
    t.steps.assign(plan.launches.size(), 0);
    for (size_t l = 0; l < plan.launches.size(); ++l) {
        const GraphLaunch &launch = plan.launches[l];
        const uint64_t n = launch.all ? g.vertices : launch.vertices.size();
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t v = launch.all ? i : launch.vertices[i];
            const uint64_t st = graph_steps(k, g.offsets[v], g.offsets[v + 1], g.id_bytes);
            if (st > t.steps[l])
                t.steps[l] = st;
        }
        t.seconds +=
            launch_seconds(t.launches[l], t.steps[l], host, graph_lanes_per_vertex(k) == 1);
    }
    t.edge_bytes =
        plan.edges_read * (g.id_bytes + (graph_step_loads(k) == 2 ? kGraphWeightBytes : 0));
    t.edge_gbps = t.seconds > 0 ? t.edge_bytes / t.seconds / 1e9 : 0;
    return t;
}

} // namespace ps
