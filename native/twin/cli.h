// pcie-scope twin: command line, stdin commands and JSON events (docs/contracts.md §3).
// No Verilator dependency: unit-testable on its own.
#ifndef PCIE_SCOPE_TWIN_CLI_H
#define PCIE_SCOPE_TWIN_CLI_H

#include <stdint.h>

#include <string>

#include "graph.h"
#include "graph_kernels.h"
#include "patterns.h"
#include "twin.h"

#include "generated/twin_options.h"

namespace ps {

struct Options {
    uint32_t latency_cycles = kTwinDefaultLatencyCycles; // BAR_LATENCY written at start
    uint32_t latency_ns = 0; // --latency-ns: BAR_LATENCY from nanoseconds at the probe clock
    uint32_t jitter_ns = 0; // --latency-dist uniform:LO:HI: BAR_JITTER = HI - LO (LO is latency_ns)
    uint32_t cpl_split = kTwinDefaultCplSplit; // CPL_SPLIT written at start: 0, 64 or 128
    uint32_t tags = kTwinDefaultTags;          // outstanding-request budget (8-bit tags)
    LinkConfig link;                           // PCIe link between GPU and FPGA (default gen3x16)
    bool switch_mode = true; // --mode switch (default): pcie_scope_switch_top between GPU and
                             // host; --mode endpoint: the BAR top
    uint32_t segments = kTwinDefaultSegments; // --segments: TLP segments per beat (1, 2 or 4)
    bool batch = false;                       // --run given
    bool model_only = false; // --model-only: generator alone, the benchmark baseline
    Pattern pattern = Pattern::MergedAligned;
    uint64_t bytes = 0;
    uint32_t offset = 0;
    bool offset_given = false;
    uint32_t element_bytes = kElementBytesDefault; // --element-bytes
    L1Load l1 = kL1LoadDefault;                    // --l1 ideal|bypass
    uint64_t chunk_bytes = kChunkBytesDefault;     // --chunk-bytes (merged-chunked)
    // --run GRAPH_KERNEL (bfs-*, sssp-*, cc-*, pagerank-*) --graph G [--id-bytes B] [--source V]
    bool graph_run = false;
    GraphKernel kernel = GraphKernel::BfsAligned;
    std::string graph;
    uint32_t id_bytes = kGraphIdBytesDefault;
    bool source_given = false;
    uint64_t source = 0;
    bool help = false;
};

// Parses argv; on error returns false with a message.
bool parse_options(int argc, char **argv, Options *out, std::string *err);
const char *usage();

struct RunCommand {
    uint64_t id;
    Pattern pattern;
    uint64_t bytes;
    uint32_t offset;
    uint32_t element_bytes = kElementBytesDefault; // lane load width (spec elementBytes)
    L1Load l1 = kL1LoadDefault;                    // ideal (default loads) or bypass (ld.cg)
    uint64_t chunk_bytes = kChunkBytesDefault;     // merged-chunked's chunk (8th field)
    // `run ID KERNEL GRAPH [ID_BYTES [SOURCE|- [L1]]]`: a graph kernel (bytes, offset unused)
    bool graph_run = false;
    GraphKernel kernel = GraphKernel::BfsAligned;
    std::string graph{};
    uint32_t id_bytes = kGraphIdBytesDefault;
    bool source_given = false;
    uint64_t source = 0;
};

enum class CommandKind {
    Run,
    Quit,
    Empty,
    Error
};

// One stdin line (without the newline). Run: fills *run; Error: fills *err.
CommandKind parse_command(const std::string &line, RunCommand *run, std::string *err);

// Workload parameter checks shared by --run and `run` (patterns.h workload_valid).
bool check_workload(uint64_t bytes, uint32_t offset, uint32_t element_bytes, std::string *err,
                    uint64_t chunk_bytes = kChunkBytesDefault);

std::string link_json(const LinkConfig &link);
// tags: the GPU model's outstanding-request budget (--tags)
// extra_fields: more members, each with its leading comma (switch mode's topology)
std::string ready_event(const std::string &pty, uint32_t clock_hz, const LinkConfig &link,
                        uint32_t tags, const std::string &extra_fields = "");
std::string error_event(const std::string &message);
std::string done_event(const RunCommand &run, const WorkloadResult &r, double wall_seconds);
// A graph kernel's done line: the workload members of done_event with the graph's in place of
// bytes/offset/elementBytes (pattern = the kernel's name).
std::string graph_done_event(uint64_t id, GraphKernel kernel, const std::string &graph,
                             const Csr &g, uint64_t source, uint32_t launches,
                             const WorkloadResult &r, double wall_seconds);

} // namespace ps

#endif
