// The GPU benchmark library without CUDA (no nvcc at build time, or -DPS_ENABLE_CUDA=OFF): the
// same API, every GPU call answers NotBuilt with one sentence, argument checks still apply.
#include <stdio.h>

#include "gpu_bench.h"
#include "graph_bench.h"

namespace ps::gpu {

namespace {
const char *kWhy = "this build of pcie-scope has no CUDA support: nvcc was not found when "
                   "native/cuda was built (or PS_ENABLE_CUDA was OFF); rebuild with the CUDA "
                   "toolkit installed (npm run build:gpu)";
}

bool cuda_built() { return false; }

void keep_host_buffer(bool) {}

Status list_devices(DeviceInfo *, int, int *count, char *err, size_t errlen)
{
    if (count)
        *count = 0;
    snprintf(err, errlen, "%s", kWhy);
    return Status::NotBuilt;
}

Status run(const RunConfig &cfg, const volatile bool *, ProgressFn, void *, RunResult *, char *err,
           size_t errlen)
{
    if (!check_config(cfg, err, errlen))
        return Status::BadArgument;
    snprintf(err, errlen, "%s", kWhy);
    return Status::NotBuilt;
}

Status run_multi(const RunConfig &cfg, const int *, int count, const volatile bool *,
                 MultiRunResult *, char *err, size_t errlen)
{
    if (!check_config(cfg, err, errlen))
        return Status::BadArgument;
    if (count < 1 || count > kMaxDevices) {
        snprintf(err, errlen, "1..%d devices can run together", kMaxDevices);
        return Status::BadArgument;
    }
    snprintf(err, errlen, "%s", kWhy);
    return Status::NotBuilt;
}

Status run_graph(const GraphRunConfig &cfg, const volatile bool *, ProgressFn, void *,
                 GraphRunResult *, char *err, size_t errlen)
{
    if (!check_graph_config(cfg, err, errlen))
        return Status::BadArgument;
    snprintf(err, errlen, "%s", kWhy);
    return Status::NotBuilt;
}

} // namespace ps::gpu
