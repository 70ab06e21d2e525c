#include "cli.h"
#include "decimal.h"
#include "json.h"
#include "options.h"

#include "generated/twin_options.h"

#include <stdio.h>
#include <string.h>

#include <vector>

namespace ps {

namespace {
constexpr uint32_t kTwinMaxTags = 256; // the probe's 8-bit tags: --tags 1..256 (spec/twin.json)
}

namespace {

bool parse_u64(const std::string &s, uint64_t *out) { return parse_u64_decimal(s, out); }

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

// spec/twin.json (generated/twin_options.h), its workload facts from spec/workloads.json
const char *usage() { return kTwinUsage; }

bool check_workload(uint64_t bytes, uint32_t offset, uint32_t element_bytes, std::string *err,
                    uint64_t chunk_bytes)
{
    char msg[160];
    if (workload_valid(bytes, offset, element_bytes, msg, sizeof msg, chunk_bytes))
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
    bool chunk_given = false;   // --chunk-bytes
    bool tags_given = false, link_given = false;
    int gpu_host = -1; // --gpu-host: index into kGpus
    cli::Messages messages;
    messages.not_number = " needs a non-negative integer";
    const auto apply = [&](const cli::Parsed &p, std::string *e) -> bool {
        const uint64_t v = p.number;
        switch ((TwinOption)p.def->id) {
        case kTwinOptHelp:
            o->help = true;
            break;
        case kTwinOptLatencyCycles:
            o->latency_cycles = (uint32_t)v;
            cycles_given = true;
            break;
        case kTwinOptLatencyNs:
            o->latency_ns = (uint32_t)v;
            latency_ns_given = true;
            break;
        case kTwinOptLatencyDist: {
            unsigned long long lo = 0, hi = 0;
            char tail = 0;
            if (p.text == "fixed") {
                dist_given = true;
            } else if (sscanf(p.text.c_str(), "uniform:%llu:%llu%c", &lo, &hi, &tail) == 2
                       && lo >= 1 && lo <= hi && hi <= 1000000000ull) {
                o->latency_ns = (uint32_t)lo;
                o->jitter_ns = (uint32_t)(hi - lo);
                dist_given = true;
            } else {
                *e = "--latency-dist must be fixed or uniform:LO:HI with 1 <= LO <= HI <= "
                     "1000000000 (ns), got "
                    + p.text;
                return false;
            }
            break;
        }
        case kTwinOptCplSplit:
            o->cpl_split = (uint32_t)v;
            break;
        case kTwinOptTags:
            o->tags = (uint32_t)v;
            tags_given = true;
            break;
        case kTwinOptGpuHost: {
            bool found = false;
            for (uint32_t i = 0; i < kGpuCount; ++i)
                if (p.text == kGpus[i].name) {
                    gpu_host = (int)i;
                    found = true;
                }
            if (!found) {
                *e = std::string("--gpu-host must be one of ") + kGpuNameList;
                return false;
            }
            break;
        }
        case kTwinOptSegments:
            o->segments = (uint32_t)v;
            break;
        case kTwinOptModelOnly:
            o->model_only = true;
            break;
        case kTwinOptMode:
            o->switch_mode = p.text == "switch";
            break;
        case kTwinOptLink:
            if (!parse_link(p.text.c_str(), &o->link)) {
                *e = cli::value_error(*p.def);
                return false;
            }
            link_given = true;
            break;
        case kTwinOptRun:
            o->graph_run = graph_kernel_from_name(p.text.c_str(), &o->kernel);
            if (!o->graph_run && !pattern_from_name(p.text.c_str(), &o->pattern)) {
                *e = cli::value_error(*p.def);
                return false;
            }
            o->batch = true;
            break;
        case kTwinOptGraph:
            o->graph = p.text;
            break;
        case kTwinOptIdBytes:
            o->id_bytes = (uint32_t)v;
            break;
        case kTwinOptSource:
            o->source = v;
            o->source_given = true;
            break;
        case kTwinOptElementBytes:
            o->element_bytes = (uint32_t)v;
            element_given = true;
            width_given = true;
            break;
        case kTwinOptL1:
            if (!l1_load_from_name(p.text.c_str(), &o->l1)) {
                *e = cli::value_error(*p.def);
                return false;
            }
            element_given = true;
            break;
        case kTwinOptBytes:
            o->bytes = v;
            bytes_given = true;
            break;
        case kTwinOptOffset:
            o->offset = (uint32_t)v;
            o->offset_given = true;
            break;
        case kTwinOptChunkBytes:
            o->chunk_bytes = v;
            chunk_given = true;
            break;
        }
        return true;
    };
    if (!cli::parse(argc, argv, kTwinOptions, kTwinOptionCount, messages, apply, err))
        return false;
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
    if (gpu_host >= 0) { // the GPU's host where no option of the same name says otherwise
        const GpuInfo &g = kGpus[gpu_host];
        if (!link_given)
            parse_link(g.host_link, &o->link);
        if (!tags_given)
            o->tags = g.host_tags < kTwinMaxTags ? g.host_tags : kTwinMaxTags;
        if (!cycles_given && !latency_ns_given && !dist_given) {
            const double half = g.round_trip_spread_ns / 2;
            o->latency_ns = (uint32_t)(g.idle_round_trip_ns - half);
            o->jitter_ns = (uint32_t)(2 * half);
        }
    }
    if (!o->batch && (bytes_given || o->offset_given || o->model_only || element_given)) {
        *err = "--bytes, --offset, --element-bytes, --l1 and --model-only need --run";
        return false;
    }
    if (chunk_given && (!o->batch || o->pattern != Pattern::MergedChunked)) {
        *err = "--chunk-bytes goes with --run merged-chunked";
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
        if (!check_workload(o->bytes, o->offset, o->element_bytes, err, o->chunk_bytes))
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
        if (t.size() < 5 || t.size() > 8) {
            *err = "usage: run ID PATTERN BYTES OFFSET [ELEMENT_BYTES [L1 [CHUNK_BYTES]]]";
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
        run->chunk_bytes = kChunkBytesDefault;
        if (t.size() > 7 && !parse_u64(t[7], &run->chunk_bytes)) {
            *err = std::string("run: CHUNK_BYTES must be ") + kChunkBytesRule;
            return CommandKind::Error;
        }
        if (!check_workload(run->bytes, run->offset, run->element_bytes, err, run->chunk_bytes)) {
            *err = "run: " + *err;
            return CommandKind::Error;
        }
        return CommandKind::Run;
    }
    *err = "unknown command '" + t[0]
        + "' (run ID PATTERN BYTES OFFSET [ELEMENT_BYTES [L1 [CHUNK_BYTES]]], quit)";
    return CommandKind::Error;
}

namespace {

json::Writer &by_size(json::Writer &w, const WorkloadResult &r)
{
    w.key("mrd").begin_object().field("count", r.mrds).key("bySize").begin_object();
    for (int k = 0; k < kSizeClassCount; ++k)
        w.field(kSizeClassKeys[k], r.by_size[k]);
    return w.end_object().field("bytes", r.mrd_bytes).end_object();
}

json::Writer &done_tail(json::Writer &w, const WorkloadResult &r, double wall_seconds)
{
    by_size(w, r).field("completions", r.completions).field("payloadErrors", r.payload_errors);
    return w.field("simCycles", r.sim_cycles).field_number("wallSeconds", wall_seconds, "%.6f");
}

} // namespace

std::string link_json(const LinkConfig &link)
{
    json::Writer w;
    w.begin_object();
    if (link.ideal) {
        w.field("name", "ideal").key("tlpBytesPerSecond").null();
    } else {
        w.field("name", "gen" + std::to_string(link.gen) + "x" + std::to_string(link.lanes));
        w.field("gen", link.gen).field("lanes", link.lanes);
        w.field_number("tlpBytesPerSecond", link_tlp_bytes_per_second(link), "%.0f");
    }
    return w.end_object().text();
}

std::string ready_event(const std::string &pty, uint32_t clock_hz, const LinkConfig &link,
                        uint32_t tags, const std::string &extra_fields)
{
    json::Writer w;
    w.begin_object().field("event", "ready").field("pty", pty).field("clockHz", clock_hz);
    w.field_raw("link", link_json(link)).field("tags", tags);
    // extra_fields: members written by the caller, each with its leading comma
    std::string out = w.end_object().text();
    return out.substr(0, out.size() - 1) + extra_fields + "}";
}

std::string error_event(const std::string &message)
{
    json::Writer w;
    return w.begin_object().field("event", "error").field("message", message).end_object().text();
}

std::string graph_done_event(uint64_t id, GraphKernel kernel, const std::string &graph,
                             const Csr &g, uint64_t source, uint32_t launches,
                             const WorkloadResult &r, double wall_seconds)
{
    json::Writer w;
    w.begin_object().field("event", "done").field("id", id);
    w.field("pattern", graph_kernel_name(kernel)).field("graph", graph);
    w.field("vertices", g.vertices).field("edges", g.edges()).field("idBytes", g.id_bytes);
    w.field("source", source).field("launches", launches);
    return done_tail(w, r, wall_seconds).end_object().text();
}

std::string done_event(const RunCommand &run, const WorkloadResult &r, double wall_seconds)
{
    json::Writer w;
    w.begin_object().field("event", "done").field("id", run.id);
    w.field("pattern", pattern_name(run.pattern)).field("bytes", run.bytes);
    w.field("offset", run.offset).field("elementBytes", run.element_bytes);
    if (run.pattern == Pattern::MergedChunked)
        w.field("chunkBytes", run.chunk_bytes);
    w.field("l1", l1_load_name(run.l1));
    return done_tail(w, r, wall_seconds).end_object().text();
}

} // namespace ps
