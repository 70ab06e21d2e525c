#include "nvml_link.h"

#include <dlfcn.h>

namespace ps::gpu {

namespace {
// The few NVML entry points used, by their documented C signatures (nvml.h); return 0 = success.
using NvmlDevice = void *;
using InitFn = int (*)();
using ShutdownFn = int (*)();
using HandleFn = int (*)(const char *, NvmlDevice *);
using UintFn = int (*)(NvmlDevice, unsigned int *);
using DriverFn = int (*)(char *, unsigned int);

template <class F> F sym(void *lib, const char *name)
{
    return reinterpret_cast<F>(dlsym(lib, name));
}

int value(UintFn f, NvmlDevice d)
{
    unsigned int v = 0;
    return f && f(d, &v) == 0 ? (int)v : -1;
}
} // namespace

PcieLink query_pcie_link(const char *pci_bus_id)
{
    PcieLink link;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return link;
    auto init = sym<InitFn>(lib, "nvmlInit_v2");
    auto shutdown = sym<ShutdownFn>(lib, "nvmlShutdown");
    auto handle = sym<HandleFn>(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    NvmlDevice dev = nullptr;
    if (init && shutdown && handle && init() == 0) {
        auto driver = sym<DriverFn>(lib, "nvmlSystemGetDriverVersion");
        if (driver && driver(link.driver, sizeof link.driver) != 0)
            link.driver[0] = 0;
        if (handle(pci_bus_id, &dev) == 0) {
            link.max_gen = value(sym<UintFn>(lib, "nvmlDeviceGetMaxPcieLinkGeneration"), dev);
            link.max_width = value(sym<UintFn>(lib, "nvmlDeviceGetMaxPcieLinkWidth"), dev);
            link.cur_gen = value(sym<UintFn>(lib, "nvmlDeviceGetCurrPcieLinkGeneration"), dev);
            link.cur_width = value(sym<UintFn>(lib, "nvmlDeviceGetCurrPcieLinkWidth"), dev);
        }
        shutdown();
    }
    dlclose(lib);
    return link;
}

} // namespace ps::gpu
