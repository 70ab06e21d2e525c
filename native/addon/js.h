// Small helpers shared by the addon's bindings: errors with a stable `code`, and reading the
// workload fields of a request object the same way for predict() and gpuRun().
#ifndef PCIE_SCOPE_ADDON_JS_H
#define PCIE_SCOPE_ADDON_JS_H

#include <napi.h>

#include <string>

#include "predict.h"

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

} // namespace ps::addon

#endif
