// The warp table of pcie-scope-model --warp-table (warp_table_json.h). Every entry is produced by
// the code the twin runs: TrafficGenerator::warp_load and graph_edge_index for the lanes, coalesce
// with an ideal L1 for the reads, TrafficGenerator for the totals.
#include "warp_table_json.h"

#include "coalescer.h"
#include "graph_kernels.h"
#include "json.h"
#include "traffic.h"

namespace ps {
namespace {

// The diagrams' micro workload: one warp of the strided walk (32 threads x 128 B); the merged
// walks cover it with one instruction per warp.
constexpr uint64_t kTableBytes = (uint64_t)kWarpSize * kLineBytes;
// Instructions of warp 0 written out lane by lane (the rest are counted).
constexpr uint32_t kShownInstructions = 4;
// The graph example: vertex v's list is [kBegin + kDegree v, kBegin + kDegree (v + 1)), one
// warp's worth of vertices; a list that starts inside a line, as most do.
constexpr uint64_t kGraphBegin = 13;
constexpr uint64_t kGraphDegree = 50;
constexpr uint64_t kGraphVertices = kWarpSize;

void write_counts(json::Writer &w, uint64_t count, uint64_t bytes, const uint64_t *by_size)
{
    w.begin_object().field("count", count).field("bytes", bytes).key("bySize").begin_object();
    for (int k = 0; k < kSizeClassCount; ++k)
        w.field(kSizeClassKeys[k], by_size[k]);
    w.end_object().end_object();
}

// One instruction: its lanes (byte offsets, -1 inactive) and the reads the coalescer made of it.
void write_instruction(json::Writer &w, const WarpLoad &load, const Mrd *mrds, int n)
{
    w.key("lanes").begin_array();
    for (uint32_t l = 0; l < kWarpSize; ++l) {
        if (load.active & (1u << l))
            w.integer(load.addr[l]);
        else
            w.integer(-1);
    }
    w.end_array().key("mrds").begin_array();
    for (int i = 0; i < n; ++i)
        w.begin_array().integer(mrds[i].addr).integer(mrds[i].len).end_array();
    w.end_array();
}

void write_pattern(json::Writer &w, Pattern p, uint32_t element, uint32_t offset)
{
    TrafficConfig cfg;
    cfg.spec = make_pattern_spec(p, kTableBytes, offset, element);
    w.begin_object().field("pattern", pattern_name(p)).field("elementBytes", element);
    w.field("offset", offset);
    {
        const TrafficGenerator gen(cfg);
        const PatternShape &shape = gen.shape();
        SectorBitmap l1(0, ps_div_ceil(offset + kTableBytes, kLineBytes) * kLineBytes);
        w.field("instructions", shape.iterations).key("first").begin_object();
        WarpLoad load;
        gen.warp_load(0, 0, &load);
        Mrd mrds[kMaxMrdsPerInstruction];
        write_instruction(w, load, mrds, coalesce(load, L1Mode::Ideal, &l1, mrds));
        w.end_object();
    }
    // the whole workload at one and two table sizes: a page scales a run's bytes between them
    w.key("totals").begin_array();
    for (uint64_t bytes : {kTableBytes, 2 * kTableBytes}) {
        cfg.spec.bytes = bytes;
        w.begin_object().field("bytes", bytes);
        for (L1Load mode : {L1Load::Ideal, L1Load::Bypass}) {
            cfg.l1 = l1_mode_of(mode);
            TrafficGenerator gen(cfg);
            Mrd m;
            while (gen.next(&m)) {
            }
            const TrafficCounts &c = gen.counts();
            w.key(l1_load_name(mode));
            write_counts(w, c.mrds, c.mrd_bytes, c.by_size);
        }
        w.end_object();
    }
    w.end_array().end_object();
}

// Warp 0 of graph kernel k over the example lists: its loads step by step (graph_edge_index, the
// kernels' arithmetic), the first few written out, all counted through one ideal L1.
void write_graph_kernel(json::Writer &w, GraphKernel k, uint32_t id_bytes)
{
    const uint64_t edges = kGraphBegin + kGraphDegree * kGraphVertices;
    const uint64_t vertices = kWarpSize / graph_lanes_per_vertex(k); // warp 0's vertices
    SectorBitmap l1(0, graph_host_bytes(k, edges, id_bytes));
    uint64_t steps = 0;
    for (uint64_t v = 0; v < vertices; ++v) {
        const uint64_t b = kGraphBegin + kGraphDegree * v;
        const uint64_t s = graph_steps(k, b, b + kGraphDegree, id_bytes);
        steps = s > steps ? s : steps;
    }
    const uint32_t loads = graph_step_loads(k);
    uint64_t count = 0, bytes = 0, by_size[kSizeClassCount] = {};
    w.begin_object().field("kernel", graph_kernel_name(k)).field("idBytes", id_bytes);
    w.field("instructions", steps * loads).key("shown").begin_array();
    for (uint64_t i = 0; i < steps * loads; ++i) {
        const uint32_t which = (uint32_t)(i % loads);
        WarpLoad load;
        load.active = 0;
        load.lane_bytes = graph_load_bytes(which, id_bytes);
        load.lanes_in_run = false;
        for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
            const uint64_t v = graph_vertex_of_thread(k, lane);
            const uint64_t b = kGraphBegin + kGraphDegree * v;
            uint64_t index;
            if (graph_edge_index(k, b, b + kGraphDegree, id_bytes, graph_lane_of_thread(k, lane),
                                 i / loads, &index)) {
                load.addr[lane] = graph_load_offset(which, index, edges, id_bytes);
                load.active |= 1u << lane;
            }
        }
        if (!load.active)
            continue;
        Mrd mrds[kMaxMrdsPerInstruction];
        const int n = coalesce(load, L1Mode::Ideal, &l1, mrds);
        if (i < kShownInstructions) {
            w.begin_object().field("load", which == 0 ? "id" : "weight");
            write_instruction(w, load, mrds, n);
            w.end_object();
        }
        for (int j = 0; j < n; ++j) {
            ++count;
            bytes += mrds[j].len;
            ++by_size[size_class_of(mrds[j].len)];
        }
    }
    w.end_array().key("total");
    write_counts(w, count, bytes, by_size);
    w.end_object();
}

} // namespace

std::string warp_table_json()
{
    json::Writer w;
    w.begin_object().field("lineBytes", kLineBytes).field("sectorBytes", kSectorBytes);
    w.field("warpSize", kWarpSize).field("bytes", kTableBytes).key("patterns").begin_array();
    for (const PatternInfo &p : kPatterns)
        for (uint32_t e : kElementBytesValues)
            for (uint32_t off = 0; off <= kWorkloadOffsetMax; off += e)
                write_pattern(w, p.pattern, e, off);
    w.end_array().key("graph").begin_object().field("begin", kGraphBegin);
    w.field("degree", kGraphDegree).field("vertices", kGraphVertices).key("kernels").begin_array();
    for (const GraphKernelInfo &k : kGraphKernels)
        for (uint32_t id : kGraphIdBytesValues)
            write_graph_kernel(w, k.kernel, id);
    w.end_array().end_object().end_object();
    return w.text();
}

} // namespace ps
