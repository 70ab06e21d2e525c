// PCIe link generation and width of a GPU through NVML, loaded at run time (dlopen of
// libnvidia-ml.so.1, which the NVIDIA driver installs): no build dependency, and -1 wherever the
// library or the query is missing.
#ifndef PCIE_SCOPE_CUDA_NVML_LINK_H
#define PCIE_SCOPE_CUDA_NVML_LINK_H

namespace ps::gpu {

struct PcieLink {
    int max_gen = -1, max_width = -1; // what device and system support together
    int cur_gen = -1, cur_width = -1; // as trained now (an idle GPU may downclock its link)
    char driver[32] = "";             // the NVIDIA driver's version, e.g. "580.65.06"
};

// `pci_bus_id` as cudaDeviceGetPCIBusId writes it ("0000:65:00.0").
PcieLink query_pcie_link(const char *pci_bus_id);

} // namespace ps::gpu

#endif
