// The addon's GPU side: cudaBuilt, gpuDevices(), gpuRun(). With native/cuda linked
// (PS_WITH_GPU_BENCH=1) runs go to ps::gpu::run on a thread of their own; without it every GPU call
// answers PS_GPU_NOT_BUILT, so the JS contract is the same in both builds.
#include <napi.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "js.h"
#include "thread_job.h"

#if PS_WITH_GPU_BENCH
#include "native/cuda/gpu_bench.h"
#endif

namespace ps::addon {

namespace {

#if !PS_WITH_GPU_BENCH

Napi::Value GpuDevices(const Napi::CallbackInfo &info)
{
    return rejected(info.Env(), coded_error(info.Env(), kGpuNotBuilt, kGpuNotBuiltWhy));
}

Napi::Value GpuRun(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    Napi::Object out = Napi::Object::New(env);
    // argument errors first, as the real build reports them
    try {
        read_workload(info[0], kGpuBadArgument);
        out.Set("promise", rejected(env, coded_error(env, kGpuNotBuilt, kGpuNotBuiltWhy)));
    } catch (const Napi::Error &e) {
        out.Set("promise", rejected(env, e));
    }
    set_cancel(env, out); // nothing runs: cancel() has nothing to stop
    return out;
}

Napi::Value GpuRunMulti(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    try {
        read_workload(info[0], kGpuBadArgument);
    } catch (const Napi::Error &e) {
        return rejected(env, e);
    }
    return rejected(env, coded_error(env, kGpuNotBuilt, kGpuNotBuiltWhy));
}

constexpr bool kCudaBuilt = false;

#else

using gpu::DeviceInfo;
using gpu::RunConfig;
using gpu::RunResult;
using gpu::Status;

constexpr int kMaxDevices = 16;

// 64-bit checksums do not fit a JS number: hex strings, compared as strings
std::string hex64(uint64_t v)
{
    char buf[19];
    snprintf(buf, sizeof buf, "0x%016llx", (unsigned long long)v);
    return buf;
}

Napi::Object result_to_js(Napi::Env env, const RunResult &r)
{
    Napi::Object o = Napi::Object::New(env);
    o.Set("device", device_to_js(env, r.device));
    o.Set("kernel", timing_to_js(env, r.kernel));
    o.Set("memcpyH2d", timing_to_js(env, r.memcpy_h2d));
    o.Set("payloadBytes", Napi::Number::New(env, (double)r.payload_bytes));
    o.Set("kernelGbps", Napi::Number::New(env, r.kernel_gbps));
    o.Set("memcpyGbps", Napi::Number::New(env, r.memcpy_gbps));
    o.Set("ratioToMemcpy", Napi::Number::New(env, r.ratio_to_memcpy));
    Napi::Object c = Napi::Object::New(env);
    c.Set("gpu", Napi::String::New(env, hex64(r.checksum_gpu)));
    c.Set("cpu", Napi::String::New(env, hex64(r.checksum_cpu)));
    c.Set("ok", Napi::Boolean::New(env, r.checksum_ok));
    o.Set("checksum", c);
    o.Set("threads", Napi::Number::New(env, r.threads));
    o.Set("blocks", Napi::Number::New(env, r.blocks));
    return o;
}

class DevicesWorker : public Napi::AsyncWorker {
public:
    explicit DevicesWorker(Napi::Env env)
        : Napi::AsyncWorker(env, "pcie-scope:gpuDevices"),
          deferred_(Napi::Promise::Deferred::New(env))
    {}
    Napi::Promise promise() const { return deferred_.Promise(); }

protected:
    void Execute() override
    {
        status_ = gpu::list_devices(devices_, kMaxDevices, &count_, err_, sizeof err_);
    }
    void OnOK() override
    {
        Napi::Env env = Env();
        if (status_ != Status::Ok) {
            deferred_.Reject(coded_error(env, gpu::status_code(status_), err_).Value());
            return;
        }
        Napi::Array a = Napi::Array::New(env);
        for (int i = 0; i < count_ && i < kMaxDevices; ++i)
            a.Set((uint32_t)i, device_to_js(env, devices_[i]));
        deferred_.Resolve(a);
    }

private:
    Napi::Promise::Deferred deferred_;
    DeviceInfo devices_[kMaxDevices]{};
    int count_ = 0;
    Status status_ = Status::Ok;
    char err_[256] = "";
};

Napi::Value GpuDevices(const Napi::CallbackInfo &info)
{
    auto *w = new DevicesWorker(info.Env());
    Napi::Promise p = w->promise();
    w->Queue();
    return p;
}

// What a GPU run leaves for the JS thread.
struct RunOutcome {
    RunResult result{};
    Status status = Status::Ok;
    char err[256] = "";
};

// One GPU run on a thread of its own (thread_job.h). The cancel flag is shared with the JS
// cancel() closure, which may outlive the run.
Napi::Promise start_run(Napi::Env env, Napi::Function on_progress, const RunConfig &cfg,
                        std::shared_ptr<volatile bool> cancel)
{
    return ThreadJob<RunOutcome>::start(
        env, on_progress,
        [cfg, cancel](ThreadJob<RunOutcome>::Report report, void *ctx, RunOutcome *out) {
            out->status =
                gpu::run(cfg, cancel.get(), report, ctx, &out->result, out->err, sizeof out->err);
        },
        [](Napi::Env env, Napi::Promise::Deferred &d, RunOutcome &o) {
            if (o.status == Status::Ok) {
                d.Resolve(result_to_js(env, o.result));
                return;
            }
            Napi::Error e = coded_error(env, gpu::status_code(o.status), o.err);
            if (o.status == Status::ChecksumMismatch) // what was measured still helps the report
                e.Set("result", result_to_js(env, o.result));
            d.Reject(e.Value());
        });
}

Napi::Value GpuRun(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    Napi::Object out = Napi::Object::New(env);
    auto cancel = set_cancel(env, out);
    try {
        const PredictRequest w = read_workload(info[0], kGpuBadArgument);
        const Napi::Object o = info[0].As<Napi::Object>();
        RunConfig cfg{};
        cfg.pattern = w.pattern;
        cfg.bytes = w.bytes;
        cfg.offset = w.offset;
        cfg.element_bytes = w.element_bytes;
        cfg.bypass_l1 = w.bypass_l1;
        cfg.chunk_bytes = w.chunk_bytes;
        cfg.warmup = read_count(o, "warmup", 2, 1000);
        cfg.repeats = read_count(o, "repeats", 10, 1000);
        cfg.device = (int)read_count(o, "device", 0, 64);
        const Napi::Value reg = o.Get("hostRegister");
        cfg.host_register = reg.IsBoolean() && reg.As<Napi::Boolean>().Value();
        Napi::Function fn;
        if (info.Length() > 1 && info[1].IsFunction())
            fn = info[1].As<Napi::Function>();
        else if (info.Length() > 1 && !info[1].IsUndefined() && !info[1].IsNull())
            throw coded_error(env, kGpuBadArgument, "onProgress must be a function.");
        out.Set("promise", start_run(env, fn, cfg, cancel));
    } catch (const Napi::Error &e) {
        out.Set("promise", rejected(env, e));
    }
    return out;
}

// gpuRunMulti(workload with devices: [ordinals]): the pattern on every listed GPU at once over one
// host buffer, each alone first (gpu::run_multi).
class MultiWorker : public Napi::AsyncWorker {
public:
    MultiWorker(Napi::Env env, const RunConfig &cfg, std::vector<int> devices)
        : Napi::AsyncWorker(env, "pcie-scope:gpuRunMulti"),
          deferred_(Napi::Promise::Deferred::New(env)), cfg_(cfg), devices_(std::move(devices)),
          result_(new gpu::MultiRunResult{})
    {}
    Napi::Promise promise() const { return deferred_.Promise(); }

protected:
    void Execute() override
    {
        status_ = gpu::run_multi(cfg_, devices_.data(), (int)devices_.size(), nullptr,
                                 result_.get(), err_, sizeof err_);
    }
    void OnOK() override
    {
        Napi::Env env = Env();
        if (status_ != Status::Ok) {
            deferred_.Reject(coded_error(env, gpu::status_code(status_), err_).Value());
            return;
        }
        const gpu::MultiRunResult &r = *result_;
        Napi::Object o = Napi::Object::New(env);
        Napi::Array a = Napi::Array::New(env);
        for (int i = 0; i < r.count; ++i) {
            Napi::Object d = Napi::Object::New(env);
            d.Set("device", device_to_js(env, r.alone[i].device));
            d.Set("alone", result_to_js(env, r.alone[i]));
            d.Set("together", result_to_js(env, r.together[i]));
            a.Set((uint32_t)i, d);
        }
        o.Set("devices", a);
        o.Set("togetherWallMs", Napi::Number::New(env, r.together_wall_ms));
        o.Set("totalGbps", Napi::Number::New(env, r.total_gbps));
        o.Set("sumAloneGbps", Napi::Number::New(env, r.sum_alone_gbps));
        deferred_.Resolve(o);
    }

private:
    Napi::Promise::Deferred deferred_;
    RunConfig cfg_;
    std::vector<int> devices_;
    std::unique_ptr<gpu::MultiRunResult> result_;
    Status status_ = Status::Ok;
    char err_[256] = "";
};

Napi::Value GpuRunMulti(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    try {
        const PredictRequest w = read_workload(info[0], kGpuBadArgument);
        const Napi::Object o = info[0].As<Napi::Object>();
        RunConfig cfg{};
        cfg.pattern = w.pattern;
        cfg.bytes = w.bytes;
        cfg.offset = w.offset;
        cfg.element_bytes = w.element_bytes;
        cfg.bypass_l1 = w.bypass_l1;
        cfg.chunk_bytes = w.chunk_bytes;
        cfg.warmup = read_count(o, "warmup", 2, 1000);
        cfg.repeats = read_count(o, "repeats", 10, 1000);
        const Napi::Value dv = o.Get("devices");
        if (!dv.IsArray() || dv.As<Napi::Array>().Length() == 0
            || dv.As<Napi::Array>().Length() > (uint32_t)gpu::kMaxDevices)
            throw coded_error(env, kGpuBadArgument,
                              "devices must be a list of 1.." + std::to_string(gpu::kMaxDevices)
                                  + " device ordinals.");
        std::vector<int> devices;
        const Napi::Array arr = dv.As<Napi::Array>();
        for (uint32_t i = 0; i < arr.Length(); ++i) {
            const Napi::Value v = arr.Get(i);
            const double d = v.IsNumber() ? v.As<Napi::Number>().DoubleValue() : -1;
            if (!(d >= 0) || d != std::floor(d) || d > 1023)
                throw coded_error(env, kGpuBadArgument, "devices must be device ordinals.");
            devices.push_back((int)d);
        }
        auto *worker = new MultiWorker(env, cfg, std::move(devices));
        Napi::Promise p = worker->promise();
        worker->Queue();
        return p;
    } catch (const Napi::Error &e) {
        return rejected(env, e);
    }
}

constexpr bool kCudaBuilt = true; // refined at run time by gpu::cuda_built()

#endif

} // namespace

#if PS_WITH_GPU_BENCH

Napi::Object device_to_js(Napi::Env env, const gpu::DeviceInfo &d)
{
    Napi::Object o = Napi::Object::New(env);
    o.Set("name", Napi::String::New(env, d.name));
    o.Set("pciBusId", Napi::String::New(env, d.pci_bus_id));
    o.Set("pcieGen", Napi::Number::New(env, d.pcie_gen));
    o.Set("pcieWidth", Napi::Number::New(env, d.pcie_width));
    o.Set("nvidiaDriver",
          d.nvidia_driver[0] ? Napi::Value(Napi::String::New(env, d.nvidia_driver)) : env.Null());
    o.Set("smCount", Napi::Number::New(env, d.sm_count));
    o.Set("computeCapability",
          Napi::String::New(env, std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)));
    o.Set("driverVersion", Napi::Number::New(env, d.driver_version));
    o.Set("runtimeVersion", Napi::Number::New(env, d.runtime_version));
    return o;
}

Napi::Object timing_to_js(Napi::Env env, const gpu::Timing &t)
{
    Napi::Object o = Napi::Object::New(env);
    o.Set("medianMs", Napi::Number::New(env, t.median_ms));
    o.Set("minMs", Napi::Number::New(env, t.min_ms));
    o.Set("maxMs", Napi::Number::New(env, t.max_ms));
    return o;
}

uint32_t read_count(const Napi::Object &o, const char *key, uint32_t fallback, uint32_t max)
{
    const Napi::Value v = o.Get(key);
    if (v.IsUndefined())
        return fallback;
    const double d = v.IsNumber() ? v.As<Napi::Number>().DoubleValue() : -1;
    if (!(d >= 0) || d != std::floor(d) || d > max)
        throw coded_error(o.Env(), kGpuBadArgument,
                          std::string(key) + " must be an integer in 0.." + std::to_string(max)
                              + ".");
    return (uint32_t)d;
}

#endif

void init_gpu(Napi::Env env, Napi::Object exports)
{
#if PS_WITH_GPU_BENCH
    const bool built = kCudaBuilt && gpu::cuda_built();
#else
    const bool built = kCudaBuilt;
#endif
    exports.Set("cudaBuilt", Napi::Boolean::New(env, built));
    exports.Set("gpuBenchLinked", Napi::Boolean::New(env, PS_WITH_GPU_BENCH != 0));
    exports.Set("gpuDevices", Napi::Function::New(env, GpuDevices, "gpuDevices"));
    exports.Set("gpuRun", Napi::Function::New(env, GpuRun, "gpuRun"));
    exports.Set("gpuRunMulti", Napi::Function::New(env, GpuRunMulti, "gpuRunMulti"));
}

} // namespace ps::addon
