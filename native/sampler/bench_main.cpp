// pcie-scope-gpu-counters-bench (GPU hosts, bench/gpu-counters.sh): one micro pattern run twice
// in one process through ps_gpu_bench, first unsampled, then with the sampler on its own
// thread; prints one JSON line: both kernels' median times, and the sampled counters summed
// over the timed kernels (the window between two 100-ms idle gaps, placed on the samples'
// clock through %globaltimer), divided by the repeats: per kernel, as ncu reports it.
// `--round-trip` instead prints the idle round trip of one dependent host-memory read, 5 times.
// A graph kernel (`--pattern bfs-merged --graph kron:20`, zero-copy edge list) is summed over each
// timed run's launch loop alone (the runner's "launches"/"launched" reports, 40 ms of idle placed
// around each, the window 20 ms wider either side, so no vertex-state copy falls inside), divided
// by the repeats: per run.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "globaltimer.h"
#include "graph.h"           // native/model
#include "graph_reference.h" // native/model
#include "json.h"            // native/common
#include "native/cuda/gpu_bench.h"
#include "native/cuda/graph_bench.h"
#include "options.h" // native/common
#include "sampler.h"

namespace {

using namespace std::chrono_literals;

enum BenchOption {
    kOptRoundTrip,
    kOptPattern,
    kOptBytes,
    kOptOffset,
    kOptElementBytes,
    kOptL1,
    kOptRepeats,
    kOptIntervalUs,
    kOptDevice,
    kOptGraph,
};

using ps::cli::Value;

// the workload's ranges are pcie-scope-gpu's (native/cuda/runner.cpp), the interval the sampler's
const ps::cli::OptionDef kBenchOptions[] = {
    {kOptRoundTrip, "--round-trip", nullptr, Value::None, 0, 0, {}, 0, {}, 0, ""},
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
     std::string("--pattern must be one of ") + ps::kPatternNameList},
    {kOptBytes, "--bytes", nullptr, Value::Uint, 0, ps::kWorkloadBytesMax, {}, 0, {}, 0, ""},
    {kOptOffset, "--offset", nullptr, Value::Uint, 0, ps::kWorkloadOffsetMax, {}, 0, {}, 0, ""},
    {kOptElementBytes,
     "--element-bytes",
     nullptr,
     Value::Uint,
     0,
     ps::kElementBytesMax,
     {},
     0,
     {},
     0,
     ""},
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
    {kOptRepeats, "--repeats", nullptr, Value::Uint, 1, 1000, {}, 0, {}, 0, ""},
    {kOptIntervalUs, "--interval-us", nullptr, Value::Uint, 1, 10000000, {}, 0, {}, 0, ""},
    {kOptDevice, "--device", nullptr, Value::Uint, 0, 63, {}, 0, {}, 0, ""},
    {kOptGraph, "--graph", nullptr, Value::Text, 0, 0, {}, 0, {}, 0, ""},
};

uint64_t realtime_ns()
{
    timespec t{};
    clock_gettime(CLOCK_REALTIME, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

// Idle around each graph run's launch loop, and the slack its window is widened by: the window
// must hold every sample of the launches (the clocks' offset is known to a few ms) and none of
// the copies around them.
constexpr auto kGraphIdle = 40ms;
constexpr uint64_t kGraphSlackNs = 20000000;

struct Marks {
    uint64_t a = 0, b = 0; // realtime ns: the first timed kernel's launch, the last one's end
    std::vector<std::pair<uint64_t, uint64_t>> runs; // a graph run's launch loops, realtime ns
};

void progress(void *ctx, const char *phase, uint32_t done, uint32_t total)
{
    auto *m = static_cast<Marks *>(ctx);
    if (!strcmp(phase, "launches")) {
        std::this_thread::sleep_for(kGraphIdle); // idle after the vertex-state copies
        m->runs.push_back({realtime_ns(), 0});
        return;
    }
    if (!strcmp(phase, "launched") && !m->runs.empty()) {
        m->runs.back().second = realtime_ns();
        std::this_thread::sleep_for(kGraphIdle); // idle before the answer is copied back
        return;
    }
    if (!strcmp(phase, "fill") && done == total)
        std::this_thread::sleep_for(100ms); // idle before the kernels
    if (!strcmp(phase, "kernel") && done == 0)
        m->a = realtime_ns();
    if (!strcmp(phase, "kernel") && done == total) {
        m->b = realtime_ns();
        std::this_thread::sleep_for(100ms); // idle before the memcpy baseline
    }
}

struct Collected {
    std::mutex mu;
    ps::sampler::SourceInfo info;
    std::vector<double> flat;
    size_t stride = 0;
    uint64_t lost = 0;
    double cpu = 0;
};

// globaltimer - realtime, the mean of two readings around the kernel that reads it
bool clock_offset(int64_t *off)
{
    const uint64_t h0 = realtime_ns();
    uint64_t g = 0;
    if (!ps_read_globaltimer(&g))
        return false;
    const uint64_t h1 = realtime_ns();
    *off = (int64_t)g - (int64_t)((h0 + h1) / 2);
    return true;
}

// The sampler on its own thread for as long as `work` runs (300 ms before, 100 ms after).
struct SampledCall {
    Collected col;
    int64_t offset_ns = 0; // globaltimer - realtime, the mean of readings before and after
    ps::sampler::Status status = ps::sampler::Status::Ok;
    std::string error;
};

template <typename Work>
void sample_while(const ps::sampler::Config &sc, SampledCall *out, Work work)
{
    int64_t off0 = 0, off1 = 0;
    clock_offset(&off0);
    volatile bool stop = false;
    ps::sampler::Callbacks cb;
    cb.ctx = &out->col;
    cb.on_start = [](void *c, const ps::sampler::SourceInfo &i) {
        auto *k = static_cast<Collected *>(c);
        std::lock_guard<std::mutex> g(k->mu);
        k->info = i;
    };
    cb.on_batch = [](void *c, const ps::sampler::Batch &b) {
        auto *k = static_cast<Collected *>(c);
        std::lock_guard<std::mutex> g(k->mu);
        k->stride = b.stride;
        k->flat.insert(k->flat.end(), b.data, b.data + b.count * b.stride);
        k->lost = b.lost_total;
        k->cpu = b.thread_cpu_s;
    };
    std::atomic<bool> ended{false};
    std::thread th([&] {
        out->status = ps::sampler::run(sc, cb, &stop, &out->error);
        ended = true;
    });
    // CUPTI's set-up can take seconds: the work starts once samples flow (or the sampler ended)
    const auto give_up = std::chrono::steady_clock::now() + 30s;
    for (;;) {
        {
            std::lock_guard<std::mutex> g(out->col.mu);
            if (!out->col.flat.empty() || ended)
                break;
        }
        if (std::chrono::steady_clock::now() > give_up)
            break;
        std::this_thread::sleep_for(10ms);
    }
    std::this_thread::sleep_for(300ms);
    work();
    std::this_thread::sleep_for(100ms);
    stop = true;
    th.join();
    clock_offset(&off1);
    out->offset_ns = (off0 + off1) / 2;
}

// Each metric summed over the samples whose middle lies in one of `windows` (realtime ns).
std::vector<double> sum_within(const SampledCall &s,
                               const std::vector<std::pair<uint64_t, uint64_t>> &windows,
                               size_t *in)
{
    const Collected &col = s.col;
    const double origin = strtod(col.info.origin_ns.c_str(), nullptr);
    const size_t nm = col.stride >= 2 ? col.stride - 2 : 0;
    std::vector<double> sum(nm, 0);
    *in = 0;
    for (size_t i = 0; i + col.stride <= col.flat.size() && col.stride; i += col.stride) {
        const double mid = (col.flat[i] + col.flat[i + 1]) / 2;
        bool inside = false;
        for (const auto &w : windows)
            inside = inside
                || (mid >= (double)w.first + (double)s.offset_ns - origin
                    && mid <= (double)w.second + (double)s.offset_ns - origin);
        if (!inside)
            continue;
        ++*in;
        for (size_t k = 0; k < nm; ++k)
            sum[k] += col.flat[i + 2 + k];
    }
    return sum;
}

std::string metric_sums(const Collected &col, const std::vector<double> &sum, double per)
{
    ps::json::Writer w;
    w.begin_object();
    for (size_t k = 0; k < sum.size(); ++k)
        w.field_number(col.info.metrics[k].name, sum[k] / per, "%.6f");
    return w.end_object().text();
}

// A graph kernel over a zero-copy edge list: unsampled, then sampled; per run.
int graph_bench(const std::string &kernel, const std::string &graph_text,
                const ps::gpu::RunConfig &micro, const ps::sampler::Config &sc)
{
    ps::gpu::GraphRunConfig cfg;
    if (!ps::graph_kernel_from_name(kernel.c_str(), &cfg.kernel)) {
        fprintf(stderr, "with --graph, --pattern must be one of %s\n", ps::kGraphKernelNameList);
        return 2;
    }
    ps::Csr g;
    try {
        g = ps::load_graph(ps::parse_graph_spec(graph_text), ps::default_graph_cache_dir());
    } catch (const ps::GraphError &e) {
        fprintf(stderr, "%s: %s\n", e.code(), e.what());
        return 2;
    }
    cfg.graph = &g;
    cfg.source = ps::bfs_default_source(g);
    cfg.memory = ps::gpu::GraphMemory::ZeroCopy;
    cfg.warmup = 1;
    cfg.repeats = micro.repeats;
    cfg.device = micro.device;
    char err[512] = "";
    ps::gpu::GraphRunResult plain{}, sampled{};
    const auto fail = [&](const std::string &code, const std::string &message) {
        ps::json::Writer w;
        w.begin_object().key("error").begin_object().field("code", code);
        printf("%s\n", w.field("message", message).end_object().end_object().text().c_str());
        return 1;
    };
    ps::gpu::Status rs =
        ps::gpu::run_graph(cfg, nullptr, nullptr, nullptr, &plain, err, sizeof err);
    if (rs != ps::gpu::Status::Ok)
        return fail(ps::gpu::status_code(rs), err);
    Marks marks;
    SampledCall call;
    sample_while(sc, &call, [&] {
        rs = ps::gpu::run_graph(cfg, nullptr, progress, &marks, &sampled, err, sizeof err);
    });
    if (call.status != ps::sampler::Status::Ok)
        return fail(ps::sampler::status_code(call.status), call.error);
    if (rs != ps::gpu::Status::Ok)
        return fail(ps::gpu::status_code(rs), err);
    size_t in = 0;
    std::vector<std::pair<uint64_t, uint64_t>> windows;
    for (const auto &r : marks.runs)
        windows.push_back({r.first - kGraphSlackNs, r.second + kGraphSlackNs});
    const std::vector<double> sum = sum_within(call, windows, &in);
    double launch_ms = 0;
    for (const auto &w : marks.runs)
        launch_ms += (double)(w.second - w.first) / 1e6;
    ps::json::Writer w;
    w.begin_object().field("pattern", kernel).field("graph", graph_text);
    w.field("source", cfg.source).field("idBytes", g.id_bytes).field("memory", "zerocopy");
    w.field("repeats", cfg.repeats).field("launches", sampled.launches);
    w.field("intervalNs", call.col.info.interval_ns).field("source", call.col.info.source);
    w.field_number("runMsUnsampled", plain.bfs.median_ms, "%.4f");
    w.field_number("runMsSampled", sampled.bfs.median_ms, "%.4f");
    w.field("answerOk", plain.levels_ok && sampled.levels_ok);
    w.field("windows", (uint64_t)marks.runs.size());
    w.field_number("windowsMs", launch_ms, "%.3f");
    w.field("samplesInWindow", in)
        .field("samples", call.col.flat.size() / (call.col.stride ? call.col.stride : 1));
    w.field("lost", call.col.lost).field("clockOffsetNs", call.offset_ns);
    w.field_number("samplerThreadCpuS", call.col.cpu, "%.4f");
    w.field_raw("perRun", metric_sums(call.col, sum, cfg.repeats));
    printf("%s\n", w.end_object().text().c_str());
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    ps::gpu::RunConfig cfg{};
    cfg.pattern = ps::Pattern::MergedAligned;
    cfg.bytes = 64ull << 20;
    cfg.offset = 0;
    cfg.element_bytes = 4;
    cfg.repeats = 10;
    ps::sampler::Config sc;
    sc.interval_ns = 100000;
    bool offset_given = false, round_trip = false;
    std::string pattern_text = "merged-aligned", graph_text;
    const auto apply = [&](const ps::cli::Parsed &p, std::string *perr) -> bool {
        const uint64_t v = p.number;
        bool ok = true;
        switch ((BenchOption)p.def->id) {
        case kOptRoundTrip:
            round_trip = true;
            break;
        case kOptPattern:
            pattern_text = p.text;
            break;
        case kOptGraph:
            graph_text = p.text;
            break;
        case kOptBytes:
            cfg.bytes = v;
            break;
        case kOptOffset:
            cfg.offset = (uint32_t)v;
            offset_given = true;
            break;
        case kOptElementBytes:
            cfg.element_bytes = (uint32_t)v;
            break;
        case kOptL1: {
            ps::L1Load l = ps::L1Load::Ideal;
            ok = ps::l1_load_from_name(p.text.c_str(), &l);
            cfg.bypass_l1 = l == ps::L1Load::Bypass;
            break;
        }
        case kOptRepeats:
            cfg.repeats = (uint32_t)v;
            break;
        case kOptIntervalUs:
            sc.interval_ns = v * 1000;
            break;
        case kOptDevice:
            cfg.device = sc.device = (int)v;
            break;
        }
        if (!ok)
            *perr = ps::cli::value_error(*p.def);
        return ok;
    };
    std::string perr;
    if (!ps::cli::parse(argc, argv, kBenchOptions, sizeof kBenchOptions / sizeof kBenchOptions[0],
                        ps::cli::Messages(), apply, &perr)) {
        fprintf(stderr, "%s\n", perr.c_str());
        return 2;
    }
    if (round_trip) {
        double ns[5] = {};
        for (double &v : ns)
            if (!ps_idle_round_trip_ns(&v))
                return 1;
        ps::json::Writer w;
        w.begin_object().key("idleRoundTripNs").begin_array();
        for (double v : ns)
            w.number(v, "%.1f");
        printf("%s\n", w.end_array().end_object().text().c_str());
        return 0;
    }
    if (!graph_text.empty())
        return graph_bench(pattern_text, graph_text, cfg, sc);
    if (!ps::pattern_from_name(pattern_text.c_str(), &cfg.pattern)) {
        fprintf(stderr, "--pattern must be one of %s\n", ps::kPatternNameList);
        return 2;
    }
    if (!offset_given)
        cfg.offset = ps::pattern_default_offset(cfg.pattern);
    char err[512] = "";
    ps::gpu::RunResult plain{}, sampled{};
    Marks marks;
    if (ps::gpu::run(cfg, nullptr, nullptr, nullptr, &plain, err, sizeof err)
        != ps::gpu::Status::Ok) {
        ps::json::Writer w;
        printf("%s\n",
               w.begin_object().field("error", std::string(err)).end_object().text().c_str());
        return 1;
    }
    SampledCall call;
    ps::gpu::Status rs = ps::gpu::Status::Ok;
    sample_while(sc, &call, [&] {
        rs = ps::gpu::run(cfg, nullptr, progress, &marks, &sampled, err, sizeof err);
    });
    if (call.status != ps::sampler::Status::Ok || rs != ps::gpu::Status::Ok) {
        ps::json::Writer w;
        w.begin_object().key("error").begin_object().field("code",
                                                           ps::sampler::status_code(call.status));
        w.field("message", call.error).field("run", std::string(err)).end_object().end_object();
        printf("%s\n", w.text().c_str());
        return 1;
    }
    // the window with 50 ms of slack either side inside the idle gaps
    size_t in = 0;
    const Collected &col = call.col;
    const std::vector<double> sum =
        sum_within(call, {{marks.a - 50000000ull, marks.b + 50000000ull}}, &in);
    ps::json::Writer w;
    w.begin_object().field("pattern", ps::pattern_name(cfg.pattern)).field("bytes", cfg.bytes);
    w.field("offset", cfg.offset).field("elementBytes", cfg.element_bytes);
    w.field("l1", cfg.bypass_l1 ? "bypass" : "default").field("repeats", cfg.repeats);
    w.field("intervalNs", col.info.interval_ns).field("source", col.info.source);
    w.field_number("kernelMsUnsampled", plain.kernel.median_ms, "%.4f");
    w.field_number("kernelMsSampled", sampled.kernel.median_ms, "%.4f");
    w.field("checksumOk", plain.checksum_ok && sampled.checksum_ok);
    w.field("samplesInWindow", in)
        .field("samples", col.flat.size() / (col.stride ? col.stride : 1));
    w.field("lost", col.lost);
    w.field("clockOffsetNs", call.offset_ns);
    w.field_number("windowMs", (double)(marks.b - marks.a) / 1e6, "%.3f");
    w.field_number("samplerThreadCpuS", col.cpu, "%.4f");
    w.field_raw("perKernel", metric_sums(col, sum, cfg.repeats));
    printf("%s\n", w.end_object().text().c_str());
    return 0;
}
