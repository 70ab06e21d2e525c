#include "predict.h"

#include "bandwidth.h"

#include <stdio.h>

#include <type_traits>
#include <utility>

#include "traffic.h"

namespace ps::addon {

namespace {

// native/model gains PatternSpec::element_bytes with the lane-width work (spec elementBytes); a
// model without it only has 4-B lanes. Detected, not assumed, so this file builds with either.
template <typename S, typename = void> struct HasElementBytes : std::false_type {};
template <typename S>
struct HasElementBytes<S, std::void_t<decltype(std::declval<S &>().element_bytes)>>
    : std::true_type {};

template <typename S> void set_element_bytes(S &spec, uint32_t element_bytes)
{
    if constexpr (HasElementBytes<S>::value)
        spec.element_bytes = element_bytes;
    else
        (void)spec, (void)element_bytes;
}

} // namespace

bool model_has_element_bytes() { return HasElementBytes<PatternSpec>::value; }

bool check_request(const PredictRequest &req, char *err, size_t errlen)
{
    const uint32_t e = req.element_bytes;
    if (e != 4 && e != 8 && e != 16) {
        snprintf(err, errlen, "elementBytes must be 4, 8 or 16, not %u.", e);
        return false;
    }
    if (e != 4 && !model_has_element_bytes()) {
        snprintf(err, errlen,
                 "this build's traffic model only has 4-B lanes, so elementBytes %u cannot be "
                 "predicted.",
                 e);
        return false;
    }
    if (req.bytes < kWorkloadBytesMin || req.bytes > kWorkloadBytesMax
        || req.bytes % kWorkloadBytesMultiple != 0 || req.bytes % e != 0) {
        snprintf(err, errlen, "bytes must be %s and a multiple of elementBytes %u, not %llu.",
                 kWorkloadBytesRule, e, (unsigned long long)req.bytes);
        return false;
    }
    if (req.offset > kWorkloadOffsetMax || req.offset % kWorkloadOffsetMultiple != 0
        || req.offset % e != 0) {
        snprintf(err, errlen, "offset must be %s and a multiple of elementBytes %u, not %u.",
                 kWorkloadOffsetRule, e, req.offset);
        return false;
    }
    const uint64_t c = req.chunk_bytes ? req.chunk_bytes : kChunkBytesDefault;
    if (c < kChunkBytesMin || c > kChunkBytesMax || c % kChunkBytesMultiple != 0 || c % e != 0) {
        snprintf(err, errlen, "chunkBytes must be %s and a multiple of elementBytes %u, not %llu.",
                 kChunkBytesRule, e, (unsigned long long)c);
        return false;
    }
    return true;
}

bool predict(const PredictRequest &req, const volatile bool *cancel, Prediction *out)
{
    TrafficConfig cfg;
    cfg.spec = make_pattern_spec(req.pattern, req.bytes, req.offset, kElementBytesDefault,
                                 kDefaultGridWarps,
                                 req.chunk_bytes ? req.chunk_bytes : kChunkBytesDefault);
    set_element_bytes(cfg.spec, req.element_bytes);
    cfg.l1 = req.bypass_l1 ? L1Mode::Off : L1Mode::Ideal;
    cfg.l1_model = req.l1_model;
    TrafficGenerator gen(cfg);
    Mrd mrd;
    uint64_t n = 0;
    ReadStream stream;
    while (gen.next(&mrd)) {
        stream.add(mrd.len);
        // polled every 64 Ki MRds: cheap, and a 1-GiB strided run stops within milliseconds
        if (cancel && (++n & 0xFFFF) == 0 && *cancel)
            return false;
    }
    const TrafficCounts &c = gen.counts();
    const HostModel host = host_model_of(kGpus[kGpuDefault]);
    const double seconds = stream_seconds(stream, host) + host.launch_us * 1e-6;
    out->predicted_gbps = seconds > 0 ? req.bytes / seconds / 1e9 : 0;
    out->instructions = c.instructions;
    out->mrds = c.mrds;
    out->mrd_bytes = c.mrd_bytes;
    for (int k = 0; k < kSizeClassCount; ++k)
        out->by_size[k] = c.by_size[k];
    return true;
}

} // namespace ps::addon
