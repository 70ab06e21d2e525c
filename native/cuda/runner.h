// pcie-scope-gpu, the standalone runner: command line and JSON output (docs/contracts.md, "GPU
// runner"). Kept apart from main() so the formatting is one place.
#ifndef PCIE_SCOPE_CUDA_RUNNER_H
#define PCIE_SCOPE_CUDA_RUNNER_H

#include <string>
#include <vector>

#include "gpu_bench.h"
#include "graph_bench.h"

namespace ps::gpu {

struct RunnerArgs {
    RunConfig cfg{};
    bool pattern_given = false;
    bool offset_given = false;
    bool l1_given = false;
    bool chunk_given = false;
    bool suite = false; // --suite micro
    // graph mode: --pattern GRAPH_KERNEL or --suite graph, over --graph (default kron:16)
    bool graph_kernel_given = false;
    bool graph_suite = false;
    GraphKernel kernel = GraphKernel::BfsAligned;
    std::string graph = "kron:16";
    uint32_t id_bytes = kGraphIdBytesDefault;
    bool source_given = false;
    uint64_t source = 0;
    GraphMemory memory = GraphMemory::ZeroCopy;
    bool memory_given = false;
    bool list = false; // --list-devices
    bool help = false;
    uint64_t gpu_memory_limit = 0; // --gpu-memory-limit: device memory left free (graph mode)
    // --devices all|D,D,...: the micro pattern on every listed GPU at once (run_multi)
    bool devices_given = false;
    std::string devices;
    std::string batch; // --batch FILE: one runner command line per line, run in one process
};

// The device ordinals of a --devices value ("all": 0..present-1); false with a sentence in *err.
bool parse_devices(const std::string &text, int present, std::vector<int> *out, std::string *err);
// One --batch line split at blanks (no quoting: runner arguments have none).
std::vector<std::string> split_words(const std::string &line);
// The JSON line of a run_multi.
std::string multi_result_json(const RunConfig &cfg, const MultiRunResult &r, Status status,
                              const std::string &message);

// Exit codes of the runner.
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1; // a CUDA error, a checksum mismatch, a cancelled run
constexpr int kExitUsage = 2;   // bad command line or argument
constexpr int kExitNoGpu = 3;   // built without CUDA, or no usable device

constexpr uint64_t kDefaultBytes = 256ull << 20;

bool parse_args(int argc, char **argv, RunnerArgs *out, std::string *err);
const char *runner_usage();
int exit_code_of(Status s);

std::string error_json(Status s, const std::string &message);
std::string device_json(const DeviceInfo &d);
// One run's object; `status` other than Ok adds an "error" member (a checksum mismatch still
// reports its measurements).
std::string result_json(const RunConfig &cfg, const RunResult &r, Status status,
                        const std::string &message);
// One graph run's object (graph_bench.h); `spec` is the --graph text.
std::string graph_result_json(const GraphRunConfig &cfg, const std::string &spec,
                              const GraphRunResult &r, Status status, const std::string &message);
// A graph that could not be loaded: {"error":{"code":"PS_GRAPH_…","message":…}}.
std::string graph_error_json(const char *code, const std::string &message);
// The project's 128-B read ceiling in GB/s for a PCIe link (native/model/link.h; 128 B of payload
// per 148 wire bytes of completion); negative when gen/width are unknown.
double ceiling128_gbps(int gen, int width);

} // namespace ps::gpu

#endif
