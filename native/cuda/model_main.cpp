// pcie-scope-model: the traffic model's prediction for one workload, as JSON, without the twin
// (no Verilator on a GPU host). bench/gpu-ncu.mjs compares it with Nsight Compute's counters.
//
//   pcie-scope-model --pattern P --bytes N [--offset O] [--element-bytes E] [--l1 ideal|bypass]
//                    [--l1-model ideal|lru [--warp-order round-robin|greedy]]
//   pcie-scope-model --pattern GRAPH_KERNEL --graph G [--source V] [--id-bytes 4|8]
//                    [--l1 ideal|bypass] [--l1-model ideal|lru [--warp-order …]]
//                    (GRAPH_KERNEL: bfs-*, sssp-*, cc-*, pagerank-*)
//
// --l1-model: how default loads use L1: `ideal` (one L1 that never forgets, the twin's model, the
// default) or `lru` (the scheduled model of native/model/sm_schedule.h on the spec's GPU: blocks
// over the SMs, an LRU L1 of the spec's capacity per SM; docs/gpu-model.md). --warp-order: how an
// SM interleaves its warps in that model (round-robin, the default, or greedy until a miss).
//
// {"pattern":…,"bytes":N,"offset":O,"elementBytes":E,"l1":"ideal","l1Model":"lru","instructions":N,
//  "mrd":{"count":N,"bySize":{"32":N,…,"other":N},"bytes":N},
//  "pcieWriteBytes":N,"pcieReadBytes":N,"sectorsPerRequest":X}
// pcieWriteBytes = 16 B of request header per MRd (a 4-DW MRd: the buffer lies above 4 GiB, as
// mapped host memory does for the GPU), pcieReadBytes = payload + a 12-B completion header per
// MRd: what Nsight Compute's pcie__write_bytes / pcie__read_bytes count on the GPU side
// (docs/gpu-coalescing.md). Exit 0 ok, 2 usage (with {"error":{…}}).
//
// Graph mode (a graph kernel of native/model/graph_kernels.h over G = kron:S[:SEED], urand:S[:SEED]
// or file:PATH, generated graphs cached in $PCIE_SCOPE_CACHE/graphs or ~/.cache/pcie-scope/graphs)
// adds graph, vertices, edges, idBytes, source, levels (host-memory launches), reached, edgesRead,
// usefulBytes, loadSeconds and modelSeconds; graph errors answer {"error":{"code":"PS_GRAPH_…"}}.
//
//   pcie-scope-model --warp-table
// prints what one warp's loads touch for every spec pattern, lane width and offset and every
// graph kernel (warp_table_json.h): the table the page's diagrams draw.
#include <stdio.h>

#include <string>

#include "bandwidth.h"
#include "graph_model_json.h"
#include "json.h"
#include "link.h"
#include "options.h"
#include "traffic.h"
#include "warp_table_json.h"

namespace {

constexpr uint64_t kBase = 0x100000000ull; // 4 GiB: 64-bit (4-DW) MRd headers
constexpr uint32_t kMrdHeaderBytes = 16;
constexpr const char *kL1ModelUsage = "ideal|lru";

enum ModelOption {
    kOptPattern,
    kOptGraph,
    kOptSource,
    kOptIdBytes,
    kOptL1,
    kOptWarpOrder,
    kOptL1Model,
    kOptBytes,
    kOptOffset,
    kOptElementBytes,
    kOptChunkBytes,
    kOptMergeWindow,
    kOptL1Policy,
    kOptL1Bytes,
};

using ps::cli::Value;

// every option takes a value; a word option's value is checked where it is used, with its error
const ps::cli::OptionDef kModelOptions[] = {
    {kOptPattern,
     "--pattern",
     nullptr,
     Value::Text,
     0,
     0,
     {},
     0,
     {},
     0,
     std::string("--pattern must be one of ") + ps::kPatternNameList + ", "
         + ps::kGraphKernelNameList},
    {kOptGraph,
     "--graph",
     nullptr,
     Value::Text,
     0,
     0,
     {},
     0,
     {},
     0,
     "--graph needs kron:S[:SEED], urand:S[:SEED] or file:PATH"},
    {kOptSource,
     "--source",
     nullptr,
     Value::Uint,
     0,
     UINT64_MAX,
     {},
     0,
     {},
     0,
     "--source needs a vertex id"},
    {kOptIdBytes,
     "--id-bytes",
     nullptr,
     Value::Uint,
     0,
     0,
     {4, 8},
     2,
     {},
     0,
     "--id-bytes must be 4 or 8"},
    {kOptL1,
     "--l1",
     nullptr,
     Value::Text,
     0,
     0,
     {},
     0,
     {},
     0,
     std::string("--l1 must be one of ") + ps::kL1LoadNameList},
    {kOptWarpOrder,
     "--warp-order",
     nullptr,
     Value::Text,
     0,
     0,
     {},
     0,
     {},
     0,
     std::string("--warp-order must be one of ") + ps::kWarpOrderNameList},
    {kOptL1Model,
     "--l1-model",
     nullptr,
     Value::Text,
     0,
     0,
     {},
     0,
     {},
     0,
     std::string("--l1-model must be one of ") + ps::kL1ModelNameList},
    {kOptBytes,
     "--bytes",
     nullptr,
     Value::Uint,
     0,
     ps::kWorkloadBytesMax,
     {},
     0,
     {},
     0,
     "--bytes needs a non-negative integer"},
    {kOptOffset,
     "--offset",
     nullptr,
     Value::Uint,
     0,
     ps::kWorkloadBytesMax,
     {},
     0,
     {},
     0,
     "--offset needs a non-negative integer"},
    {kOptElementBytes,
     "--element-bytes",
     nullptr,
     Value::Uint,
     0,
     ps::kWorkloadBytesMax,
     {},
     0,
     {},
     0,
     "--element-bytes needs a non-negative integer"},
    {kOptMergeWindow,
     "--merge-window",
     nullptr,
     Value::Uint,
     0,
     ps::kMaxMergeWindow,
     {},
     0,
     {},
     0,
     ""},
    {kOptL1Policy,
     "--l1-policy",
     nullptr,
     Value::Text,
     0,
     0,
     {},
     0,
     {"lru", "random"},
     2,
     "--l1-policy must be lru or random"},
    {kOptL1Bytes, "--l1-bytes", nullptr, Value::Uint, 0, 8u << 20, {}, 0, {}, 0, ""},
    {kOptChunkBytes,
     "--chunk-bytes",
     nullptr,
     Value::Uint,
     0,
     ps::kChunkBytesMax,
     {},
     0,
     {},
     0,
     ""},
};

int usage(const std::string &msg)
{
    printf("%s\n", ps::json::error_object("PS_MODEL_BAD_ARGUMENT", msg).c_str());
    fprintf(stderr,
            "pcie-scope-model: %s\nusage: pcie-scope-model --pattern P --bytes N [--offset O] "
            "[--element-bytes E] [--chunk-bytes C] [--l1 ideal|bypass] [--l1-model %s]\n"
            "       pcie-scope-model --pattern %s --graph kron:S[:SEED]|urand:S[:SEED]|file:PATH "
            "[--source V] [--id-bytes 4|8] [--l1 ideal|bypass] [--l1-model %s]\n"
            "  --l1-model ideal: one L1 that never forgets (default); lru: blocks scheduled over "
            "the %u SMs of the spec's %s, an LRU L1 of %u B per SM; --warp-order round-robin "
            "(default) or greedy (one warp until it misses)\n",
            msg.c_str(), kL1ModelUsage, ps::kGraphKernelNameList, kL1ModelUsage,
            ps::kGpus[ps::kGpuDefault].sm_count, ps::kGpus[ps::kGpuDefault].name,
            ps::kGpus[ps::kGpuDefault].l1_bytes);
    return 2;
}

int run_graph(ps::GraphModelArgs graph, ps::L1Load l1, ps::L1Model l1_model,
              ps::WarpOrder warp_order, const ps::GpuModel &gpu, bool micro_args)
{
    if (graph.graph.empty())
        return usage("--graph is required with a graph kernel");
    if (micro_args)
        return usage(
            "--bytes, --offset, --element-bytes and --chunk-bytes do not apply to a graph kernel");
    graph.l1 = ps::l1_mode_of(l1);
    graph.l1_model = l1_model;
    graph.warp_order = warp_order;
    graph.gpu = gpu;
    graph.cache_dir = ps::default_graph_cache_dir();
    try {
        printf("%s\n", ps::graph_model_json(graph, nullptr).c_str());
        return 0;
    } catch (const ps::GraphError &e) {
        const std::string code = e.code();
        printf("%s\n", ps::json::error_object(code, e.what()).c_str());
        fprintf(stderr, "pcie-scope-model: %s\n", e.what());
        return code == "PS_GRAPH_IO" ? 1 : 2;
    }
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 2 && std::string(argv[1]) == "--warp-table") {
        printf("%s\n", ps::warp_table_json().c_str());
        return 0;
    }
    ps::Pattern pattern = ps::Pattern::MergedAligned;
    bool pattern_given = false, offset_given = false;
    uint64_t bytes = 0, offset = 0, element = ps::kElementBytesDefault;
    uint64_t chunk = ps::kChunkBytesDefault;
    bool chunk_given = false;
    ps::L1Load l1 = ps::kL1LoadDefault;
    ps::L1Model l1_model = ps::L1Model::Ideal;
    ps::WarpOrder warp_order = ps::WarpOrder::RoundRobin;
    bool graph_kernel = false, bytes_given = false;
    ps::GraphModelArgs graph;
    ps::GpuModel gpu = ps::default_gpu_model(); // --merge-window, --l1-policy, --l1-bytes: fits
    const auto apply = [&](const ps::cli::Parsed &p, std::string *err) -> bool {
        const char *v = p.text.c_str();
        bool ok = true;
        switch ((ModelOption)p.def->id) {
        case kOptPattern:
            graph_kernel = ps::graph_kernel_from_name(v, &graph.kernel);
            ok = graph_kernel || ps::pattern_from_name(v, &pattern);
            pattern_given = true;
            break;
        case kOptGraph:
            graph.graph = p.text;
            break;
        case kOptSource:
            graph.source = p.number;
            graph.source_given = true;
            break;
        case kOptIdBytes:
            graph.id_bytes = (uint32_t)p.number;
            break;
        case kOptL1:
            ok = ps::l1_load_from_name(v, &l1);
            break;
        case kOptWarpOrder:
            ok = ps::warp_order_from_name(v, &warp_order);
            break;
        case kOptL1Model:
            ok = ps::l1_model_from_name(v, &l1_model);
            break;
        case kOptBytes:
            bytes = p.number;
            bytes_given = true;
            break;
        case kOptOffset:
            offset = p.number;
            offset_given = true;
            break;
        case kOptElementBytes:
            element = p.number;
            bytes_given = true;
            break;
        case kOptChunkBytes:
            chunk = p.number;
            chunk_given = true;
            break;
        case kOptMergeWindow:
            gpu.merge_window = (uint32_t)p.number;
            break;
        case kOptL1Policy:
            gpu.l1_random = p.text == "random";
            break;
        case kOptL1Bytes:
            gpu.l1_bytes = (uint32_t)(p.number / ps::kLineBytes * ps::kLineBytes);
            break;
        }
        if (!ok)
            *err = ps::cli::value_error(*p.def);
        return ok;
    };
    ps::cli::Messages messages;
    messages.unknown = "unknown argument ";
    std::string err;
    if (!ps::cli::parse(argc, argv, kModelOptions, sizeof kModelOptions / sizeof kModelOptions[0],
                        messages, apply, &err))
        return usage(err);
    if (!pattern_given)
        return usage("--pattern is required");
    if (graph_kernel)
        return run_graph(graph, l1, l1_model, warp_order, gpu,
                         bytes_given || offset_given || chunk_given);
    if (!graph.graph.empty() || graph.source_given)
        return usage("--graph and --source go with a graph kernel ("
                     + std::string(ps::kGraphKernelNameList) + ")");
    if (!offset_given)
        offset = ps::pattern_default_offset(pattern);
    if (chunk_given && pattern != ps::Pattern::MergedChunked)
        return usage("--chunk-bytes goes with --pattern merged-chunked");
    char why[160];
    if (offset > ps::kWorkloadOffsetMax
        || !ps::workload_valid(bytes, (uint32_t)offset, (uint32_t)element, why, sizeof why, chunk))
        return usage(offset > ps::kWorkloadOffsetMax
                         ? std::string("offset must be ") + ps::kWorkloadOffsetRule
                         : why);

    ps::TrafficConfig cfg;
    cfg.spec = ps::make_pattern_spec(pattern, bytes, (uint32_t)offset, (uint32_t)element,
                                     ps::kDefaultGridWarps, chunk);
    cfg.base = kBase;
    cfg.l1 = ps::l1_mode_of(l1);
    cfg.l1_model = l1_model;
    cfg.gpu = gpu;
    cfg.gpu.order = warp_order;
    ps::TrafficGenerator gen(cfg);
    ps::Mrd m;
    ps::ReadStream stream;
    while (gen.next(&m))
        stream.add(m.len);
    const ps::HostModel host = ps::host_model_of(ps::kGpus[ps::kGpuDefault]);
    const double seconds = ps::stream_seconds(stream, host) + host.launch_us * 1e-6;
    const ps::TrafficCounts &c = gen.counts();
    const uint64_t read_bytes = c.mrd_bytes + (uint64_t)ps::kCplHeaderBytes * c.mrds;
    ps::json::Writer w;
    w.begin_object().field("pattern", ps::pattern_name(pattern)).field("bytes", bytes);
    w.field("offset", offset).field("elementBytes", element);
    if (pattern == ps::Pattern::MergedChunked)
        w.field("chunkBytes", chunk);
    w.field("l1", ps::l1_load_name(l1));
    w.field("l1Model", ps::l1_model_name(l1_model)).field("instructions", c.instructions);
    w.key("mrd").begin_object().field("count", c.mrds).key("bySize").begin_object();
    for (int k = 0; k < ps::kSizeClassCount; ++k)
        w.field(ps::kSizeClassKeys[k], c.by_size[k]);
    w.end_object().field("bytes", c.mrd_bytes).end_object();
    w.field("pcieWriteBytes", (uint64_t)kMrdHeaderBytes * c.mrds)
        .field("pcieReadBytes", read_bytes);
    w.field_number("sectorsPerRequest",
                   c.mrds ? (double)c.mrd_bytes / ps::kSectorBytes / (double)c.mrds : 0.0);
    w.field("mergeWindow", cfg.gpu.merge_window);
    w.field("cplWireBytes", stream.wire_bytes);
    w.key("predicted").begin_object().field("gpu", ps::kGpus[ps::kGpuDefault].name);
    w.field_number("seconds", seconds, "%.6g").field_number("gbps", bytes / seconds / 1e9);
    w.end_object();
    printf("%s\n", w.end_object().text().c_str());
    return 0;
}
