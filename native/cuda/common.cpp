// Parts of the GPU benchmark library that do not need CUDA: status codes and argument checks.
#include <stdio.h>

#include "gpu_bench.h"

namespace ps::gpu {

const char *status_code(Status s)
{
    switch (s) {
    case Status::Ok:
        return "PS_GPU_OK";
    case Status::NotBuilt:
        return "PS_GPU_NOT_BUILT";
    case Status::NoDevice:
        return "PS_GPU_NO_DEVICE";
    case Status::BadArgument:
        return "PS_GPU_BAD_ARGUMENT";
    case Status::Cancelled:
        return "PS_GPU_CANCELLED";
    case Status::CudaError:
        return "PS_GPU_CUDA";
    case Status::ChecksumMismatch:
        return "PS_GPU_CHECKSUM";
    }
    return "PS_GPU_CUDA";
}

bool check_config(const RunConfig &cfg, char *err, size_t errlen)
{
    if ((unsigned)cfg.pattern >= kPatternCount) {
        snprintf(err, errlen, "unknown pattern %u (%s)", (unsigned)cfg.pattern, kPatternNameList);
        return false;
    }
    if (!workload_valid(cfg.bytes, cfg.offset, cfg.element_bytes, err, errlen))
        return false;
    if (cfg.repeats < 1 || cfg.repeats > 1000) {
        snprintf(err, errlen, "repeats must be 1..1000");
        return false;
    }
    if (cfg.warmup > 1000) {
        snprintf(err, errlen, "warmup must be 0..1000");
        return false;
    }
    if (cfg.device < 0) {
        snprintf(err, errlen, "device must be a CUDA device ordinal (0, 1, ...)");
        return false;
    }
    return true;
}

} // namespace ps::gpu
