// pcie-scope native addon: module entry, the traffic model's predict()/predictSync().
// docs/contracts.md ("Native addon") is the JS contract.
#include <napi.h>

#include <cmath>
#include <string>

#include "js.h"
#include "link.h"
#include "predict.h"

namespace ps::addon {

namespace {

constexpr const char *kInvalid = "PS_WORKLOAD_INVALID";

uint64_t read_uint(const Napi::Object &o, const char *key, const char *code, bool required,
                   uint64_t fallback)
{
    const Napi::Value v = o.Get(key);
    if (v.IsUndefined() && !required)
        return fallback;
    if (!v.IsNumber())
        throw coded_error(o.Env(), code, std::string(key) + " must be a number.");
    const double d = v.As<Napi::Number>().DoubleValue();
    if (!(d >= 0) || d != std::floor(d) || d > 9007199254740991.0)
        throw coded_error(o.Env(), code, std::string(key) + " must be a non-negative integer.");
    return (uint64_t)d;
}

Napi::Object prediction_to_js(Napi::Env env, const Prediction &p)
{
    Napi::Object out = Napi::Object::New(env);
    out.Set("count", Napi::Number::New(env, (double)p.mrds));
    out.Set("bytes", Napi::Number::New(env, (double)p.mrd_bytes));
    out.Set("instructions", Napi::Number::New(env, (double)p.instructions));
    out.Set("predictedGbps", Napi::Number::New(env, p.predicted_gbps));
    Napi::Object by = Napi::Object::New(env);
    for (int k = 0; k < kSizeClassCount; ++k)
        by.Set(kSizeClassKeys[k], Napi::Number::New(env, (double)p.by_size[k]));
    out.Set("bySize", by);
    return out;
}

PredictRequest checked_request(const Napi::CallbackInfo &info)
{
    PredictRequest req = read_workload(info[0], kInvalid);
    char err[256];
    if (!check_request(req, err, sizeof err))
        throw coded_error(info.Env(), kInvalid, err);
    return req;
}

Napi::Value PredictSync(const Napi::CallbackInfo &info)
{
    const PredictRequest req = checked_request(info);
    Prediction p;
    predict(req, nullptr, &p);
    return prediction_to_js(info.Env(), p);
}

// predict() on the libuv pool: a 1-GiB workload takes seconds and must not block the loop.
class PredictWorker : public Napi::AsyncWorker {
public:
    PredictWorker(Napi::Env env, const PredictRequest &req)
        : Napi::AsyncWorker(env, "pcie-scope:predict"), req_(req),
          deferred_(Napi::Promise::Deferred::New(env))
    {}
    Napi::Promise promise() const { return deferred_.Promise(); }

protected:
    void Execute() override { predict(req_, nullptr, &result_); }
    void OnOK() override { deferred_.Resolve(prediction_to_js(Env(), result_)); }
    void OnError(const Napi::Error &e) override { deferred_.Reject(e.Value()); }

private:
    PredictRequest req_;
    Prediction result_{};
    Napi::Promise::Deferred deferred_;
};

Napi::Value Predict(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    PredictRequest req;
    try {
        req = checked_request(info);
    } catch (const Napi::Error &e) {
        // a Promise-returning function reports bad input by rejecting, not by throwing
        Napi::Promise::Deferred d = Napi::Promise::Deferred::New(env);
        d.Reject(e.Value());
        return d.Promise();
    }
    auto *w = new PredictWorker(env, req);
    Napi::Promise p = w->promise();
    w->Queue();
    return p;
}

// TLP bytes per second one direction of genGxL carries (native/model/link.h), null for a link
// the model does not know: the TS side turns it into the 128-B payload ceiling.
Napi::Value LinkTlpBytesPerSecond(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    if (info.Length() < 2 || !info[0].IsNumber() || !info[1].IsNumber())
        throw Napi::TypeError::New(env, "linkTlpBytesPerSecond(gen, lanes) takes two numbers.");
    const double gen = info[0].As<Napi::Number>().DoubleValue();
    const double lanes = info[1].As<Napi::Number>().DoubleValue();
    if (!(gen >= 1 && gen <= 9) || !(lanes >= 1 && lanes <= 64))
        return env.Null();
    LinkConfig c;
    c.gen = (uint32_t)gen;
    c.lanes = (uint32_t)lanes;
    const double bps = link_tlp_bytes_per_second(c);
    return bps > 0 ? Napi::Value(Napi::Number::New(env, bps)) : env.Null();
}

} // namespace

PredictRequest read_workload(const Napi::Value &v, const char *code)
{
    Napi::Env env = v.Env();
    if (!v.IsObject())
        throw coded_error(env, code, "the workload must be an object {pattern, bytes, offset}.");
    const Napi::Object o = v.As<Napi::Object>();
    PredictRequest req{};
    const Napi::Value pattern = o.Get("pattern");
    if (!pattern.IsString()
        || !pattern_from_name(pattern.As<Napi::String>().Utf8Value().c_str(), &req.pattern))
        throw coded_error(env, code,
                          std::string("pattern must be one of ") + kPatternNameList + ".");
    req.bytes = read_uint(o, "bytes", code, true, 0);
    const uint64_t offset =
        read_uint(o, "offset", code, false, pattern_default_offset(req.pattern));
    if (offset > 0xFFFFFFFFull)
        throw coded_error(env, code, "offset is too large.");
    req.offset = (uint32_t)offset;
    const uint64_t e = read_uint(o, "elementBytes", code, false, 4);
    req.element_bytes = e > 0xFFFFFFFFull ? 0 : (uint32_t)e;
    const Napi::Value l1 = o.Get("l1");
    if (l1.IsUndefined()) {
        req.bypass_l1 = false;
    } else {
        const std::string s = l1.IsString() ? l1.As<Napi::String>().Utf8Value() : "";
        if (s != "ideal" && s != "bypass")
            throw coded_error(env, code, "l1 must be \"ideal\" or \"bypass\".");
        req.bypass_l1 = s == "bypass";
    }
    req.l1_model = read_l1_model(o, code);
    req.chunk_bytes = read_uint(o, "chunkBytes", code, false, 0);
    return req;
}

void init_predict(Napi::Env env, Napi::Object exports)
{
    exports.Set("predictSync", Napi::Function::New(env, PredictSync, "predictSync"));
    exports.Set("predict", Napi::Function::New(env, Predict, "predict"));
    exports.Set("linkTlpBytesPerSecond",
                Napi::Function::New(env, LinkTlpBytesPerSecond, "linkTlpBytesPerSecond"));
    Napi::Object model = Napi::Object::New(env);
    Napi::Array widths = Napi::Array::New(env);
    widths.Set(0u, Napi::Number::New(env, 4));
    if (model_has_element_bytes()) {
        widths.Set(1u, Napi::Number::New(env, 8));
        widths.Set(2u, Napi::Number::New(env, 16));
    }
    model.Set("elementBytes", widths);
    exports.Set("model", model);
}

} // namespace ps::addon

static Napi::Object Init(Napi::Env env, Napi::Object exports)
{
    ps::addon::init_predict(env, exports);
    ps::addon::init_gpu(env, exports);
    ps::addon::init_graph(env, exports);
    ps::addon::init_gpu_counters(env, exports);
    return exports;
}

NODE_API_MODULE(pcie_scope_native, Init)
