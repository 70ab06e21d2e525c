#include "cli.h"
#include "decimal.h"

#include <stdio.h>
#include <string.h>

#include <vector>

namespace ps {

namespace {

bool parse_u64(const std::string &s, uint64_t *out) { return parse_u64_decimal(s, out); }

std::string default_offsets()
{
    std::string out;
    for (const PatternInfo &p : kPatterns) {
        if (!out.empty())
            out += ", ";
        out += std::string(p.name) + " " + std::to_string(p.default_offset);
    }
    return out;
}

std::vector<std::string> split(const std::string &line)
{
    std::vector<std::string> t;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            ++i;
        size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r')
            ++j;
        if (j > i)
            t.push_back(line.substr(i, j - i));
        i = j;
    }
    return t;
}

} // namespace

const char *usage()
{
    // pattern names and workload limits come from spec/workloads.json (generated/workloads.h)
    static const std::string text =
        std::string(
            "usage: pcie-scope-twin [--latency-cycles N | --latency-ns N | --latency-dist D]\n"
            "                       [--cpl-split 0|64|128]\n"
            "                       [--tags N]\n"
            "                       [--link genGxL|ideal] [--mode switch|endpoint]\n"
            "                       [--segments 1|2|4]\n"
            "                       [--run PATTERN --bytes N [--offset B] [--element-bytes E]\n"
            "                        [--l1 ideal|bypass]] [--help]\n"
            "                       [--run GRAPH_KERNEL --graph G [--id-bytes 4|8]\n"
            "                        [--source V]]\n"
            "\n"
            "The pcie-scope digital twin: the Verilated RTL (pcie_scope_switch_top between the\n"
            "GPU model and a host model, or pcie_scope_bar_top with --mode endpoint), the GPU\n"
            "traffic model and the firmware, behind a pseudo-terminal.\n"
            "\n"
            "  --latency-cycles N  BAR_LATENCY written at start (0..65535, default 250): the\n"
            "                      completer's latency, the host model's in switch mode, the\n"
            "                      BAR responder's in endpoint mode\n"
            "  --latency-ns N      the same in nanoseconds at the probe clock (1 us = 250 cycles\n"
            "                      at 250 MHz); not with --latency-cycles\n"
            "  --latency-dist D    completion latency per read: fixed (BAR_LATENCY alone, the\n"
            "                      default) or uniform:LO:HI in ns, LO..HI drawn per read from "
            "the\n"
            "                      responder's LFSR (BAR_LATENCY = LO, BAR_JITTER = HI - LO; a\n"
            "                      fixed seed, so runs repeat); not with --latency-cycles/-ns\n"
            "  --cpl-split B       CPL_SPLIT written at start: 64 or 128 splits each read's\n"
            "                      completions at that boundary, as a root complex's RCB;\n"
            "                      0 (default) answers each read with one CplD\n"
            "  --tags N            outstanding-request budget, 1..256 (default 256)\n"
            "  --link genGxL       PCIe link between GPU and FPGA, e.g. gen3x16 (default), "
            "gen4x8;\n"
            "                      G 1..5, L 1/2/4/8/16; `ideal` = no wire limit\n"
            "  --mode M            switch (default): the FPGA switch between the GPU and a host\n"
            "                      model that enumerates it and answers the reads (BAR_LATENCY,\n"
            "                      BAR_JITTER, CPL_SPLIT); the ready line carries the topology,\n"
            "                      stdin takes `cfg-read BB:DD.F REG`; endpoint: the FPGA is the\n"
            "                      GPU's BAR endpoint (the BAR responder answers)\n"
            "  --segments N        TLP segments per 512-bit beat of the design, either mode:\n"
            "                      1 (default), 2 or 4; the GPU model puts up to N MRds in one\n"
            "                      request beat and the BAR responder (or the switch, and the\n"
            "                      host model above it) up to N completions in one completion\n"
            "                      beat (a straddled interface). A count the build lacks (CMake\n"
            "                      PS_TWIN_SEGMENTS, default 4) is refused\n"
            "  --run PATTERN       batch mode: no PTY, no firmware; run one workload, print its\n"
            "                      done line and exit. PATTERN: ")
        + kPatternNameList
        + "\n"
          "  --bytes N           useful bytes of the batch workload: "
        + kWorkloadBytesRule
        + "\n"
          "  --model-only        with --run: drain the traffic model alone (no RTL, no link):\n"
          "                      the baseline the twin's simulation rate is measured against\n"
          "  --offset B          data offset from a 128-B aligned base: "
        + kWorkloadOffsetRule + "\n                      (default: the pattern's, "
        + default_offsets()
        + ")\n"
          "  --element-bytes E   bytes per lane load, "
        + kElementBytesRule
        + " (default 4); bytes and offset must be\n"
          "                      multiples of it\n"
          "  --graph G           with --run GRAPH_KERNEL ("
        + kGraphKernelNameList
        + "):\n"
          "                      kron:S[:SEED], urand:S[:SEED] or file:PATH (.mtx or an edge\n"
          "                      list); the kernel's edge-list (and SSSP's weight) reads go\n"
          "                      through the probe, launch by launch (graph_traffic.h)\n"
          "  --id-bytes B        neighbour id width of the graph, 4 or 8 (default 8)\n"
          "  --source V          BFS / SSSP root (default: the largest degree among the first\n"
          "                      1024; cc and pagerank have none)\n"
          "  --l1 MODE           "
        + kL1LoadNameList
        + ": default loads cached in L1, or ld.global.cg\n"
          "                      loads that bypass it (default ideal)\n"
          "\n"
          "stdout: one JSON event per line (ready, done, error, injected). stdin: `run ID\n"
          "PATTERN BYTES OFFSET [ELEMENT_BYTES [L1]]`, `run ID KERNEL GRAPH [ID_BYTES [SOURCE|-\n"
          "[L1]]]` (KERNEL: "
        + kGraphKernelNameList
        + "), `cancel ID` (stop a run: its done line\n"
          "says \"cancelled\":true), `inject garbage|truncate|crc|skip-seq [COUNT [SEED]]` (a\n"
          "fault on the serial line, between the firmware's frames), `quit`; EOF = quit.\n";
    return text.c_str();
}

bool check_workload(uint64_t bytes, uint32_t offset, uint32_t element_bytes, std::string *err)
{
    char msg[160];
    if (workload_valid(bytes, offset, element_bytes, msg, sizeof msg))
        return true;
    *err = msg;
    return false;
}

bool parse_options(int argc, char **argv, Options *o, std::string *err)
{
    bool bytes_given = false;
    bool cycles_given = false;
    bool latency_ns_given = false;
    bool dist_given = false;    // --latency-dist
    bool element_given = false; // --element-bytes or --l1
    bool width_given = false;   // --element-bytes
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](uint64_t *v) -> bool {
            if (i + 1 >= argc || !parse_u64(argv[i + 1], v)) {
                *err = a + " needs a non-negative integer";
                return false;
            }
            ++i;
            return true;
        };
        uint64_t v = 0;
        if (a == "--help" || a == "-h") {
            o->help = true;
        } else if (a == "--latency-cycles") {
            if (!value(&v))
                return false;
            if (v > 65535) {
                *err = "--latency-cycles must be 0..65535";
                return false;
            }
            o->latency_cycles = (uint32_t)v;
            cycles_given = true;
        } else if (a == "--latency-ns") {
            if (!value(&v))
                return false;
            if (v < 1 || v > 1000000000) {
                *err = "--latency-ns must be 1..1000000000";
                return false;
            }
            o->latency_ns = (uint32_t)v;
            latency_ns_given = true;
        } else if (a == "--latency-dist") {
            if (i + 1 >= argc) {
                *err = "--latency-dist needs a value: fixed or uniform:LO:HI (ns)";
                return false;
            }
            const std::string d = argv[++i];
            unsigned long long lo = 0, hi = 0;
            char tail = 0;
            if (d == "fixed") {
                dist_given = true;
            } else if (sscanf(d.c_str(), "uniform:%llu:%llu%c", &lo, &hi, &tail) == 2 && lo >= 1
                       && lo <= hi && hi <= 1000000000ull) {
                o->latency_ns = (uint32_t)lo;
                o->jitter_ns = (uint32_t)(hi - lo);
                dist_given = true;
            } else {
                *err = "--latency-dist must be fixed or uniform:LO:HI with 1 <= LO <= HI <= "
                       "1000000000 (ns), got "
                    + d;
                return false;
            }
        } else if (a == "--cpl-split") {
            if (!value(&v))
                return false;
            if (v != 0 && v != 64 && v != 128) {
                *err = "--cpl-split must be 0, 64 or 128";
                return false;
            }
            o->cpl_split = (uint32_t)v;
        } else if (a == "--tags") {
            if (!value(&v))
                return false;
            if (v < 1 || v > 256) {
                *err = "--tags must be 1..256";
                return false;
            }
            o->tags = (uint32_t)v;
        } else if (a == "--segments") {
            if (!value(&v))
                return false;
            if (v != 1 && v != 2 && v != 4) {
                *err = "--segments must be 1, 2 or 4";
                return false;
            }
            o->segments = (uint32_t)v;
        } else if (a == "--model-only") {
            o->model_only = true;
        } else if (a == "--mode") {
            const std::string m = i + 1 < argc ? argv[++i] : "";
            if (m != "switch" && m != "endpoint") {
                *err = "--mode needs endpoint or switch";
                return false;
            }
            o->switch_mode = m == "switch";
        } else if (a == "--link") {
            if (i + 1 >= argc || !parse_link(argv[i + 1], &o->link)) {
                *err = "--link needs genGxL (G 1..5, L 1, 2, 4, 8 or 16) or ideal";
                return false;
            }
            ++i;
        } else if (a == "--run") {
            o->graph_run = i + 1 < argc && graph_kernel_from_name(argv[i + 1], &o->kernel);
            if (i + 1 >= argc || (!o->graph_run && !pattern_from_name(argv[i + 1], &o->pattern))) {
                *err = std::string("--run needs a pattern: ") + kPatternNameList + ", "
                    + kGraphKernelNameList;
                return false;
            }
            ++i;
            o->batch = true;
        } else if (a == "--graph") {
            if (i + 1 >= argc || !argv[i + 1][0]) {
                *err = "--graph needs kron:S[:SEED], urand:S[:SEED] or file:PATH";
                return false;
            }
            o->graph = argv[++i];
        } else if (a == "--id-bytes") {
            if (!value(&v))
                return false;
            if (!graph_id_bytes_valid(v)) {
                *err = "--id-bytes must be 4 or 8";
                return false;
            }
            o->id_bytes = (uint32_t)v;
        } else if (a == "--source") {
            if (!value(&v))
                return false;
            o->source = v;
            o->source_given = true;
        } else if (a == "--element-bytes") {
            if (!value(&v))
                return false;
            if (!element_bytes_valid(v)) {
                *err = std::string("--element-bytes must be ") + kElementBytesRule;
                return false;
            }
            o->element_bytes = (uint32_t)v;
            element_given = true;
            width_given = true;
        } else if (a == "--l1") {
            if (i + 1 >= argc || !l1_load_from_name(argv[i + 1], &o->l1)) {
                *err = std::string("--l1 must be one of ") + kL1LoadNameList;
                return false;
            }
            ++i;
            element_given = true;
        } else if (a == "--bytes") {
            if (!value(&v))
                return false;
            o->bytes = v;
            bytes_given = true;
        } else if (a == "--offset") {
            if (!value(&v))
                return false;
            if (v > kWorkloadOffsetMax) {
                *err = std::string("--offset must be ") + kWorkloadOffsetRule;
                return false;
            }
            o->offset = (uint32_t)v;
            o->offset_given = true;
        } else {
            *err = "unknown option " + a;
            return false;
        }
    }
    if (o->help)
        return true;
    if (dist_given && (cycles_given || latency_ns_given)) {
        *err = "--latency-dist sets BAR_LATENCY too: give it alone, not with --latency-cycles or "
               "--latency-ns";
        return false;
    }
    if (cycles_given && o->latency_ns) {
        *err = "--latency-cycles and --latency-ns set the same register: give one";
        return false;
    }
    if (!o->batch && (bytes_given || o->offset_given || o->model_only || element_given)) {
        *err = "--bytes, --offset, --element-bytes, --l1 and --model-only need --run";
        return false;
    }
    const bool graph_args =
        !o->graph.empty() || o->source_given || o->id_bytes != kGraphIdBytesDefault;
    if (graph_args && !o->graph_run) {
        *err = std::string("--graph, --id-bytes and --source need --run with a graph kernel (")
            + kGraphKernelNameList + ")";
        return false;
    }
    if (o->graph_run) {
        if (o->graph.empty()) {
            *err = "--run " + std::string(graph_kernel_name(o->kernel)) + " needs --graph";
            return false;
        }
        if (bytes_given || o->offset_given || width_given) {
            *err = "--bytes, --offset and --element-bytes do not apply to a graph kernel (its "
                   "loads are --id-bytes wide)";
            return false;
        }
        return true;
    }
    if (o->batch) {
        if (!bytes_given) {
            *err = "--run needs --bytes";
            return false;
        }
        if (!o->offset_given)
            o->offset = pattern_default_offset(o->pattern);
        if (!check_workload(o->bytes, o->offset, o->element_bytes, err))
            return false;
    }
    return true;
}

namespace {

// `run ID KERNEL GRAPH [ID_BYTES [SOURCE|- [L1]]]`; the graph itself is checked when it is loaded.
CommandKind parse_graph_run(const std::vector<std::string> &t, GraphKernel kernel, RunCommand *run,
                            std::string *err)
{
    const char *form = "usage: run ID KERNEL GRAPH [ID_BYTES [SOURCE|- [L1]]]";
    *run = RunCommand{};
    uint64_t v = 0;
    if (t.size() < 4 || t.size() > 7) {
        *err = form;
        return CommandKind::Error;
    }
    if (!parse_u64(t[1], &run->id)) {
        *err = "run: ID must be a non-negative integer";
        return CommandKind::Error;
    }
    run->graph_run = true;
    run->kernel = kernel;
    run->graph = t[3];
    if (t.size() > 4) {
        if (!parse_u64(t[4], &v) || !graph_id_bytes_valid(v)) {
            *err = "run: ID_BYTES must be 4 or 8";
            return CommandKind::Error;
        }
        run->id_bytes = (uint32_t)v;
    }
    if (t.size() > 5 && t[5] != "-") {
        if (!parse_u64(t[5], &run->source)) {
            *err = "run: SOURCE must be a vertex id or -";
            return CommandKind::Error;
        }
        run->source_given = true;
    }
    if (t.size() > 6 && !l1_load_from_name(t[6].c_str(), &run->l1)) {
        *err = "run: unknown L1 mode '" + t[6] + "' (" + kL1LoadNameList + ")";
        return CommandKind::Error;
    }
    return CommandKind::Run;
}

} // namespace

CommandKind parse_command(const std::string &line, RunCommand *run, std::string *err)
{
    const std::vector<std::string> t = split(line);
    if (t.empty())
        return CommandKind::Empty;
    if (t[0] == "quit") {
        if (t.size() != 1) {
            *err = "quit takes no arguments";
            return CommandKind::Error;
        }
        return CommandKind::Quit;
    }
    GraphKernel kernel;
    if (t[0] == "run" && t.size() > 2 && graph_kernel_from_name(t[2].c_str(), &kernel))
        return parse_graph_run(t, kernel, run, err);
    if (t[0] == "run") {
        *run = RunCommand{}; // nothing of an earlier command carries over
        if (t.size() < 5 || t.size() > 7) {
            *err = "usage: run ID PATTERN BYTES OFFSET [ELEMENT_BYTES [L1]]";
            return CommandKind::Error;
        }
        uint64_t off = 0;
        if (!parse_u64(t[1], &run->id)) {
            *err = "run: ID must be a non-negative integer";
            return CommandKind::Error;
        }
        if (!pattern_from_name(t[2].c_str(), &run->pattern)) {
            *err = "run: unknown pattern '" + t[2] + "' (" + kPatternNameList + ")";
            return CommandKind::Error;
        }
        if (!parse_u64(t[3], &run->bytes)) {
            *err = "run: BYTES must be a non-negative integer";
            return CommandKind::Error;
        }
        if (!parse_u64(t[4], &off) || off > kWorkloadOffsetMax) {
            *err = std::string("run: OFFSET must be ") + kWorkloadOffsetRule;
            return CommandKind::Error;
        }
        run->offset = (uint32_t)off;
        run->element_bytes = kElementBytesDefault;
        run->l1 = kL1LoadDefault;
        uint64_t e = 0;
        if (t.size() > 5) {
            if (!parse_u64(t[5], &e) || !element_bytes_valid(e)) {
                *err = std::string("run: ELEMENT_BYTES must be ") + kElementBytesRule;
                return CommandKind::Error;
            }
            run->element_bytes = (uint32_t)e;
        }
        if (t.size() > 6 && !l1_load_from_name(t[6].c_str(), &run->l1)) {
            *err = "run: unknown L1 mode '" + t[6] + "' (" + kL1LoadNameList + ")";
            return CommandKind::Error;
        }
        if (!check_workload(run->bytes, run->offset, run->element_bytes, err)) {
            *err = "run: " + *err;
            return CommandKind::Error;
        }
        return CommandKind::Run;
    }
    *err =
        "unknown command '" + t[0] + "' (run ID PATTERN BYTES OFFSET [ELEMENT_BYTES [L1]], quit)";
    return CommandKind::Error;
}

std::string json_escape(const std::string &s)
{
    std::string o;
    for (unsigned char c : s) {
        switch (c) {
        case '"':
            o += "\\\"";
            break;
        case '\\':
            o += "\\\\";
            break;
        case '\n':
            o += "\\n";
            break;
        case '\r':
            o += "\\r";
            break;
        case '\t':
            o += "\\t";
            break;
        default:
            if (c < 0x20 || c >= 0x7F) { // keep the line ASCII (bad UTF-8 stays valid JSON)
                char b[8];
                snprintf(b, sizeof b, "\\u%04x", c);
                o += b;
            } else {
                o += (char)c;
            }
        }
    }
    return o;
}

std::string link_json(const LinkConfig &link)
{
    if (link.ideal)
        return "{\"name\":\"ideal\",\"tlpBytesPerSecond\":null}";
    char rate[32];
    snprintf(rate, sizeof rate, "%.0f", link_tlp_bytes_per_second(link));
    return "{\"name\":\"gen" + std::to_string(link.gen) + "x" + std::to_string(link.lanes)
        + "\",\"gen\":" + std::to_string(link.gen) + ",\"lanes\":" + std::to_string(link.lanes)
        + ",\"tlpBytesPerSecond\":" + rate + "}";
}

std::string ready_event(const std::string &pty, uint32_t clock_hz, const LinkConfig &link,
                        uint32_t tags, const std::string &extra_fields)
{
    return "{\"event\":\"ready\",\"pty\":\"" + json_escape(pty)
        + "\",\"clockHz\":" + std::to_string(clock_hz) + ",\"link\":" + link_json(link)
        + ",\"tags\":" + std::to_string(tags) + extra_fields + "}";
}

std::string error_event(const std::string &message)
{
    return "{\"event\":\"error\",\"message\":\"" + json_escape(message) + "\"}";
}

std::string graph_done_event(uint64_t id, GraphKernel kernel, const std::string &graph,
                             const Csr &g, uint64_t source, uint32_t launches,
                             const WorkloadResult &r, double wall_seconds)
{
    char wall[32];
    snprintf(wall, sizeof wall, "%.6f", wall_seconds);
    std::string by_size;
    for (int k = 0; k < kSizeClassCount; ++k) {
        by_size += std::string(k ? "," : "") + "\"" + kSizeClassKeys[k]
            + "\":" + std::to_string(r.by_size[k]);
    }
    return "{\"event\":\"done\",\"id\":" + std::to_string(id) + ",\"pattern\":\""
        + std::string(graph_kernel_name(kernel)) + "\",\"graph\":\"" + json_escape(graph)
        + "\",\"vertices\":" + std::to_string(g.vertices)
        + ",\"edges\":" + std::to_string(g.edges()) + ",\"idBytes\":" + std::to_string(g.id_bytes)
        + ",\"source\":" + std::to_string(source) + ",\"launches\":" + std::to_string(launches)
        + ",\"mrd\":{\"count\":" + std::to_string(r.mrds) + ",\"bySize\":{" + by_size
        + "},\"bytes\":" + std::to_string(r.mrd_bytes) + "},\"completions\":"
        + std::to_string(r.completions) + ",\"payloadErrors\":" + std::to_string(r.payload_errors)
        + ",\"simCycles\":" + std::to_string(r.sim_cycles) + ",\"wallSeconds\":" + wall + "}";
}

std::string done_event(const RunCommand &run, const WorkloadResult &r, double wall_seconds)
{
    char wall[32];
    snprintf(wall, sizeof wall, "%.6f", wall_seconds);
    std::string by_size;
    for (int k = 0; k < kSizeClassCount; ++k) {
        by_size += std::string(k ? "," : "") + "\"" + kSizeClassKeys[k]
            + "\":" + std::to_string(r.by_size[k]);
    }
    return "{\"event\":\"done\",\"id\":" + std::to_string(run.id) + ",\"pattern\":\""
        + pattern_name(run.pattern) + "\",\"bytes\":" + std::to_string(run.bytes) + ",\"offset\":"
        + std::to_string(run.offset) + ",\"elementBytes\":" + std::to_string(run.element_bytes)
        + ",\"l1\":\"" + l1_load_name(run.l1) + "\",\"mrd\":{\"count\":" + std::to_string(r.mrds)
        + ",\"bySize\":{" + by_size + "},\"bytes\":" + std::to_string(r.mrd_bytes)
        + "},\"completions\":" + std::to_string(r.completions)
        + ",\"payloadErrors\":" + std::to_string(r.payload_errors)
        + ",\"simCycles\":" + std::to_string(r.sim_cycles) + ",\"wallSeconds\":" + wall + "}";
}

} // namespace ps
