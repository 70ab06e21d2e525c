// Helpers of the CUDA build shared by gpu_bench.cu and graph_bench.cu (defined in gpu_bench.cu).
#ifndef PCIE_SCOPE_CUDA_GPU_INTERNAL_H
#define PCIE_SCOPE_CUDA_GPU_INTERNAL_H

#include <cuda_runtime.h>

#include <vector>

#include "gpu_bench.h"

namespace ps::gpu::detail {

// CudaError with "WHAT failed: <message> (<name>)".
Status cuda_fail(cudaError_t e, const char *what, char *err, size_t errlen);
// Ok with *n > 0, or NoDevice with one sentence saying why.
Status device_count(int *n, char *err, size_t errlen);
Status describe(int dev, DeviceInfo *d, char *err, size_t errlen);
// The start of every run: device `dev` exists, is made current and described into *d.
Status select_device(int dev, DeviceInfo *d, char *err, size_t errlen);
Timing stats(std::vector<float> v);

} // namespace ps::gpu::detail

#endif
