#include "runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>

#include "json.h"
#include "link.h"
#include "options.h"

namespace ps::gpu {

namespace {

json::Writer &opt_int(json::Writer &w, const char *name, int v)
{
    return v < 0 ? w.key(name).null() : w.field(name, v);
}

std::string hex64(uint64_t v)
{
    char b[24];
    snprintf(b, sizeof b, "0x%016llx", (unsigned long long)v);
    return b;
}

std::string timing(const Timing &t)
{
    json::Writer w;
    w.begin_object().field_number("medianMs", t.median_ms).field_number("minMs", t.min_ms);
    return w.field_number("maxMs", t.max_ms).end_object().text();
}

enum RunnerOption {
    kOptHelp,
    kOptListDevices,
    kOptHostRegister,
    kOptSuite,
    kOptPattern,
    kOptGraph,
    kOptSource,
    kOptIdBytes,
    kOptMemory,
    kOptL1,
    kOptBytes,
    kOptOffset,
    kOptElementBytes,
    kOptRepeats,
    kOptWarmup,
    kOptDevice,
    kOptChunkBytes,
    kOptGpuMemoryLimit,
    kOptDevices,
    kOptBatch,
};

using cli::Value;

// a number's error: "FLAG needs an integer in 0..MAX" (the parser's own); a word's is checked
// where it is used, with the error here
const cli::OptionDef kRunnerOptions[] = {
    {kOptHelp, "--help", "-h", Value::None, 0, 0, {}, 0, {}, 0, ""},
    {kOptListDevices, "--list-devices", nullptr, Value::None, 0, 0, {}, 0, {}, 0, ""},
    {kOptHostRegister, "--host-register", nullptr, Value::None, 0, 0, {}, 0, {}, 0, ""},
    {kOptSuite,
     "--suite",
     nullptr,
     Value::Text,
     0,
     0,
     {},
     0,
     {"micro", "graph"},
     2,
     "--suite needs a suite name: micro or graph"},
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
     std::string("--pattern must be one of ") + kPatternNameList + ", " + kGraphKernelNameList},
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
    {kOptSource, "--source", nullptr, Value::Uint, 0, UINT64_MAX - 1, {}, 0, {}, 0, ""},
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
    {kOptMemory,
     "--memory",
     nullptr,
     Value::Text,
     0,
     0,
     {},
     0,
     {},
     0,
     std::string("--memory must be one of ") + kGraphMemoryNameList},
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
     std::string("--l1 must be one of ") + kL1LoadNameList},
    {kOptBytes, "--bytes", nullptr, Value::Uint, 0, kWorkloadBytesMax, {}, 0, {}, 0, ""},
    {kOptOffset, "--offset", nullptr, Value::Uint, 0, kWorkloadOffsetMax, {}, 0, {}, 0, ""},
    {kOptElementBytes,
     "--element-bytes",
     nullptr,
     Value::Uint,
     0,
     kElementBytesMax,
     {},
     0,
     {},
     0,
     ""},
    {kOptRepeats, "--repeats", nullptr, Value::Uint, 0, 1000, {}, 0, {}, 0, ""},
    {kOptWarmup, "--warmup", nullptr, Value::Uint, 0, 1000, {}, 0, {}, 0, ""},
    {kOptDevice, "--device", nullptr, Value::Uint, 0, 1023, {}, 0, {}, 0, ""},
    {kOptChunkBytes, "--chunk-bytes", nullptr, Value::Uint, 0, kChunkBytesMax, {}, 0, {}, 0, ""},
    {kOptGpuMemoryLimit,
     "--gpu-memory-limit",
     nullptr,
     Value::Uint,
     1,
     UINT64_MAX - 1,
     {},
     0,
     {},
     0,
     ""},
    {kOptDevices,
     "--devices",
     nullptr,
     Value::Text,
     0,
     0,
     {},
     0,
     {},
     0,
     "--devices needs all or a list of device ordinals (0,1)"},
    {kOptBatch, "--batch", nullptr, Value::Text, 0, 0, {}, 0, {}, 0, "--batch needs a file"},
};

} // namespace

const char *runner_usage()
{
    static const std::string text =
        std::string(
            "usage: pcie-scope-gpu --pattern P [--bytes N] [--offset O] [--element-bytes E]\n"
            "                      [--l1 ideal|bypass] [--repeats R] [--warmup W] [--device D]\n"
            "                      [--host-register] [--chunk-bytes C] [--devices all|D,D]\n"
            "       pcie-scope-gpu --suite micro [--bytes N] [--l1 ideal|bypass] [...]\n"
            "       pcie-scope-gpu --pattern GRAPH_KERNEL [--graph G] [--source V]\n"
            "                      [--id-bytes 4|8] [--memory M] [--repeats R] [...]\n"
            "       pcie-scope-gpu --suite graph [--graph G] [--id-bytes 4|8] [--memory M] [...]\n"
            "       pcie-scope-gpu --list-devices\n"
            "\n"
            "Runs a pcie-scope access pattern as a CUDA kernel over pinned, mapped host memory\n"
            "(zero-copy) and a cudaMemcpy host-to-device of the same bytes; prints JSON.\n"
            "\n"
            "  --pattern P         "
            + std::string(kPatternNameList)
            + " (spec/workloads.json)\n"
              "  --bytes N           useful bytes (default 268435456 = 256 MiB)\n"
              "  --offset O          data offset in a 128-B line (default: the pattern's)\n"
              "  --element-bytes E   bytes per lane load: 4, 8 or 16 (default 4)\n"
              "  --l1 MODE           ideal (default loads, cached in L1) or bypass (ld.global.cg)\n"
              "  --repeats R         timed runs, 1..1000 (default 5): median, min, max\n"
              "  --warmup W          untimed runs first, 0..1000 (default 2)\n"
              "  --device D          CUDA device ordinal (default 0)\n"
              "  --host-register     malloc + cudaHostRegister instead of cudaHostAlloc\n"
              "  --chunk-bytes C     merged-chunked: bytes each warp walks (default "
            + std::to_string(kChunkBytesDefault)
            + ")\n"
              "  --devices LIST      all, or device ordinals 0,1,..: every listed GPU runs the\n"
              "                      pattern over one shared host buffer, each alone first, then\n"
              "                      all at once; one JSON line with per-GPU and total GB/s\n"
              "  --batch FILE        run each line of FILE (runner arguments) in this process,\n"
              "                      one JSON line each, reusing the pinned host buffer\n"
              "  --suite micro       every pattern x element width x L1 mode (one --l1 if given),\n"
              "                      each at its default offset: one JSON object per line\n"
              "  --list-devices      {\"cudaBuilt\":..,\"devices\":[..]}\n"
              "\n"
              "Graph mode: a graph kernel (native/model/graph_kernels.h) with the edge list (and\n"
              "SSSP's weights) in host memory, checked against the CPU (BFS levels, Dijkstra,\n"
              "union-find components, PageRank within tolerance). GRAPH_KERNEL: one of\n  ")
        + kGraphKernelNameList
        + "\n"
          "  --graph G           kron:S[:SEED], urand:S[:SEED] or file:PATH (.mtx or an edge\n"
          "                      list); default kron:16; generated graphs are cached in\n"
          "                      $PCIE_SCOPE_CACHE/graphs or ~/.cache/pcie-scope/graphs\n"
          "  --source V          BFS / SSSP root (default: the largest degree among the first\n"
          "                      1024)\n"
          "  --id-bytes B        neighbour id width, 4 or 8 (default 8)\n"
          "  --memory M          zerocopy (default), uvm (managed + ReadMostly), uvm-accessed-by\n"
          "                      (managed + AccessedBy), device (copied to the GPU, if it fits),\n"
          "                      uvm-plain (managed, no advice)\n"
          "  --suite graph       every graph kernel x memory (one --memory if given)\n"
          "  --gpu-memory-limit N  hold GPU memory until only N bytes are free before the run\n"
          "                      (EMOGI's comparison: an edge list that cannot fit)\n"
          "\n"
          "Exit: 0 ok, 1 failure (CUDA error, checksum mismatch), 2 usage, 3 no CUDA build or\n"
          "no usable GPU. Errors: {\"error\":{\"code\":\"PS_GPU_...\",\"message\":\"...\"}}.\n";
    return text.c_str();
}

bool parse_args(int argc, char **argv, RunnerArgs *o, std::string *err)
{
    RunConfig &c = o->cfg;
    c.pattern = Pattern::MergedAligned;
    c.bytes = kDefaultBytes;
    c.offset = 0;
    c.element_bytes = kElementBytesDefault;
    c.bypass_l1 = kL1LoadDefault == L1Load::Bypass;
    c.warmup = 2;
    c.repeats = 5;
    c.device = 0;
    c.host_register = false;
    c.chunk_bytes = 0;
    const auto apply = [&](const cli::Parsed &p, std::string *err) -> bool {
        const uint64_t v = p.number;
        const char *text = p.text.c_str();
        bool ok = true;
        switch ((RunnerOption)p.def->id) {
        case kOptHelp:
            o->help = true;
            break;
        case kOptListDevices:
            o->list = true;
            break;
        case kOptHostRegister:
            c.host_register = true;
            break;
        case kOptSuite:
            (p.text == "graph" ? o->graph_suite : o->suite) = true;
            break;
        case kOptPattern:
            if (graph_kernel_from_name(text, &o->kernel))
                o->graph_kernel_given = true;
            else
                ok = o->pattern_given = pattern_from_name(text, &c.pattern);
            break;
        case kOptGraph:
            o->graph = p.text;
            break;
        case kOptSource:
            o->source = v;
            o->source_given = true;
            break;
        case kOptIdBytes:
            o->id_bytes = (uint32_t)v;
            break;
        case kOptMemory:
            ok = o->memory_given = graph_memory_from_name(text, &o->memory);
            break;
        case kOptL1: {
            L1Load l = kL1LoadDefault;
            ok = o->l1_given = l1_load_from_name(text, &l);
            c.bypass_l1 = l == L1Load::Bypass;
            break;
        }
        case kOptBytes:
            c.bytes = v;
            break;
        case kOptOffset:
            c.offset = (uint32_t)v;
            o->offset_given = true;
            break;
        case kOptElementBytes:
            c.element_bytes = (uint32_t)v;
            break;
        case kOptRepeats:
            c.repeats = (uint32_t)v;
            break;
        case kOptWarmup:
            c.warmup = (uint32_t)v;
            break;
        case kOptDevice:
            c.device = (int)v;
            break;
        case kOptChunkBytes:
            c.chunk_bytes = v;
            o->chunk_given = true;
            break;
        case kOptGpuMemoryLimit:
            o->gpu_memory_limit = v;
            break;
        case kOptDevices:
            o->devices = p.text;
            o->devices_given = true;
            break;
        case kOptBatch:
            o->batch = p.text;
            break;
        }
        if (!ok)
            *err = cli::value_error(*p.def);
        return ok;
    };
    cli::Messages messages;
    messages.unknown = "unknown argument ";
    if (!cli::parse(argc, argv, kRunnerOptions, sizeof kRunnerOptions / sizeof kRunnerOptions[0],
                    messages, apply, err))
        return false;
    if (o->help)
        return true;
    const int modes = (int)o->list + (int)o->suite + (int)o->pattern_given
        + (int)o->graph_kernel_given + (int)o->graph_suite + (int)!o->batch.empty();
    if (modes != 1) {
        *err = "give exactly one of --pattern, --suite micro, --suite graph, --list-devices, "
               "--batch";
        return false;
    }
    if (!o->batch.empty())
        return true;
    if (o->gpu_memory_limit && !(o->graph_kernel_given || o->graph_suite)) {
        *err = "--gpu-memory-limit goes with a graph kernel: it limits the GPU memory the edge "
               "list may use";
        return false;
    }
    if (o->devices_given && !o->pattern_given) {
        *err = "--devices runs one micro pattern (--pattern) on several GPUs";
        return false;
    }
    if (o->chunk_given && !(o->pattern_given && c.pattern == Pattern::MergedChunked)) {
        *err = "--chunk-bytes goes with --pattern merged-chunked";
        return false;
    }
    if (o->graph_kernel_given || o->graph_suite) {
        // the graph's own checks (parse, source range) come when it is loaded
        if (o->offset_given || o->l1_given) {
            *err = "--offset and --l1 apply to the microbenchmarks, not to a graph kernel";
            return false;
        }
        if (o->graph_suite && o->source_given) {
            *err = "--suite graph runs from the default source: --source does not apply";
            return false;
        }
        return true;
    }
    if (o->source_given || o->memory_given) {
        *err = "--source and --memory go with a graph kernel (" + std::string(kGraphKernelNameList)
            + ")";
        return false;
    }
    if (o->suite && o->offset_given) {
        *err = "--suite runs every pattern at its default offset: --offset does not apply";
        return false;
    }
    if (o->pattern_given && !o->offset_given)
        c.offset = pattern_default_offset(c.pattern);
    char msg[160];
    if (!o->list && !check_config(c, msg, sizeof msg)) {
        *err = msg;
        return false;
    }
    return true;
}

int exit_code_of(Status s)
{
    switch (s) {
    case Status::Ok:
        return kExitOk;
    case Status::BadArgument:
        return kExitUsage;
    case Status::NotBuilt:
    case Status::NoDevice:
        return kExitNoGpu;
    case Status::Cancelled:
    case Status::CudaError:
    case Status::ChecksumMismatch:
        return kExitFailure;
    }
    return kExitFailure;
}

std::string error_json(Status s, const std::string &message)
{
    return json::error_object(status_code(s), message);
}

std::string device_json(const DeviceInfo &d)
{
    json::Writer w;
    w.begin_object().field("name", d.name).field("pciBusId", d.pci_bus_id);
    opt_int(w, "pcieGen", d.pcie_gen);
    opt_int(w, "pcieWidth", d.pcie_width);
    opt_int(w, "pcieGenCurrent", d.pcie_gen_current);
    opt_int(w, "pcieWidthCurrent", d.pcie_width_current);
    w.field("smCount", d.sm_count).key("nvidiaDriver");
    if (d.nvidia_driver[0])
        w.string(d.nvidia_driver);
    else
        w.null();
    w.field("computeCapability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor));
    w.field("driverVersion", d.driver_version).field("runtimeVersion", d.runtime_version);
    return w.end_object().text();
}

double ceiling128_gbps(int gen, int width)
{
    if (gen < 1 || width < 1)
        return -1;
    LinkConfig link;
    link.gen = (uint32_t)gen;
    link.lanes = (uint32_t)width;
    const double tlp = link_tlp_bytes_per_second(link);
    if (tlp <= 0)
        return -1;
    return tlp * 128.0 / cpl_wire_bytes(128) / 1e9;
}

namespace {

// the "error" member of a run that did not end Ok
void error_member(json::Writer &w, Status status, const std::string &message)
{
    if (status == Status::Ok)
        return;
    w.key("error").begin_object().field("code", status_code(status));
    w.field("message", message).end_object();
}

} // namespace

std::string result_json(const RunConfig &cfg, const RunResult &r, Status status,
                        const std::string &message)
{
    const double ceiling = ceiling128_gbps(r.device.pcie_gen, r.device.pcie_width);
    json::Writer w;
    w.begin_object().field("pattern", pattern_name(cfg.pattern)).field("bytes", cfg.bytes);
    w.field("offset", cfg.offset).field("elementBytes", cfg.element_bytes);
    if (cfg.pattern == Pattern::MergedChunked)
        w.field("chunkBytes", chunk_bytes_of(cfg));
    w.field("l1", l1_load_name(cfg.bypass_l1 ? L1Load::Bypass : L1Load::Ideal));
    w.field("hostMemory", cfg.host_register ? "hostRegister" : "hostAlloc");
    w.field("warmup", cfg.warmup).field("repeats", cfg.repeats);
    if (status == Status::Ok || status == Status::ChecksumMismatch) {
        w.key("launch").begin_object().field("threads", r.threads).field("blocks", r.blocks);
        w.field("blockThreads", r.block_threads).field("gridWarps", r.grid_warps).end_object();
        w.field_raw("kernel", timing(r.kernel)).field_raw("memcpyH2d", timing(r.memcpy_h2d));
        w.field("payloadBytes", r.payload_bytes).field_number("kernelGbps", r.kernel_gbps);
        w.field_number("memcpyGbps", r.memcpy_gbps)
            .field_number("ratioToMemcpy", r.ratio_to_memcpy);
        if (ceiling > 0) {
            w.field_number("ceiling128Gbps", ceiling);
            w.field_number("ratioToCeiling128", r.kernel_gbps / ceiling);
        } else {
            w.key("ceiling128Gbps").null().key("ratioToCeiling128").null();
        }
        w.key("checksum").begin_object().field("gpu", hex64(r.checksum_gpu));
        w.field("cpu", hex64(r.checksum_cpu)).field("ok", r.checksum_ok).end_object();
        w.field_raw("device", device_json(r.device));
    }
    error_member(w, status, message);
    return w.end_object().text();
}

namespace {

std::string multi_side_json(const RunResult &r)
{
    json::Writer w;
    w.begin_object()
        .field_raw("kernel", timing(r.kernel))
        .field_number("kernelGbps", r.kernel_gbps);
    w.key("checksum").begin_object().field("gpu", hex64(r.checksum_gpu));
    w.field("cpu", hex64(r.checksum_cpu)).field("ok", r.checksum_ok).end_object();
    return w.end_object().text();
}

} // namespace

std::string multi_result_json(const RunConfig &cfg, const MultiRunResult &r, Status status,
                              const std::string &message)
{
    json::Writer w;
    w.begin_object().field("pattern", pattern_name(cfg.pattern)).field("bytes", cfg.bytes);
    w.field("offset", cfg.offset).field("elementBytes", cfg.element_bytes);
    if (cfg.pattern == Pattern::MergedChunked)
        w.field("chunkBytes", chunk_bytes_of(cfg));
    w.field("l1", l1_load_name(cfg.bypass_l1 ? L1Load::Bypass : L1Load::Ideal));
    w.field("warmup", cfg.warmup).field("repeats", cfg.repeats);
    if (status == Status::Ok || status == Status::ChecksumMismatch) {
        w.key("devices").begin_array();
        for (int i = 0; i < r.count; ++i) {
            w.begin_object().field_raw("device", device_json(r.alone[i].device));
            w.field_raw("alone", multi_side_json(r.alone[i]));
            w.field_raw("together", multi_side_json(r.together[i])).end_object();
        }
        w.end_array();
        w.field_number("togetherWallMs", r.together_wall_ms);
        w.field_number("totalGbps", r.total_gbps).field_number("sumAloneGbps", r.sum_alone_gbps);
    }
    error_member(w, status, message);
    return w.end_object().text();
}

bool parse_devices(const std::string &text, int present, std::vector<int> *out, std::string *err)
{
    out->clear();
    if (text == "all") {
        for (int i = 0; i < present && i < kMaxDevices; ++i)
            out->push_back(i);
        return true;
    }
    size_t at = 0;
    while (at <= text.size()) {
        const size_t comma = std::min(text.find(',', at), text.size());
        const std::string word = text.substr(at, comma - at);
        char *end = nullptr;
        const long v = word.empty() ? -1 : strtol(word.c_str(), &end, 10);
        if (word.empty() || *end || v < 0 || v >= present) {
            *err = "--devices: '" + word + "' is not a device ordinal of this machine (0.."
                + std::to_string(present - 1) + ")";
            return false;
        }
        for (int d : *out)
            if (d == (int)v) {
                *err = "--devices lists device " + word + " twice";
                return false;
            }
        out->push_back((int)v);
        if (out->size() > (size_t)kMaxDevices) {
            *err = "--devices: at most " + std::to_string(kMaxDevices) + " devices";
            return false;
        }
        at = comma + 1;
    }
    return true;
}

std::vector<std::string> split_words(const std::string &line)
{
    std::vector<std::string> words;
    std::string cur;
    for (char ch : line) {
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') {
            if (!cur.empty())
                words.push_back(cur);
            cur.clear();
        } else {
            cur += ch;
        }
    }
    if (!cur.empty())
        words.push_back(cur);
    return words;
}

std::string graph_error_json(const char *code, const std::string &message)
{
    return json::error_object(code, message);
}

std::string graph_result_json(const GraphRunConfig &cfg, const std::string &spec,
                              const GraphRunResult &r, Status status, const std::string &message)
{
    const Csr &g = *cfg.graph;
    json::Writer w;
    w.begin_object().field("pattern", graph_kernel_name(cfg.kernel)).field("graph", spec);
    w.field("vertices", g.vertices).field("edges", g.edges()).field("idBytes", g.id_bytes);
    w.field("source", cfg.source).field("memory", graph_memory_name(cfg.memory));
    w.field("warmup", cfg.warmup).field("repeats", cfg.repeats);
    if (cfg.gpu_memory_limit) {
        w.key("gpuMemory").begin_object().field("limit", cfg.gpu_memory_limit);
        w.field("reserved", r.reserved_bytes).field("free", r.free_bytes).end_object();
    }
    if (status == Status::Ok || status == Status::ChecksumMismatch) {
        w.key("launch").begin_object().field("blocks", r.blocks);
        w.field("blockThreads", r.block_threads).end_object();
        w.field("launches", r.launches).field("reached", r.reached);
        w.field("edgesRead", r.edges_read).field("edgeBytes", r.edge_bytes);
        w.field_raw("bfs", timing(r.bfs)).field_number("gteps", r.gteps);
        w.field("tepsEdges",
                graph_algorithm(cfg.kernel) == GraphAlgorithm::Bfs
                    ? "directed CSR edges of the reached vertices"
                    : "neighbour ids read over all launches");
        w.field_number("edgeGbps", r.edge_gbps);
        w.key("levels").begin_object().field("ok", r.levels_ok);
        w.field("mismatches", r.level_mismatches).end_object();
        w.field_raw("device", device_json(r.device));
    }
    error_member(w, status, message);
    return w.end_object().text();
}

} // namespace ps::gpu
