// pcie-scope graphs: CSR graphs for the EMOGI-style traversal kernels (graph_kernels.h), from
// seeded generators or from a user's file, with an on-disk cache for the generated ones.
//
// Graph specs (the `--graph` argument of every runner):
//   kron:S[:SEED]    Graph500 Kronecker: 2^S vertices, 16 x 2^S edge tuples, initiator
//                    A = 0.57, B = 0.19, C = 0.19 (D = 0.05), then the vertex labels permuted
//   urand:S[:SEED]   uniform random (GAP's `-u`): 2^S vertices, 16 x 2^S tuples, both ends uniform
//   file:PATH        Matrix Market (`.mtx`: coordinate; pattern, real or integer; general or
//                    symmetric; 1-based) or a plain edge list (`u v` per line, 0-based, `#` and
//                    `%` start comment lines; a third column, a weight, is ignored)
// Every graph is symmetrised, self-loops dropped, neighbour lists sorted and de-duplicated (GAP's
// builder), so one CSR serves BFS, SSSP, CC and PageRank alike.
//
// The generators use their own PRNG (xoshiro256** seeded by splitmix64) and no <random>
// distribution, so a recipe + seed gives the same graph on every compiler and library.
#ifndef PCIE_SCOPE_MODEL_GRAPH_H
#define PCIE_SCOPE_MODEL_GRAPH_H

#include <stdint.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "generated/workloads.h" // kGraphIdBytesDefault (8, as EMOGI)
#include "graph_kernels.h"

namespace ps {

constexpr uint64_t kGraphSeedDefault = 1;

// Stable error codes (the runners print them in their {"error":{"code":…}} objects).
class GraphError : public std::runtime_error {
public:
    GraphError(const char *code, const std::string &message)
        : std::runtime_error(message), code_(code)
    {}
    const char *code() const { return code_; }

private:
    const char *code_; // PS_GRAPH_BAD_SPEC, PS_GRAPH_BAD_FILE, PS_GRAPH_IO, PS_GRAPH_TOO_LARGE
};

enum class GraphRecipe : uint8_t {
    Kron,
    Urand,
    File
};

struct GraphSpec {
    GraphRecipe recipe = GraphRecipe::Kron;
    uint32_t scale = 0; // kron, urand
    uint64_t seed = kGraphSeedDefault;
    std::string path;                         // file
    uint32_t id_bytes = kGraphIdBytesDefault; // 4 or 8: the width of a neighbour id on the device
};

// Parses "kron:16", "urand:12:7", "file:/data/g.mtx". Throws GraphError PS_GRAPH_BAD_SPEC.
GraphSpec parse_graph_spec(const std::string &text, uint32_t id_bytes = kGraphIdBytesDefault);
// The canonical text of a spec ("kron:16:1"), also the cache key's stem.
std::string graph_spec_name(const GraphSpec &spec);

// Compressed sparse rows: neighbours of v are neighbours[offsets[v] .. offsets[v + 1]).
struct Csr {
    uint64_t vertices = 0;
    std::vector<uint64_t> offsets;    // vertices + 1 entries
    std::vector<uint64_t> neighbours; // ids (any width fits here; id_bytes says the device's)
    uint32_t id_bytes = kGraphIdBytesDefault;

    uint64_t edges() const { return neighbours.size(); } // directed edges (2x undirected)
    uint64_t degree(uint64_t v) const { return offsets[v + 1] - offsets[v]; }
    // The edge list as the device stores it: id_bytes per neighbour, little-endian.
    std::vector<unsigned char> edge_bytes() const;
    // SSSP's weight of every directed edge, in neighbour order (graph_edge_weight).
    std::vector<uint32_t> edge_weights() const;
    // The host memory kernel `k` reads, from its 128-B aligned base: the edge list, and for SSSP
    // the weights from the next 128-B boundary (graph_kernels.h graph_weight_offset).
    std::vector<unsigned char> host_bytes(GraphKernel k) const;
};

// SSSP's edge weights, 1..255 as GAP's weighted generators draw them, made from the edge itself
// (a splitmix64 hash of the unordered pair): the same for u-v and v-u, the same on every run, for
// generated graphs and files alike (a file's third column is not read).
uint32_t graph_edge_weight(uint64_t u, uint64_t v);

struct EdgeTuple {
    uint64_t u, v;
};

// Builds the CSR: both directions of every tuple, self-loops dropped, lists sorted and unique.
// Throws PS_GRAPH_TOO_LARGE when a 4-B id cannot hold `vertices - 1`.
Csr build_csr(uint64_t vertices, const std::vector<EdgeTuple> &tuples, uint32_t id_bytes);

// Raw tuples of the generators (before build_csr), for tests of the recipes.
std::vector<EdgeTuple> kronecker_tuples(uint32_t scale, uint64_t seed);
std::vector<EdgeTuple> urand_tuples(uint32_t scale, uint64_t seed);

// Loaders; throw GraphError PS_GRAPH_BAD_FILE with "PATH:LINE: what" for malformed input, and
// PS_GRAPH_IO when the file cannot be read.
Csr load_matrix_market(const std::string &path, uint32_t id_bytes);
Csr load_edge_list(const std::string &path, uint32_t id_bytes);
// The same parsers over text in memory (`name` stands for the path in messages).
Csr parse_matrix_market(const std::string &text, const std::string &name, uint32_t id_bytes);
Csr parse_edge_list(const std::string &text, const std::string &name, uint32_t id_bytes);

// The default cache directory: $PCIE_SCOPE_CACHE/graphs, else $XDG_CACHE_HOME/pcie-scope/graphs,
// else $HOME/.cache/pcie-scope/graphs; empty when none of them is set (no cache).
std::string default_graph_cache_dir();

// The graph of a spec. Generated graphs are read from `cache_dir` when a valid entry for the
// recipe + scale + seed + id width is there, else generated and written there atomically (a
// temporary file renamed into place); an empty `cache_dir` disables the cache. A damaged entry
// is regenerated and replaced. Files are parsed every time (they are the user's, and may change).
Csr load_graph(const GraphSpec &spec, const std::string &cache_dir);

// Binary cache format (little-endian): "PSCSR\0\0\1", u32 id_bytes, u32 0, u64 vertices,
// u64 edges, (vertices + 1) x u64 offsets, edges x id_bytes neighbours.
void write_csr_file(const Csr &g, const std::string &path);
// Returns false (and leaves `out` alone) when the file is missing, short or inconsistent.
bool read_csr_file(const std::string &path, uint32_t id_bytes, Csr *out);

} // namespace ps

#endif
