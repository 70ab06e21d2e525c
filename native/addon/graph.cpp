// The addon's graph side: predictGraph() (the graph kernels' traffic model in process) and
// gpuGraphRun() (a graph kernel on the GPU, native/cuda/graph_bench.h, when the GPU library is
// linked).
// Loading or generating a graph can take seconds (kron:20), so both do it off the JS thread.
#include <napi.h>

#include <cmath>
#include <memory>
#include <string>

#include "graph.h"
#include "graph_bandwidth.h"
#include "graph_kernels.h"
#include "graph_reference.h"
#include "graph_traffic.h"
#include "js.h"
#include "thread_job.h"

#if PS_WITH_GPU_BENCH
#include "native/cuda/graph_bench.h"
#endif

namespace ps::addon {

namespace {

constexpr const char *kBadGraphRequest = "PS_WORKLOAD_INVALID";

// {kernel, graph, idBytes?, source?, l1?} as the model and the GPU run both take it.
struct GraphRequest {
    GraphKernel kernel = GraphKernel::BfsAligned;
    std::string graph;
    uint32_t id_bytes = kGraphIdBytesDefault;
    bool source_given = false;
    uint64_t source = 0;
    bool bypass_l1 = false;
    L1Model l1_model = L1Model::Ideal;
};

GraphRequest read_graph_request(const Napi::Value &v, const char *code)
{
    Napi::Env env = v.Env();
    if (!v.IsObject())
        throw coded_error(env, code, "a graph workload must be an object.");
    const Napi::Object o = v.As<Napi::Object>();
    GraphRequest r;
    const Napi::Value k = o.Get("kernel");
    if (!k.IsString()
        || !graph_kernel_from_name(k.As<Napi::String>().Utf8Value().c_str(), &r.kernel))
        throw coded_error(env, code,
                          std::string("kernel must be one of ") + kGraphKernelNameList + ".");
    const Napi::Value g = o.Get("graph");
    if (!g.IsString() || g.As<Napi::String>().Utf8Value().empty())
        throw coded_error(env, code,
                          "graph must be a graph spec such as kron:16, urand:16 or file:PATH.");
    r.graph = g.As<Napi::String>().Utf8Value();
    const Napi::Value ib = o.Get("idBytes");
    if (!ib.IsUndefined()) {
        const double d = ib.IsNumber() ? ib.As<Napi::Number>().DoubleValue() : 0;
        if (d != 4 && d != 8)
            throw coded_error(env, code, "idBytes must be 4 or 8.");
        r.id_bytes = (uint32_t)d;
    }
    const Napi::Value src = o.Get("source");
    if (!src.IsUndefined()) {
        const double d = src.IsNumber() ? src.As<Napi::Number>().DoubleValue() : -1;
        if (!(d >= 0) || d != std::floor(d) || d > 9007199254740991.0)
            throw coded_error(env, code,
                              "source must be a vertex number (a non-negative integer).");
        r.source_given = true;
        r.source = (uint64_t)d;
    }
    const Napi::Value l1 = o.Get("l1");
    if (!l1.IsUndefined()) {
        const std::string s = l1.IsString() ? l1.As<Napi::String>().Utf8Value() : "";
        if (s != "ideal" && s != "bypass")
            throw coded_error(env, code, "l1 must be ideal or bypass.");
        r.bypass_l1 = s == "bypass";
    }
    r.l1_model = read_l1_model(o, code);
    return r;
}

// The graph and its source, loaded on the job's thread; false with a code and one sentence.
bool load(const GraphRequest &r, Csr *g, uint64_t *source, const char **code, std::string *why)
{
    try {
        *g = load_graph(parse_graph_spec(r.graph, r.id_bytes), default_graph_cache_dir());
    } catch (const GraphError &e) {
        *code = e.code();
        *why = e.what();
        return false;
    }
    *source = r.source_given ? r.source : bfs_default_source(*g);
    if (*source >= g->vertices) {
        *code = "PS_GRAPH_BAD_SOURCE";
        *why = "source " + std::to_string(*source) + " is not a vertex (the graph has "
            + std::to_string(g->vertices) + ").";
        return false;
    }
    return true;
}

Napi::Object graph_to_js(Napi::Env env, const GraphRequest &r, const Csr &g, uint64_t source)
{
    Napi::Object o = Napi::Object::New(env);
    o.Set("kernel", Napi::String::New(env, graph_kernel_name(r.kernel)));
    o.Set("graph", Napi::String::New(env, r.graph));
    o.Set("vertices", Napi::Number::New(env, (double)g.vertices));
    o.Set("edges", Napi::Number::New(env, (double)g.edges()));
    o.Set("idBytes", Napi::Number::New(env, g.id_bytes));
    o.Set("source", Napi::Number::New(env, (double)source));
    return o;
}

struct GraphPrediction {
    GraphRequest req;
    Csr graph;
    uint64_t source = 0;
    GraphTrafficCounts counts;
    double predicted_edge_gbps = 0;
    const char *code = nullptr;
    std::string why;
};

Napi::Value PredictGraph(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    GraphRequest req;
    try {
        req = read_graph_request(info[0], kBadGraphRequest);
    } catch (const Napi::Error &e) {
        return rejected(env, e);
    }
    return ThreadJob<GraphPrediction>::start(
        env, Napi::Function(),
        [req](ThreadJob<GraphPrediction>::Report, void *, GraphPrediction *out) {
            out->req = req;
            if (!load(req, &out->graph, &out->source, &out->code, &out->why))
                return;
            GraphTrafficConfig cfg;
            cfg.kernel = req.kernel;
            cfg.graph = &out->graph;
            cfg.source = out->source;
            cfg.l1 = req.bypass_l1 ? L1Mode::Off : L1Mode::Ideal;
            cfg.l1_model = req.l1_model;
            GraphTrafficGenerator gen(cfg);
            const GraphTiming t =
                drain_graph_timing(gen, out->graph, req.kernel, host_model_of(kGpus[kGpuDefault]));
            out->counts = gen.counts();
            out->predicted_edge_gbps = t.edge_gbps;
        },
        [](Napi::Env env, Napi::Promise::Deferred &d, GraphPrediction &p) {
            if (p.code) {
                d.Reject(coded_error(env, p.code, p.why).Value());
                return;
            }
            Napi::Object o = graph_to_js(env, p.req, p.graph, p.source);
            const GraphTrafficCounts &c = p.counts;
            o.Set("l1", Napi::String::New(env, p.req.bypass_l1 ? "bypass" : "ideal"));
            o.Set("l1Model", Napi::String::New(env, l1_model_name(p.req.l1_model)));
            o.Set("launches", Napi::Number::New(env, c.launches));
            o.Set("predictedEdgeGbps", Napi::Number::New(env, p.predicted_edge_gbps));
            o.Set("instructions", Napi::Number::New(env, (double)c.instructions));
            o.Set("usefulBytes", Napi::Number::New(env, (double)c.useful_bytes));
            o.Set("count", Napi::Number::New(env, (double)c.mrds));
            o.Set("bytes", Napi::Number::New(env, (double)c.mrd_bytes));
            Napi::Object by = Napi::Object::New(env);
            for (int k = 0; k < kSizeClassCount; ++k)
                by.Set(kSizeClassKeys[k], Napi::Number::New(env, (double)c.by_size[k]));
            o.Set("bySize", by);
            d.Resolve(o);
        });
}

#if PS_WITH_GPU_BENCH

struct GraphRunOutcome {
    GraphRequest req;
    Csr graph;
    uint64_t source = 0;
    gpu::GraphRunResult result{};
    gpu::Status status = gpu::Status::Ok;
    const char *code = nullptr; // a graph error before any GPU work
    char err[256] = "";
};

Napi::Value GpuGraphRun(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    Napi::Object out = Napi::Object::New(env);
    auto cancel = set_cancel(env, out);
    try {
        const GraphRequest req = read_graph_request(info[0], kGpuBadArgument);
        const Napi::Object o = info[0].As<Napi::Object>();
        gpu::GraphRunConfig cfg{};
        cfg.kernel = req.kernel;
        const Napi::Value mem = o.Get("memory");
        if (!mem.IsUndefined()
            && !(mem.IsString()
                 && gpu::graph_memory_from_name(mem.As<Napi::String>().Utf8Value().c_str(),
                                                &cfg.memory)))
            throw coded_error(env, kGpuBadArgument,
                              std::string("memory must be one of ") + gpu::kGraphMemoryNameList
                                  + ".");
        // absent fields keep GraphRunConfig's defaults
        cfg.warmup = read_count(o, "warmup", cfg.warmup, 1000);
        cfg.repeats = read_count(o, "repeats", cfg.repeats, 1000);
        cfg.device = (int)read_count(o, "device", (uint32_t)cfg.device, 64);
        Napi::Function fn;
        if (info.Length() > 1 && info[1].IsFunction())
            fn = info[1].As<Napi::Function>();
        out.Set("promise",
                ThreadJob<GraphRunOutcome>::start(
                    env, fn,
                    [req, cfg, cancel](ThreadJob<GraphRunOutcome>::Report report, void *ctx,
                                       GraphRunOutcome *r) {
                        r->req = req;
                        std::string why;
                        if (!load(req, &r->graph, &r->source, &r->code, &why)) {
                            snprintf(r->err, sizeof r->err, "%s", why.c_str());
                            return;
                        }
                        gpu::GraphRunConfig c = cfg;
                        c.graph = &r->graph;
                        c.source = r->source;
                        r->status = gpu::run_graph(c, cancel.get(), report, ctx, &r->result, r->err,
                                                   sizeof r->err);
                    },
                    [](Napi::Env env, Napi::Promise::Deferred &d, GraphRunOutcome &r) {
                        if (r.code) {
                            d.Reject(coded_error(env, r.code, r.err).Value());
                            return;
                        }
                        Napi::Object o = graph_to_js(env, r.req, r.graph, r.source);
                        const gpu::GraphRunResult &g = r.result;
                        o.Set("device", device_to_js(env, g.device));
                        o.Set("bfs", timing_to_js(env, g.bfs));
                        o.Set("launches", Napi::Number::New(env, g.launches));
                        o.Set("reached", Napi::Number::New(env, (double)g.reached));
                        o.Set("edgesRead", Napi::Number::New(env, (double)g.edges_read));
                        o.Set("edgeBytes", Napi::Number::New(env, (double)g.edge_bytes));
                        o.Set("gteps", Napi::Number::New(env, g.gteps));
                        o.Set("edgeGbps", Napi::Number::New(env, g.edge_gbps));
                        Napi::Object lv = Napi::Object::New(env);
                        lv.Set("ok", Napi::Boolean::New(env, g.levels_ok));
                        lv.Set("mismatches", Napi::Number::New(env, (double)g.level_mismatches));
                        o.Set("levels", lv);
                        if (r.status == gpu::Status::Ok) {
                            d.Resolve(o);
                            return;
                        }
                        Napi::Error e = coded_error(env, gpu::status_code(r.status), r.err);
                        if (r.status == gpu::Status::ChecksumMismatch)
                            e.Set("result", o);
                        d.Reject(e.Value());
                    }));
    } catch (const Napi::Error &e) {
        out.Set("promise", rejected(env, e));
    }
    return out;
}

#else

Napi::Value GpuGraphRun(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    Napi::Object out = Napi::Object::New(env);
    // argument errors first, as the real build reports them
    try {
        read_graph_request(info[0], kGpuBadArgument);
        out.Set("promise", rejected(env, coded_error(env, kGpuNotBuilt, kGpuNotBuiltWhy)));
    } catch (const Napi::Error &e) {
        out.Set("promise", rejected(env, e));
    }
    set_cancel(env, out); // nothing runs: cancel() has nothing to stop
    return out;
}

#endif

} // namespace

void init_graph(Napi::Env env, Napi::Object exports)
{
    exports.Set("predictGraph", Napi::Function::New(env, PredictGraph, "predictGraph"));
    exports.Set("gpuGraphRun", Napi::Function::New(env, GpuGraphRun, "gpuGraphRun"));
}

} // namespace ps::addon
