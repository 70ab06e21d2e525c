// NVML's PCIe throughput (nvmlDeviceGetPcieThroughput, KB/s over a 20-ms window the driver
// picks), loaded at run time: the fallback where PM sampling is refused. One sample per call
// pair, so never finer than about 20 ms; the bytes are the rate times the sample's host time.
#include <dlfcn.h>
#include <time.h>

#include "source.h"

namespace ps::sampler {

namespace {

// nvml.h, by its documented C signatures; 0 = NVML_SUCCESS
using NvmlDevice = void *;
using InitFn = int (*)();
using ShutdownFn = int (*)();
using ByIndexFn = int (*)(unsigned int, NvmlDevice *);
using NameFn = int (*)(NvmlDevice, char *, unsigned int);
using ThroughputFn = int (*)(NvmlDevice, int, unsigned int *);
constexpr int kTxBytes = 0;     // NVML_PCIE_UTIL_TX_BYTES: out of the GPU
constexpr int kRxBytes = 1;     // NVML_PCIE_UTIL_RX_BYTES: into the GPU
constexpr double kKiB = 1024.0; // NVML's "KB"
constexpr uint64_t kMinIntervalNs = 20000000;

uint64_t now_ns()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

class NvmlSource final : public Source {
public:
    ~NvmlSource() override
    {
        if (shutdown_)
            shutdown_();
        if (lib_)
            dlclose(lib_);
    }

    bool open(const Config &cfg, std::string *why)
    {
        lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib_) {
            *why = "libnvidia-ml.so.1 is not installed (no NVIDIA driver)";
            return false;
        }
        auto init = reinterpret_cast<InitFn>(dlsym(lib_, "nvmlInit_v2"));
        auto by_index = reinterpret_cast<ByIndexFn>(dlsym(lib_, "nvmlDeviceGetHandleByIndex_v2"));
        auto name = reinterpret_cast<NameFn>(dlsym(lib_, "nvmlDeviceGetName"));
        throughput_ = reinterpret_cast<ThroughputFn>(dlsym(lib_, "nvmlDeviceGetPcieThroughput"));
        if (!init || !by_index || !throughput_) {
            *why = "this NVML has no PCIe throughput query";
            return false;
        }
        if (init() != 0) {
            *why = "nvmlInit failed (no GPU, or the driver is not loaded)";
            return false;
        }
        shutdown_ = reinterpret_cast<ShutdownFn>(dlsym(lib_, "nvmlShutdown"));
        if (by_index((unsigned)cfg.device, &dev_) != 0) {
            *why = "NVML has no device " + std::to_string(cfg.device);
            return false;
        }
        unsigned v = 0;
        if (throughput_(dev_, kRxBytes, &v) != 0) {
            *why = "nvmlDeviceGetPcieThroughput is not supported on this GPU";
            return false;
        }
        char buf[96] = "";
        if (name && name(dev_, buf, sizeof buf) == 0)
            info.chip = buf;
        info.source = "nvml";
        info.metrics = {{"nvml:rx", Role::ReadBytes}, {"nvml:tx", Role::WriteBytes}};
        info.interval_ns = cfg.interval_ns < kMinIntervalNs ? kMinIntervalNs : cfg.interval_ns;
        origin_ = now_ns();
        last_ = origin_;
        info.origin_ns = std::to_string(origin_);
        return true;
    }

    bool poll(std::vector<double> *flat, uint64_t *, bool *, std::string *err) override
    {
        // one sample per elapsed interval at most: each query blocks for its own window
        while (!stopped_ && now_ns() - last_ >= info.interval_ns) {
            unsigned rx = 0, tx = 0;
            if (throughput_(dev_, kRxBytes, &rx) != 0 || throughput_(dev_, kTxBytes, &tx) != 0) {
                *err = "nvmlDeviceGetPcieThroughput failed while sampling.";
                return false;
            }
            const uint64_t end = now_ns();
            const double dt = (double)(end - last_) * 1e-9;
            flat->push_back((double)(last_ - origin_));
            flat->push_back((double)(end - origin_));
            flat->push_back(rx * kKiB * dt);
            flat->push_back(tx * kKiB * dt);
            last_ = end;
        }
        return true;
    }

    void stop() override { stopped_ = true; }

private:
    void *lib_ = nullptr;
    ShutdownFn shutdown_ = nullptr;
    ThroughputFn throughput_ = nullptr;
    NvmlDevice dev_ = nullptr;
    uint64_t origin_ = 0, last_ = 0;
    bool stopped_ = false;
};

} // namespace

std::unique_ptr<Source> open_nvml(const Config &cfg, std::string *why)
{
    auto s = std::make_unique<NvmlSource>();
    if (!s->open(cfg, why))
        return nullptr;
    return s;
}

} // namespace ps::sampler
