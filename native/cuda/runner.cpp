#include "runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "link.h"

namespace ps::gpu {

namespace {

bool parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s)
        return false;
    uint64_t v = 0;
    for (const char *p = s; *p; ++p) {
        if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
            return false;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *out = v;
    return true;
}

std::string escape(const std::string &s)
{
    std::string o;
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += (char)c;
        } else if (c < 0x20 || c >= 0x7f) {
            char b[8];
            snprintf(b, sizeof b, "\\u%04x", c);
            o += b;
        } else {
            o += (char)c;
        }
    }
    return o;
}

std::string num(double v)
{
    if (!isfinite(v))
        return "null";
    char b[40];
    snprintf(b, sizeof b, "%.6g", v);
    return b;
}

std::string opt_int(int v) { return v < 0 ? "null" : std::to_string(v); }

std::string hex64(uint64_t v)
{
    char b[24];
    snprintf(b, sizeof b, "\"0x%016llx\"", (unsigned long long)v);
    return b;
}

std::string timing(const Timing &t)
{
    return "{\"medianMs\":" + num(t.median_ms) + ",\"minMs\":" + num(t.min_ms)
        + ",\"maxMs\":" + num(t.max_ms) + "}";
}

} // namespace

const char *runner_usage()
{
    static const std::string text =
        std::string(
            "usage: pcie-scope-gpu --pattern P [--bytes N] [--offset O] [--element-bytes E]\n"
            "                      [--l1 ideal|bypass] [--repeats R] [--warmup W] [--device D]\n"
            "                      [--host-register]\n"
            "       pcie-scope-gpu --suite micro [--bytes N] [--l1 ideal|bypass] [...]\n"
            "       pcie-scope-gpu --pattern GRAPH_KERNEL [--graph G] [--source V]\n"
            "                      [--id-bytes 4|8] [--memory M] [--repeats R] [...]\n"
            "       pcie-scope-gpu --suite graph [--graph G] [--id-bytes 4|8] [--memory M] [...]\n"
            "       pcie-scope-gpu --list-devices\n"
            "\n"
            "Runs a pcie-scope access pattern as a CUDA kernel over pinned, mapped host memory\n"
            "(zero-copy) and a cudaMemcpy host-to-device of the same bytes; prints JSON.\n"
            "\n"
            "  --pattern P         strided, merged-aligned, merged-misaligned "
            "(spec/workloads.json)\n"
            "  --bytes N           useful bytes (default 268435456 = 256 MiB)\n"
            "  --offset O          data offset in a 128-B line (default: the pattern's)\n"
            "  --element-bytes E   bytes per lane load: 4, 8 or 16 (default 4)\n"
            "  --l1 MODE           ideal (default loads, cached in L1) or bypass (ld.global.cg)\n"
            "  --repeats R         timed runs, 1..1000 (default 5): median, min, max\n"
            "  --warmup W          untimed runs first, 0..1000 (default 2)\n"
            "  --device D          CUDA device ordinal (default 0)\n"
            "  --host-register     malloc + cudaHostRegister instead of cudaHostAlloc\n"
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
          "                      (managed + AccessedBy), device (copied to the GPU, if it fits)\n"
          "  --suite graph       every graph kernel x memory (one --memory if given)\n"
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
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : nullptr;
        uint64_t v = 0;
        auto number = [&](uint64_t max) {
            if (!parse_u64(next, &v) || v > max) {
                *err = a + " needs an integer in 0.." + std::to_string(max);
                return false;
            }
            ++i;
            return true;
        };
        if (a == "--help" || a == "-h") {
            o->help = true;
        } else if (a == "--list-devices") {
            o->list = true;
        } else if (a == "--host-register") {
            c.host_register = true;
        } else if (a == "--suite") {
            if (!next || (std::string(next) != "micro" && std::string(next) != "graph")) {
                *err = "--suite needs a suite name: micro or graph";
                return false;
            }
            ++i;
            (std::string(next) == "graph" ? o->graph_suite : o->suite) = true;
        } else if (a == "--pattern") {
            if (next && graph_kernel_from_name(next, &o->kernel)) {
                o->graph_kernel_given = true;
            } else if (!next || !pattern_from_name(next, &c.pattern)) {
                *err = std::string("--pattern must be one of ") + kPatternNameList + ", "
                    + kGraphKernelNameList;
                return false;
            } else {
                o->pattern_given = true;
            }
            ++i;
        } else if (a == "--graph") {
            if (!next || !*next) {
                *err = "--graph needs kron:S[:SEED], urand:S[:SEED] or file:PATH";
                return false;
            }
            o->graph = next;
            ++i;
        } else if (a == "--source") {
            if (!number(UINT64_MAX - 1))
                return false;
            o->source = v;
            o->source_given = true;
        } else if (a == "--id-bytes") {
            if (!parse_u64(next, &v) || !graph_id_bytes_valid(v)) {
                *err = "--id-bytes must be 4 or 8";
                return false;
            }
            ++i;
            o->id_bytes = (uint32_t)v;
        } else if (a == "--memory") {
            if (!next || !graph_memory_from_name(next, &o->memory)) {
                *err = std::string("--memory must be one of ") + kGraphMemoryNameList;
                return false;
            }
            ++i;
            o->memory_given = true;
        } else if (a == "--l1") {
            L1Load l;
            if (!next || !l1_load_from_name(next, &l)) {
                *err = std::string("--l1 must be one of ") + kL1LoadNameList;
                return false;
            }
            ++i;
            c.bypass_l1 = l == L1Load::Bypass;
            o->l1_given = true;
        } else if (a == "--bytes") {
            if (!number(kWorkloadBytesMax))
                return false;
            c.bytes = v;
        } else if (a == "--offset") {
            if (!number(kWorkloadOffsetMax))
                return false;
            c.offset = (uint32_t)v;
            o->offset_given = true;
        } else if (a == "--element-bytes") {
            if (!number(kElementBytesMax))
                return false;
            c.element_bytes = (uint32_t)v;
        } else if (a == "--repeats") {
            if (!number(1000))
                return false;
            c.repeats = (uint32_t)v;
        } else if (a == "--warmup") {
            if (!number(1000))
                return false;
            c.warmup = (uint32_t)v;
        } else if (a == "--device") {
            if (!number(1023))
                return false;
            c.device = (int)v;
        } else {
            *err = "unknown argument " + a;
            return false;
        }
    }
    if (o->help)
        return true;
    const int modes = (int)o->list + (int)o->suite + (int)o->pattern_given
        + (int)o->graph_kernel_given + (int)o->graph_suite;
    if (modes != 1) {
        *err = "give exactly one of --pattern, --suite micro, --suite graph, --list-devices";
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
    return std::string("{\"error\":{\"code\":\"") + status_code(s) + "\",\"message\":\""
        + escape(message) + "\"}}";
}

std::string device_json(const DeviceInfo &d)
{
    return "{\"name\":\"" + escape(d.name) + "\",\"pciBusId\":\"" + escape(d.pci_bus_id)
        + "\",\"pcieGen\":" + opt_int(d.pcie_gen) + ",\"pcieWidth\":" + opt_int(d.pcie_width)
        + ",\"pcieGenCurrent\":" + opt_int(d.pcie_gen_current)
        + ",\"pcieWidthCurrent\":" + opt_int(d.pcie_width_current)
        + ",\"smCount\":" + std::to_string(d.sm_count) + ",\"nvidiaDriver\":"
        + (d.nvidia_driver[0] ? "\"" + escape(d.nvidia_driver) + "\"" : std::string("null"))
        + ",\"computeCapability\":\"" + std::to_string(d.cc_major) + "."
        + std::to_string(d.cc_minor) + "\",\"driverVersion\":" + std::to_string(d.driver_version)
        + ",\"runtimeVersion\":" + std::to_string(d.runtime_version) + "}";
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

std::string result_json(const RunConfig &cfg, const RunResult &r, Status status,
                        const std::string &message)
{
    const double ceiling = ceiling128_gbps(r.device.pcie_gen, r.device.pcie_width);
    std::string j = std::string("{\"pattern\":\"") + pattern_name(cfg.pattern)
        + "\",\"bytes\":" + std::to_string(cfg.bytes) + ",\"offset\":" + std::to_string(cfg.offset)
        + ",\"elementBytes\":" + std::to_string(cfg.element_bytes) + ",\"l1\":\""
        + l1_load_name(cfg.bypass_l1 ? L1Load::Bypass : L1Load::Ideal) + "\",\"hostMemory\":\""
        + (cfg.host_register ? "hostRegister" : "hostAlloc") + "\",\"warmup\":"
        + std::to_string(cfg.warmup) + ",\"repeats\":" + std::to_string(cfg.repeats);
    if (status == Status::Ok || status == Status::ChecksumMismatch) {
        j += ",\"launch\":{\"threads\":" + std::to_string(r.threads) + ",\"blocks\":"
            + std::to_string(r.blocks) + ",\"blockThreads\":" + std::to_string(r.block_threads)
            + ",\"gridWarps\":" + std::to_string(r.grid_warps) + "}"
            + ",\"kernel\":" + timing(r.kernel) + ",\"memcpyH2d\":" + timing(r.memcpy_h2d)
            + ",\"payloadBytes\":" + std::to_string(r.payload_bytes)
            + ",\"kernelGbps\":" + num(r.kernel_gbps) + ",\"memcpyGbps\":" + num(r.memcpy_gbps)
            + ",\"ratioToMemcpy\":" + num(r.ratio_to_memcpy)
            + ",\"ceiling128Gbps\":" + (ceiling > 0 ? num(ceiling) : "null")
            + ",\"ratioToCeiling128\":" + (ceiling > 0 ? num(r.kernel_gbps / ceiling) : "null")
            + ",\"checksum\":{\"gpu\":" + hex64(r.checksum_gpu)
            + ",\"cpu\":" + hex64(r.checksum_cpu) + ",\"ok\":" + (r.checksum_ok ? "true" : "false")
            + "}" + ",\"device\":" + device_json(r.device);
    }
    if (status != Status::Ok) {
        j += std::string(",\"error\":{\"code\":\"") + status_code(status) + "\",\"message\":\""
            + escape(message) + "\"}";
    }
    return j + "}";
}

std::string graph_error_json(const char *code, const std::string &message)
{
    return std::string("{\"error\":{\"code\":\"") + code + "\",\"message\":\"" + escape(message)
        + "\"}}";
}

std::string graph_result_json(const GraphRunConfig &cfg, const std::string &spec,
                              const GraphRunResult &r, Status status, const std::string &message)
{
    const Csr &g = *cfg.graph;
    std::string j = std::string("{\"pattern\":\"") + graph_kernel_name(cfg.kernel)
        + "\",\"graph\":\"" + escape(spec) + "\",\"vertices\":" + std::to_string(g.vertices)
        + ",\"edges\":" + std::to_string(g.edges()) + ",\"idBytes\":" + std::to_string(g.id_bytes)
        + ",\"source\":" + std::to_string(cfg.source) + ",\"memory\":\""
        + graph_memory_name(cfg.memory) + "\",\"warmup\":" + std::to_string(cfg.warmup)
        + ",\"repeats\":" + std::to_string(cfg.repeats);
    if (status == Status::Ok || status == Status::ChecksumMismatch) {
        j += ",\"launch\":{\"blocks\":" + std::to_string(r.blocks) + ",\"blockThreads\":"
            + std::to_string(r.block_threads) + "},\"launches\":" + std::to_string(r.launches)
            + ",\"reached\":" + std::to_string(r.reached) + ",\"edgesRead\":"
            + std::to_string(r.edges_read) + ",\"edgeBytes\":" + std::to_string(r.edge_bytes)
            + ",\"bfs\":" + timing(r.bfs) + ",\"gteps\":" + num(r.gteps) + ",\"tepsEdges\":\""
            + (graph_algorithm(cfg.kernel) == GraphAlgorithm::Bfs
                   ? "directed CSR edges of the reached vertices"
                   : "neighbour ids read over all launches")
            + "\",\"edgeGbps\":" + num(r.edge_gbps)
            + ",\"levels\":{\"ok\":" + (r.levels_ok ? "true" : "false") + ",\"mismatches\":"
            + std::to_string(r.level_mismatches) + "}" + ",\"device\":" + device_json(r.device);
    }
    if (status != Status::Ok) {
        j += std::string(",\"error\":{\"code\":\"") + status_code(status) + "\",\"message\":\""
            + escape(message) + "\"}";
    }
    return j + "}";
}

} // namespace ps::gpu
