// The addon's GPU counters: gpuCounters(options, onEvent) samples the GPU's PCIe counters on a
// thread of its own (native/sampler) and streams them to JS as events: one "start" naming the
// source and its metrics, then "batch" events of samples. Batches the JS thread cannot take
// (its queue full) are dropped and counted as lost, never silently.
#include <napi.h>

#include <math.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "js.h"
#include "sampler.h"

namespace ps::addon {

namespace {

using sampler::Status;

constexpr size_t kQueueBatches = 256;

struct Event {
    bool start = false;
    sampler::SourceInfo info;
    std::vector<double> data;
    size_t stride = 0;
    uint64_t lost = 0, samples = 0;
    double cpu = 0;
    bool overflow = false;
};

Napi::Object info_to_js(Napi::Env env, const sampler::SourceInfo &i)
{
    Napi::Object o = Napi::Object::New(env);
    o.Set("source", i.source);
    o.Set("chip", i.chip);
    Napi::Array metrics = Napi::Array::New(env, i.metrics.size());
    for (size_t k = 0; k < i.metrics.size(); ++k) {
        Napi::Object m = Napi::Object::New(env);
        m.Set("name", i.metrics[k].name);
        m.Set("role", sampler::role_name(i.metrics[k].role));
        metrics.Set((uint32_t)k, m);
    }
    o.Set("metrics", metrics);
    Napi::Array offered = Napi::Array::New(env, i.offered.size());
    for (size_t k = 0; k < i.offered.size(); ++k)
        offered.Set((uint32_t)k, i.offered[k]);
    o.Set("offered", offered);
    o.Set("intervalNs", Napi::Number::New(env, (double)i.interval_ns));
    o.Set("originNs", i.origin_ns);
    if (!i.fallback_reason.empty())
        o.Set("fallbackReason", i.fallback_reason);
    return o;
}

void deliver(Napi::Env env, Napi::Function fn, Event *raw)
{
    std::unique_ptr<Event> e(raw);
    if (env == nullptr)
        return;
    Napi::Object o = Napi::Object::New(env);
    if (e->start) {
        o.Set("type", "start");
        o.Set("info", info_to_js(env, e->info));
    } else {
        o.Set("type", "batch");
        Napi::Float64Array a = Napi::Float64Array::New(env, e->data.size());
        std::copy(e->data.begin(), e->data.end(), a.Data());
        o.Set("data", a);
        o.Set("stride", Napi::Number::New(env, (double)e->stride));
        o.Set("lost", Napi::Number::New(env, (double)e->lost));
        o.Set("samples", Napi::Number::New(env, (double)e->samples));
        o.Set("threadCpuSeconds", Napi::Number::New(env, e->cpu));
        o.Set("overflow", Napi::Boolean::New(env, e->overflow));
    }
    fn.Call({o});
}

class CountersJob {
public:
    static Napi::Object start(Napi::Env env, const sampler::Config &cfg, Napi::Function on_event)
    {
        auto *job = new CountersJob(env, cfg);
        Napi::Object out = Napi::Object::New(env);
        out.Set("done", job->deferred_.Promise());
        auto stop = job->stop_;
        out.Set("stop",
                Napi::Function::New(
                    env, [stop](const Napi::CallbackInfo &) { *stop = true; }, "stop"));
        job->tsfn_ =
            Napi::ThreadSafeFunction::New(env, on_event, "pcie-scope:gpuCounters", kQueueBatches, 1,
                                          job, &CountersJob::finish, (void *)nullptr);
        job->thread_ = std::thread([job] { job->work(); });
        return out;
    }

private:
    CountersJob(Napi::Env env, const sampler::Config &cfg)
        : cfg_(cfg), stop_(std::make_shared<volatile bool>(false)),
          deferred_(Napi::Promise::Deferred::New(env))
    {}

    void work()
    {
        sampler::Callbacks cb;
        cb.ctx = this;
        cb.on_start = [](void *c, const sampler::SourceInfo &info) {
            auto *self = static_cast<CountersJob *>(c);
            auto *e = new Event{};
            e->start = true;
            e->info = info;
            if (self->tsfn_.BlockingCall(e, deliver) != napi_ok)
                delete e;
        };
        cb.on_batch = [](void *c, const sampler::Batch &b) {
            auto *self = static_cast<CountersJob *>(c);
            auto *e = new Event{};
            e->data.assign(b.data, b.data + b.count * b.stride);
            e->stride = b.stride;
            e->lost = b.lost_total + self->dropped_;
            e->samples = b.samples_total - self->dropped_;
            e->cpu = b.thread_cpu_s;
            e->overflow = b.overflow;
            self->lost_ = e->lost;
            self->samples_ = e->samples;
            self->cpu_ = e->cpu;
            self->overflow_ = b.overflow;
            if (self->tsfn_.NonBlockingCall(e, deliver) != napi_ok) {
                self->dropped_ += b.count; // the JS thread is behind: counted, not hidden
                self->lost_ += b.count;
                self->samples_ -= b.count;
                delete e;
            }
        };
        status_ = sampler::run(cfg_, cb, stop_.get(), &err_);
        tsfn_.Release();
    }

    static void finish(Napi::Env env, void *, CountersJob *job)
    {
        job->thread_.join();
        std::unique_ptr<CountersJob> owned(job);
        if (job->status_ != Status::Ok) {
            job->deferred_.Reject(
                coded_error(env, sampler::status_code(job->status_), job->err_).Value());
            return;
        }
        Napi::Object o = Napi::Object::New(env);
        o.Set("samples", Napi::Number::New(env, (double)job->samples_));
        o.Set("lost", Napi::Number::New(env, (double)job->lost_));
        o.Set("threadCpuSeconds", Napi::Number::New(env, job->cpu_));
        o.Set("overflow", Napi::Boolean::New(env, job->overflow_));
        job->deferred_.Resolve(o);
    }

    sampler::Config cfg_;
    std::shared_ptr<volatile bool> stop_;
    Napi::Promise::Deferred deferred_;
    Napi::ThreadSafeFunction tsfn_;
    std::thread thread_;
    Status status_ = Status::Ok;
    std::string err_;
    uint64_t dropped_ = 0, lost_ = 0, samples_ = 0;
    double cpu_ = 0;
    bool overflow_ = false;
};

constexpr const char *kBad = "PS_GPU_COUNTERS_BAD_ARGUMENT";

double read_number(const Napi::Object &o, const char *key, double fallback, double lo, double hi)
{
    const Napi::Value v = o.Get(key);
    if (v.IsUndefined())
        return fallback;
    const double d = v.IsNumber() ? v.As<Napi::Number>().DoubleValue() : NAN;
    if (!(d >= lo && d <= hi))
        throw coded_error(o.Env(), kBad,
                          std::string(key) + " must be a number from "
                              + std::to_string((long long)lo) + " to "
                              + std::to_string((long long)hi) + ".");
    return d;
}

// gpuCounters({device?, intervalUs?, source?, pollMs?, hwBufferMb?}, onEvent)
//   -> {done: Promise<{samples, lost, threadCpuSeconds, overflow}>, stop()}
Napi::Value GpuCounters(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    try {
        const Napi::Object o = info.Length() > 0 && info[0].IsObject() ? info[0].As<Napi::Object>()
                                                                       : Napi::Object::New(env);
        if (info.Length() < 2 || !info[1].IsFunction())
            throw coded_error(env, kBad, "gpuCounters(options, onEvent) needs an event function.");
        sampler::Config cfg;
        cfg.device = (int)read_number(o, "device", 0, 0, 63);
        cfg.interval_ns = (uint64_t)(read_number(o, "intervalUs", 1000, 1, 1e7) * 1000.0);
        cfg.poll_ms = (uint32_t)read_number(o, "pollMs", 100, 1, 1000);
        cfg.hw_buffer_bytes = (uint64_t)read_number(o, "hwBufferMb", 256, 1, 4096) << 20;
        const Napi::Value src = o.Get("source");
        if (!src.IsUndefined()) {
            const std::string s = src.IsString() ? src.As<Napi::String>().Utf8Value() : "";
            if (s != "auto" && s != "pm-sampling" && s != "nvml")
                throw coded_error(env, kBad, "source must be auto, pm-sampling or nvml.");
            cfg.source = s;
        }
        return CountersJob::start(env, cfg, info[1].As<Napi::Function>());
    } catch (const Napi::Error &e) {
        Napi::Object out = Napi::Object::New(env);
        out.Set("done", rejected(env, e));
        out.Set("stop",
                Napi::Function::New(
                    env, [](const Napi::CallbackInfo &) {}, "stop"));
        return out;
    }
}

} // namespace

void init_gpu_counters(Napi::Env env, Napi::Object exports)
{
    exports.Set("gpuCounters", Napi::Function::New(env, GpuCounters, "gpuCounters"));
    exports.Set("pmSamplingBuilt", Napi::Boolean::New(env, sampler::pm_sampling_built()));
}

} // namespace ps::addon
