// The traffic model's prediction for one workload, without Node: the MRd count, bytes and size
// mix native/model's TrafficGenerator issues (the same numbers the twin's done line reports).
#ifndef PCIE_SCOPE_ADDON_PREDICT_H
#define PCIE_SCOPE_ADDON_PREDICT_H

#include <stddef.h>
#include <stdint.h>

#include "coalescer.h"
#include "patterns.h"
#include "sm_schedule.h"

namespace ps::addon {

struct PredictRequest {
    Pattern pattern;
    uint64_t bytes;
    uint32_t offset;
    uint32_t element_bytes; // 4, 8 or 16 where the model has lane widths; 4 otherwise
    bool bypass_l1;         // L1 "bypass": every instruction fetches (L1Mode::Off)
    L1Model l1_model;       // ideal L1, or the scheduled LRU model
    uint64_t chunk_bytes;   // merged-chunked's chunk (0: the spec default)
};

struct Prediction {
    double predicted_gbps; // the bandwidth model's GB/s on the spec's GPU host (bandwidth.h)
    uint64_t instructions;
    uint64_t mrds;
    uint64_t mrd_bytes;
    uint64_t by_size[kSizeClassCount];
};

// True when the model in this build knows lane widths other than 4 B (native/model with
// PatternSpec::element_bytes).
bool model_has_element_bytes();

// Checks the workload against the spec's limits (generated/workloads.h); on failure writes one
// sentence into err and returns false.
bool check_request(const PredictRequest &req, char *err, size_t errlen);

// Runs the generator to the end (no Node calls: safe on a worker thread). `cancel` may be null;
// when it turns true the run stops early and returns false.
bool predict(const PredictRequest &req, const volatile bool *cancel, Prediction *out);

} // namespace ps::addon

#endif
