// Small helpers shared by the addon's bindings: errors with a stable `code`, and reading the
// workload fields of a request object the same way for predict() and gpuRun().
#ifndef PCIE_SCOPE_ADDON_JS_H
#define PCIE_SCOPE_ADDON_JS_H

#include <napi.h>

#include <memory>
#include <string>

#include "predict.h"

#if PS_WITH_GPU_BENCH
#include "native/cuda/gpu_bench.h"
#endif

namespace ps::addon {

// An Error whose `code` scripts match on; message: one sentence.
inline Napi::Error coded_error(Napi::Env env, const char *code, const std::string &message)
{
    Napi::Error e = Napi::Error::New(env, message);
    e.Set("code", Napi::String::New(env, code));
    return e;
}

// A workload's optional `l1Model` ("ideal", the default, or "lru": the scheduled model of
// native/model/sm_schedule.h); a coded error for anything else.
inline L1Model read_l1_model(const Napi::Object &o, const char *code)
{
    const Napi::Value v = o.Get("l1Model");
    L1Model m = L1Model::Ideal;
    if (!v.IsUndefined()
        && !(v.IsString() && l1_model_from_name(v.As<Napi::String>().Utf8Value().c_str(), &m)))
        throw coded_error(o.Env(), code,
                          std::string("l1Model must be one of ") + kL1ModelNameList + ".");
    return m;
}

// A promise already rejected with `e`: the argument errors of the functions that return promises.
inline Napi::Promise rejected(Napi::Env env, const Napi::Error &e)
{
    Napi::Promise::Deferred d = Napi::Promise::Deferred::New(env);
    d.Reject(e.Value());
    return d.Promise();
}

constexpr const char *kGpuNotBuilt = "PS_GPU_NOT_BUILT";
constexpr const char *kGpuBadArgument = "PS_GPU_BAD_ARGUMENT";
constexpr const char *kGpuNotBuiltWhy =
    "this addon was built without the GPU library (native/cuda), so it cannot run GPU workloads.";

// Sets out.cancel to a JS function that raises the returned flag, which the run polls; the
// closure keeps the flag alive however long the script keeps cancel().
inline std::shared_ptr<volatile bool> set_cancel(Napi::Env env, Napi::Object out)
{
    auto flag = std::make_shared<volatile bool>(false);
    out.Set("cancel",
            Napi::Function::New(
                env, [flag](const Napi::CallbackInfo &) { *flag = true; }, "cancel"));
    return flag;
}

// Reads {pattern, bytes, offset, elementBytes?, l1?}; throws a coded Error (`code`) when a
// field is missing or has the wrong type or value.
PredictRequest read_workload(const Napi::Value &v, const char *code);

void init_predict(Napi::Env env, Napi::Object exports);
void init_gpu(Napi::Env env, Napi::Object exports);
void init_graph(Napi::Env env, Napi::Object exports);
void init_gpu_counters(Napi::Env env, Napi::Object exports);

#if PS_WITH_GPU_BENCH
// The GPU library's records as JS objects, shared by gpu.cpp and graph.cpp.
Napi::Object device_to_js(Napi::Env env, const gpu::DeviceInfo &d);
Napi::Object timing_to_js(Napi::Env env, const gpu::Timing &t);
// An optional non-negative integer field up to `max`; PS_GPU_BAD_ARGUMENT otherwise.
uint32_t read_count(const Napi::Object &o, const char *key, uint32_t fallback, uint32_t max);
#endif

} // namespace ps::addon

#endif
