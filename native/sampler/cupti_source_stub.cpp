// PM sampling where the build found no CUPTI headers (cupti_pmsampling.h, CUDA 12.6+): the
// sampler falls back to NVML, or answers PS_GPU_COUNTERS_UNAVAILABLE with this reason.
#include "source.h"

namespace ps::sampler {

bool pm_sampling_built() { return false; }

std::unique_ptr<Source> open_pm_sampling(const Config &, std::string *why,
                                         std::vector<std::string> *)
{
    *why = "this build has no PM sampling (CUPTI's cupti_pmsampling.h, CUDA 12.6 or later, was "
           "not found when it was compiled)";
    return nullptr;
}

} // namespace ps::sampler
