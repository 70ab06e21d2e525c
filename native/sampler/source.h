// One counter source of the sampler (sampler.h): PM sampling (cupti_source.cpp) or NVML
// (nvml_source.cpp). Internal to native/sampler.
#ifndef PCIE_SCOPE_SAMPLER_SOURCE_H
#define PCIE_SCOPE_SAMPLER_SOURCE_H

#include <memory>
#include <string>
#include <vector>

#include "sampler.h"

namespace ps::sampler {

class Source {
public:
    virtual ~Source() = default;
    // Appends completed samples (start, end in the source's ns, then the values) to *flat;
    // adds to *lost what it knows is missing; false on a failure that ends the sampling.
    virtual bool poll(std::vector<double> *flat, uint64_t *lost, bool *overflow,
                      std::string *err) = 0;
    // Stops the counters; the last samples come from one more poll() afterwards.
    virtual void stop() = 0;
    SourceInfo info;
};

// nullptr with the reason in *why when the source cannot run here; PM sampling also lists in
// *offered the chip's PCIe and sysmem metrics when it got that far.
std::unique_ptr<Source> open_pm_sampling(const Config &cfg, std::string *why,
                                         std::vector<std::string> *offered);
std::unique_ptr<Source> open_nvml(const Config &cfg, std::string *why);

} // namespace ps::sampler

#endif
