// pcie-scope-gpu: the standalone GPU runner for hosts without Node (runner.h, docs/contracts.md).
#include <signal.h>
#include <stdio.h>

#include <fstream>
#include <string>
#include <vector>

#include "graph_reference.h"
#include "json.h"
#include "runner.h"

namespace {

volatile bool g_cancel = false;
void on_signal(int) { g_cancel = true; }

void line(const std::string &s)
{
    fputs(s.c_str(), stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

void progress(void *, const char *phase, uint32_t done, uint32_t total)
{
    fprintf(stderr, "pcie-scope-gpu: %s %u/%u\n", phase, done, total);
}

using namespace ps::gpu;

int list()
{
    DeviceInfo devs[16];
    int n = 0;
    char err[512];
    const Status s = list_devices(devs, 16, &n, err, sizeof err);
    if (s != Status::Ok) {
        line(error_json(s, err));
        return exit_code_of(s);
    }
    ps::json::Writer w;
    w.begin_object().field("cudaBuilt", true).key("devices").begin_array();
    for (int i = 0; i < n && i < 16; ++i)
        w.raw(device_json(devs[i]));
    line(w.end_array().end_object().text());
    return kExitOk;
}

// Runs one configuration and prints its line; returns its status.
Status run_one(const RunConfig &cfg, bool verbose)
{
    RunResult r{};
    char err[512] = "";
    const Status s =
        run(cfg, &g_cancel, verbose ? progress : nullptr, nullptr, &r, err, sizeof err);
    if (s == Status::NotBuilt || s == Status::NoDevice)
        line(error_json(s, err)); // nothing ran: the bare error object
    else
        line(result_json(cfg, r, s, err));
    return s;
}

int suite(const RunnerArgs &a)
{
    int worst = kExitOk;
    for (const ps::PatternInfo &p : ps::kPatterns) {
        for (uint32_t e : ps::kElementBytesValues) {
            for (const ps::L1LoadInfo &l1 : ps::kL1Loads) {
                const bool bypass = l1.load == ps::L1Load::Bypass;
                if (a.l1_given && bypass != a.cfg.bypass_l1)
                    continue;
                RunConfig c = a.cfg;
                c.pattern = p.pattern;
                c.offset = p.default_offset;
                c.element_bytes = e;
                c.bypass_l1 = bypass;
                const Status s = run_one(c, false);
                if (s == Status::NotBuilt || s == Status::NoDevice || s == Status::Cancelled)
                    return exit_code_of(s);
                if (s != Status::Ok)
                    worst = exit_code_of(s);
            }
        }
    }
    return worst;
}

// Graph mode: one graph kernel (--pattern bfs-aligned, sssp-merged, ...) or every kernel x memory
// (--suite graph).
int graph(const RunnerArgs &a)
{
    ps::GraphSpec spec;
    try {
        spec = ps::parse_graph_spec(a.graph, a.id_bytes);
    } catch (const ps::GraphError &e) {
        line(graph_error_json(e.code(), e.what()));
        return kExitUsage;
    }
    // no CUDA build, or no GPU: say so before generating a graph nothing will run on
    int devices = 0;
    char why[512] = "";
    const Status usable = list_devices(nullptr, 0, &devices, why, sizeof why);
    if (usable != Status::Ok) {
        line(error_json(usable, why));
        return exit_code_of(usable);
    }
    ps::Csr g;
    try {
        g = ps::load_graph(spec, ps::default_graph_cache_dir());
    } catch (const ps::GraphError &e) {
        line(graph_error_json(e.code(), e.what()));
        return std::string(e.code()) == "PS_GRAPH_IO" ? kExitFailure : kExitUsage;
    }
    GraphRunConfig cfg;
    cfg.graph = &g;
    cfg.source = a.source_given ? a.source : ps::bfs_default_source(g);
    cfg.warmup = a.cfg.warmup;
    cfg.repeats = a.cfg.repeats;
    cfg.device = a.cfg.device;
    cfg.gpu_memory_limit = a.gpu_memory_limit;
    int worst = kExitOk;
    for (const ps::GraphKernelInfo &k : ps::kGraphKernels) {
        if (!a.graph_suite && k.kernel != a.kernel)
            continue;
        for (GraphMemory m : ps::gpu::kGraphMemories) {
            if ((a.memory_given || !a.graph_suite) && m != a.memory)
                continue;
            cfg.kernel = k.kernel;
            cfg.memory = m;
            GraphRunResult r{};
            char err[512] = "";
            const Status s = run_graph(cfg, &g_cancel, a.graph_suite ? nullptr : progress, nullptr,
                                       &r, err, sizeof err);
            if (s == Status::NotBuilt || s == Status::NoDevice) {
                line(error_json(s, err));
                return exit_code_of(s);
            }
            line(graph_result_json(cfg, a.graph, r, s, err));
            if (s == Status::Cancelled)
                return exit_code_of(s);
            if (s != Status::Ok && worst == kExitOk)
                worst = exit_code_of(s);
        }
    }
    return worst;
}

// --devices: one micro pattern on several GPUs at once over one host buffer.
int multi(const RunnerArgs &a)
{
    int present = 0;
    char why[512] = "";
    const Status usable = list_devices(nullptr, 0, &present, why, sizeof why);
    if (usable != Status::Ok) {
        line(error_json(usable, why));
        return exit_code_of(usable);
    }
    std::vector<int> devs;
    std::string err;
    if (!parse_devices(a.devices, present, &devs, &err)) {
        line(error_json(Status::BadArgument, err));
        return kExitUsage;
    }
    MultiRunResult r{};
    char msg[512] = "";
    const Status s =
        run_multi(a.cfg, devs.data(), (int)devs.size(), &g_cancel, &r, msg, sizeof msg);
    if (s == Status::NotBuilt || s == Status::NoDevice)
        line(error_json(s, msg));
    else
        line(multi_result_json(a.cfg, r, s, msg));
    return exit_code_of(s);
}

int dispatch(const RunnerArgs &a);

// --batch FILE: each line (blank lines and # comments skipped) is a command line of its own, run
// in this process one after another with the pinned host buffer kept between runs. A line that
// does not parse prints its error object and the batch goes on; the exit code is the worst.
int batch(const std::string &file)
{
    std::ifstream in(file);
    if (!in) {
        line(error_json(Status::BadArgument, "--batch: cannot read " + file));
        return kExitUsage;
    }
    keep_host_buffer(true);
    int worst = kExitOk;
    std::string text;
    while (std::getline(in, text) && !g_cancel) {
        std::vector<std::string> words = split_words(text);
        if (words.empty() || words[0][0] == '#')
            continue;
        words.insert(words.begin(), "pcie-scope-gpu");
        std::vector<char *> argv;
        for (std::string &w : words)
            argv.push_back(w.data());
        RunnerArgs one;
        std::string err;
        int rc = kExitUsage;
        if (!parse_args((int)argv.size(), argv.data(), &one, &err))
            line(error_json(Status::BadArgument, err));
        else if (!one.batch.empty() || one.help)
            line(error_json(Status::BadArgument, "a --batch line runs a workload"));
        else
            rc = dispatch(one);
        if (rc == kExitNoGpu) {
            keep_host_buffer(false);
            return rc; // nothing else can run either
        }
        if (rc != kExitOk && worst == kExitOk)
            worst = rc;
    }
    keep_host_buffer(false);
    return g_cancel ? exit_code_of(Status::Cancelled) : worst;
}

int dispatch(const RunnerArgs &a)
{
    if (a.list)
        return list();
    if (!a.batch.empty())
        return batch(a.batch);
    if (a.suite)
        return suite(a);
    if (a.graph_kernel_given || a.graph_suite)
        return graph(a);
    if (a.devices_given)
        return multi(a);
    return exit_code_of(run_one(a.cfg, true));
}

} // namespace

int main(int argc, char **argv)
{
    RunnerArgs a;
    std::string err;
    if (!parse_args(argc, argv, &a, &err)) {
        line(error_json(Status::BadArgument, err));
        fprintf(stderr, "pcie-scope-gpu: %s\n(run with --help for usage)\n", err.c_str());
        return kExitUsage;
    }
    if (a.help) {
        fputs(runner_usage(), stdout);
        return kExitOk;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    return dispatch(a);
}
