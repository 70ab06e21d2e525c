// Small helpers shared by the addon's bindings: errors with a stable `code`, and reading the
// workload fields of a request object the same way for predict() and gpuRun().
#ifndef PCIE_SCOPE_ADDON_JS_H
#define PCIE_SCOPE_ADDON_JS_H

#include <napi.h>

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

// Reads {pattern, bytes, offset, elementBytes?, l1?}; throws a coded Error (`code`) when a
// field is missing or has the wrong type or value.
PredictRequest read_workload(const Napi::Value &v, const char *code);

void init_predict(Napi::Env env, Napi::Object exports);
void init_gpu(Napi::Env env, Napi::Object exports);
void init_graph(Napi::Env env, Napi::Object exports);

#if PS_WITH_GPU_BENCH
// The GPU library's records as JS objects, shared by gpu.cpp and graph.cpp.
Napi::Object device_to_js(Napi::Env env, const gpu::DeviceInfo &d);
Napi::Object timing_to_js(Napi::Env env, const gpu::Timing &t);
// An optional non-negative integer field up to `max`; PS_GPU_BAD_ARGUMENT otherwise.
uint32_t read_count(const Napi::Object &o, const char *key, uint32_t fallback, uint32_t max);
#endif

} // namespace ps::addon

#endif
