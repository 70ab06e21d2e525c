// Prints the runner's JSON objects for fixed, made-up results (one per line), so the contract of
// docs/contracts.md can be checked by a JSON parser without a GPU (cuda.int.test.ts).
#include <stdio.h>
#include <string.h>

#include "runner.h"

using namespace ps::gpu;

int main()
{
    RunConfig cfg{ps::Pattern::MergedMisaligned, 1u << 20, 32, 16, true, 2, 5, 0, false};
    RunResult r{};
    snprintf(r.device.name, sizeof r.device.name, "Test \"GPU\"");
    snprintf(r.device.pci_bus_id, sizeof r.device.pci_bus_id, "0000:65:00.0");
    r.device.pcie_gen = 5;
    r.device.pcie_width = 16;
    r.device.pcie_gen_current = 5;
    r.device.pcie_width_current = 16;
    r.device.sm_count = 132;
    snprintf(r.device.nvidia_driver, sizeof r.device.nvidia_driver, "580.65.06");
    r.device.cc_major = 9;
    r.device.cc_minor = 0;
    r.device.driver_version = 13000;
    r.device.runtime_version = 13000;
    r.kernel = {0.0215, 0.0210, 0.0230};
    r.memcpy_h2d = {0.0190, 0.0189, 0.0200};
    r.payload_bytes = cfg.bytes;
    r.kernel_gbps = cfg.bytes / (r.kernel.median_ms * 1e-3) / 1e9;
    r.memcpy_gbps = cfg.bytes / (r.memcpy_h2d.median_ms * 1e-3) / 1e9;
    r.ratio_to_memcpy = r.kernel_gbps / r.memcpy_gbps;
    r.checksum_gpu = r.checksum_cpu = 0xfedcba9876543210ull;
    r.checksum_ok = true;
    r.threads = 65536;
    r.blocks = 256;
    r.block_threads = kBlockThreads;
    r.grid_warps = ps::kDefaultGridWarps;
    puts(result_json(cfg, r, Status::Ok, "").c_str());
    r.checksum_gpu = 1;
    r.checksum_ok = false;
    r.device.pcie_gen = r.device.pcie_width = -1; // NVML missing: nulls, no ceiling
    r.device.nvidia_driver[0] = 0;
    puts(result_json(cfg, r, Status::ChecksumMismatch, "the kernel's checksum differs").c_str());
    puts(result_json(cfg, r, Status::CudaError, "kernel failed: \"unspecified launch failure\"")
             .c_str());
    puts(error_json(Status::NoDevice, "no CUDA device is usable on this machine: none").c_str());
    return 0;
}
