// pcie-scope graphs: generators, loaders, CSR builder and the on-disk cache (graph.h).
#include "graph.h"
#include "decimal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <sstream>

#include "prng.h"

namespace ps {

namespace {

bool parse_u64_text(const std::string &s, uint64_t *out) { return parse_u64_decimal(s, out); }

[[noreturn]] void bad_spec(const std::string &text, const std::string &why)
{
    throw GraphError("PS_GRAPH_BAD_SPEC",
                     "graph '" + text + "': " + why
                         + " (kron:S[:SEED], urand:S[:SEED] or file:PATH)");
}

[[noreturn]] void bad_file(const std::string &name, uint64_t line, const std::string &why)
{
    throw GraphError("PS_GRAPH_BAD_FILE", name + ":" + std::to_string(line) + ": " + why);
}

std::string read_whole_file(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw GraphError("PS_GRAPH_IO", "cannot open graph file " + path + ": " + strerror(errno));
    std::ostringstream os;
    os << in.rdbuf();
    if (in.bad())
        throw GraphError("PS_GRAPH_IO", "cannot read graph file " + path);
    return os.str();
}

// Splits a line into whitespace-separated tokens.
std::vector<std::string> tokens_of(const std::string &line)
{
    std::vector<std::string> out;
    std::istringstream is(line);
    std::string t;
    while (is >> t)
        out.push_back(t);
    return out;
}

bool is_number(const std::string &s)
{
    char *end = nullptr;
    strtod(s.c_str(), &end);
    return !s.empty() && *end == 0;
}

std::string lower(std::string s)
{
    for (char &c : s)
        c = (char)tolower((unsigned char)c);
    return s;
}

// Calls fn(line_number, line) for every line of `text` (without its '\n' or '\r').
template <class Fn> void for_each_line(const std::string &text, Fn fn)
{
    uint64_t number = 0;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        std::string line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        fn(++number, line);
        pos = end + 1;
    }
}

void permute_labels(std::vector<EdgeTuple> *tuples, uint64_t vertices, Xoshiro256 *rng)
{
    // Fisher-Yates: a uniform random permutation of the vertex labels (Graph500's randperm(N)),
    // so the hubs the Kronecker recipe puts at low ids are spread over the id range.
    std::vector<uint64_t> perm(vertices);
    for (uint64_t i = 0; i < vertices; ++i)
        perm[i] = i;
    for (uint64_t i = vertices - 1; i > 0; --i)
        std::swap(perm[i], perm[rng->below(i + 1)]);
    for (EdgeTuple &e : *tuples) {
        e.u = perm[e.u];
        e.v = perm[e.v];
    }
}

} // namespace

GraphSpec parse_graph_spec(const std::string &text, uint32_t id_bytes)
{
    if (id_bytes != 4 && id_bytes != 8)
        bad_spec(text, "vertex ids must be 4 or 8 bytes");
    GraphSpec spec;
    spec.id_bytes = id_bytes;
    const size_t colon = text.find(':');
    if (colon == std::string::npos)
        bad_spec(text, "no recipe");
    const std::string recipe = text.substr(0, colon);
    const std::string rest = text.substr(colon + 1);
    if (recipe == "file") {
        if (rest.empty())
            bad_spec(text, "file: needs a path");
        spec.recipe = GraphRecipe::File;
        spec.path = rest;
        return spec;
    }
    if (recipe == "kron")
        spec.recipe = GraphRecipe::Kron;
    else if (recipe == "urand")
        spec.recipe = GraphRecipe::Urand;
    else
        bad_spec(text, "unknown recipe '" + recipe + "'");
    const size_t colon2 = rest.find(':');
    uint64_t scale = 0;
    if (!parse_u64_text(rest.substr(0, colon2), &scale) || scale < 1 || scale > kGraphScaleMax)
        bad_spec(text, "scale must be an integer from 1 to " + std::to_string(kGraphScaleMax));
    spec.scale = (uint32_t)scale;
    if (colon2 != std::string::npos && !parse_u64_text(rest.substr(colon2 + 1), &spec.seed))
        bad_spec(text, "seed must be a non-negative integer");
    return spec;
}

std::string graph_spec_name(const GraphSpec &spec)
{
    switch (spec.recipe) {
    case GraphRecipe::Kron:
        return "kron:" + std::to_string(spec.scale) + ":" + std::to_string(spec.seed);
    case GraphRecipe::Urand:
        return "urand:" + std::to_string(spec.scale) + ":" + std::to_string(spec.seed);
    case GraphRecipe::File:
        return "file:" + spec.path;
    }
    return "?";
}

std::vector<unsigned char> Csr::edge_bytes() const
{
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "ids are copied little-endian");
    std::vector<unsigned char> out(neighbours.size() * id_bytes);
    if (id_bytes == 8) {
        memcpy(out.data(), neighbours.data(), out.size());
    } else {
        for (size_t i = 0; i < neighbours.size(); ++i) {
            const uint32_t id = (uint32_t)neighbours[i];
            memcpy(&out[i * 4], &id, 4);
        }
    }
    return out;
}

uint32_t graph_edge_weight(uint64_t u, uint64_t v)
{
    uint64_t state = (u < v ? u : v) * 0x9E3779B97F4A7C15ull ^ (u < v ? v : u);
    return 1 + (uint32_t)(splitmix64(&state) % 255);
}

std::vector<uint32_t> Csr::edge_weights() const
{
    std::vector<uint32_t> w(neighbours.size());
    for (uint64_t v = 0; v < vertices; ++v)
        for (uint64_t i = offsets[v]; i < offsets[v + 1]; ++i)
            w[i] = graph_edge_weight(v, neighbours[i]);
    return w;
}

std::vector<unsigned char> Csr::host_bytes(GraphKernel k) const
{
    std::vector<unsigned char> out = edge_bytes();
    if (graph_step_loads(k) < 2)
        return out;
    out.resize(graph_host_bytes(k, edges(), id_bytes), 0);
    const std::vector<uint32_t> w = edge_weights();
    for (uint64_t i = 0; i < w.size(); ++i)
        memcpy(&out[graph_weight_offset(i, edges(), id_bytes)], &w[i], kGraphWeightBytes);
    return out;
}

Csr build_csr(uint64_t vertices, const std::vector<EdgeTuple> &tuples, uint32_t id_bytes)
{
    if (id_bytes != 4 && id_bytes != 8)
        throw GraphError("PS_GRAPH_BAD_SPEC",
                         "vertex ids must be 4 or 8 bytes, not " + std::to_string(id_bytes));
    if (id_bytes == 4 && vertices > (1ull << 32))
        throw GraphError("PS_GRAPH_TOO_LARGE",
                         std::to_string(vertices) + " vertices do not fit 4-byte ids: use 8");
    Csr g;
    g.vertices = vertices;
    g.id_bytes = id_bytes;
    // Count both directions of every non-loop tuple, place them, then sort + unique each list.
    std::vector<uint64_t> fill(vertices + 1, 0);
    for (const EdgeTuple &e : tuples) {
        if (e.u == e.v)
            continue;
        ++fill[e.u + 1];
        ++fill[e.v + 1];
    }
    for (uint64_t v = 0; v < vertices; ++v)
        fill[v + 1] += fill[v];
    std::vector<uint64_t> raw(fill[vertices]);
    std::vector<uint64_t> cursor(fill.begin(), fill.end() - 1);
    for (const EdgeTuple &e : tuples) {
        if (e.u == e.v)
            continue;
        raw[cursor[e.u]++] = e.v;
        raw[cursor[e.v]++] = e.u;
    }
    g.offsets.assign(vertices + 1, 0);
    g.neighbours.reserve(raw.size());
    for (uint64_t v = 0; v < vertices; ++v) {
        auto first = raw.begin() + (ptrdiff_t)fill[v];
        auto last = raw.begin() + (ptrdiff_t)fill[v + 1];
        std::sort(first, last);
        last = std::unique(first, last);
        g.neighbours.insert(g.neighbours.end(), first, last);
        g.offsets[v + 1] = g.neighbours.size();
    }
    g.neighbours.shrink_to_fit();
    return g;
}

std::vector<EdgeTuple> kronecker_tuples(uint32_t scale, uint64_t seed)
{
    // Graph500 octave/kronecker_generator.m: per bit level, the row bit is set with probability
    // 1 - (A + B); the column bit with C / (1 - (A + B)) when the row bit is set, else
    // A / (A + B) is the probability that it is clear.
    const double a = 0.57, b = 0.19, c = 0.19;
    const double ab = a + b, c_norm = c / (1.0 - ab), a_norm = a / ab;
    const uint64_t vertices = 1ull << scale;
    const uint64_t count = (uint64_t)kGraphEdgeFactor * vertices;
    Xoshiro256 rng(seed);
    std::vector<EdgeTuple> tuples(count);
    for (EdgeTuple &e : tuples) {
        uint64_t u = 0, v = 0;
        for (uint32_t bit = 0; bit < scale; ++bit) {
            const bool ii = rng.uniform() > ab;
            const bool jj = rng.uniform() > (ii ? c_norm : a_norm);
            u |= (uint64_t)ii << bit;
            v |= (uint64_t)jj << bit;
        }
        e.u = u;
        e.v = v;
    }
    // Graph500 also shuffles the tuple order; the CSR sorts it away, so that step is left out.
    permute_labels(&tuples, vertices, &rng);
    return tuples;
}

std::vector<EdgeTuple> urand_tuples(uint32_t scale, uint64_t seed)
{
    const uint64_t vertices = 1ull << scale;
    Xoshiro256 rng(seed);
    std::vector<EdgeTuple> tuples((uint64_t)kGraphEdgeFactor * vertices);
    for (EdgeTuple &e : tuples) {
        e.u = rng.below(vertices);
        e.v = rng.below(vertices);
    }
    return tuples;
}

Csr parse_edge_list(const std::string &text, const std::string &name, uint32_t id_bytes)
{
    std::vector<EdgeTuple> tuples;
    uint64_t max_id = 0;
    for_each_line(text, [&](uint64_t number, const std::string &line) {
        const std::vector<std::string> t = tokens_of(line);
        if (t.empty() || t[0][0] == '#' || t[0][0] == '%')
            return;
        EdgeTuple e{};
        if (t.size() < 2 || t.size() > 3 || !parse_u64_text(t[0], &e.u)
            || !parse_u64_text(t[1], &e.v) || (t.size() == 3 && !is_number(t[2])))
            bad_file(name, number,
                     "expected 'u v' (two vertex ids from 0, an optional weight), "
                     "got '"
                         + line + "'");
        max_id = std::max(max_id, std::max(e.u, e.v));
        tuples.push_back(e);
    });
    if (tuples.empty())
        bad_file(name, 1, "no edges");
    if (max_id == UINT64_MAX)
        bad_file(name, 1, "vertex id too large");
    return build_csr(max_id + 1, tuples, id_bytes);
}

Csr parse_matrix_market(const std::string &text, const std::string &name, uint32_t id_bytes)
{
    bool header = false, size_seen = false;
    uint64_t rows = 0, cols = 0, entries = 0;
    bool has_value = false;
    std::vector<EdgeTuple> tuples;
    for_each_line(text, [&](uint64_t number, const std::string &line) {
        if (!header) {
            const std::vector<std::string> t = tokens_of(lower(line));
            if (t.size() != 5 || t[0] != "%%matrixmarket" || t[1] != "matrix")
                bad_file(name, number,
                         "not a Matrix Market file (first line must be "
                         "'%%MatrixMarket matrix coordinate FIELD SYMMETRY')");
            if (t[2] != "coordinate")
                bad_file(name, number,
                         "only the coordinate format holds a graph, not '" + t[2] + "'");
            if (t[3] != "pattern" && t[3] != "real" && t[3] != "integer")
                bad_file(name, number,
                         "field must be pattern, real or integer, not '" + t[3] + "'");
            if (t[4] != "general" && t[4] != "symmetric")
                bad_file(name, number, "symmetry must be general or symmetric, not '" + t[4] + "'");
            has_value = t[3] != "pattern";
            header = true;
            return;
        }
        const std::vector<std::string> t = tokens_of(line);
        if (t.empty() || t[0][0] == '%')
            return;
        if (!size_seen) {
            if (t.size() != 3 || !parse_u64_text(t[0], &rows) || !parse_u64_text(t[1], &cols)
                || !parse_u64_text(t[2], &entries) || rows == 0 || cols == 0)
                bad_file(name, number,
                         "expected the size line 'ROWS COLS ENTRIES', got '" + line + "'");
            size_seen = true;
            tuples.reserve(entries);
            return;
        }
        EdgeTuple e{};
        const size_t want = has_value ? 3 : 2;
        if (t.size() != want || !parse_u64_text(t[0], &e.u) || !parse_u64_text(t[1], &e.v)
            || (has_value && !is_number(t[2])))
            bad_file(name, number,
                     std::string("expected '") + (has_value ? "ROW COL VALUE" : "ROW COL")
                         + "', got '" + line + "'");
        if (e.u < 1 || e.u > rows || e.v < 1 || e.v > cols)
            bad_file(name, number,
                     "entry (" + t[0] + ", " + t[1] + ") outside the " + std::to_string(rows)
                         + " x " + std::to_string(cols) + " matrix (ids start at 1)");
        if (tuples.size() == entries)
            bad_file(name, number,
                     "more entries than the " + std::to_string(entries) + " announced");
        --e.u;
        --e.v;
        tuples.push_back(e);
    });
    if (!header)
        bad_file(name, 1, "empty file");
    if (!size_seen)
        bad_file(name, 1, "no size line");
    if (tuples.size() != entries)
        bad_file(name, 1,
                 std::to_string(entries) + " entries announced, " + std::to_string(tuples.size())
                     + " found");
    return build_csr(std::max(rows, cols), tuples, id_bytes);
}

Csr load_matrix_market(const std::string &path, uint32_t id_bytes)
{
    return parse_matrix_market(read_whole_file(path), path, id_bytes);
}

Csr load_edge_list(const std::string &path, uint32_t id_bytes)
{
    return parse_edge_list(read_whole_file(path), path, id_bytes);
}

std::string default_graph_cache_dir()
{
    if (const char *d = getenv("PCIE_SCOPE_CACHE"); d && *d)
        return std::string(d) + "/graphs";
    if (const char *d = getenv("XDG_CACHE_HOME"); d && *d)
        return std::string(d) + "/pcie-scope/graphs";
    if (const char *d = getenv("HOME"); d && *d)
        return std::string(d) + "/.cache/pcie-scope/graphs";
    return "";
}

namespace {

constexpr char kCsrMagic[8] = {'P', 'S', 'C', 'S', 'R', 0, 0, 1};

void make_dirs(const std::string &dir)
{
    for (size_t pos = 1; pos <= dir.size(); ++pos) {
        if (pos == dir.size() || dir[pos] == '/') {
            const std::string part = dir.substr(0, pos);
            if (mkdir(part.c_str(), 0755) != 0 && errno != EEXIST)
                throw GraphError("PS_GRAPH_IO",
                                 "cannot create cache directory " + part + ": " + strerror(errno));
        }
    }
}

void put_u64(std::vector<unsigned char> *out, uint64_t v, uint32_t bytes = 8)
{
    for (uint32_t b = 0; b < bytes; ++b)
        out->push_back((unsigned char)(v >> (8 * b)));
}

uint64_t get_u64(const unsigned char *p, uint32_t bytes = 8)
{
    uint64_t v = 0;
    for (uint32_t b = 0; b < bytes; ++b)
        v |= (uint64_t)p[b] << (8 * b);
    return v;
}

} // namespace

void write_csr_file(const Csr &g, const std::string &path)
{
    std::vector<unsigned char> out(kCsrMagic, kCsrMagic + 8);
    put_u64(&out, g.id_bytes, 4);
    put_u64(&out, 0, 4);
    put_u64(&out, g.vertices);
    put_u64(&out, g.edges());
    for (uint64_t o : g.offsets)
        put_u64(&out, o);
    const std::vector<unsigned char> e = g.edge_bytes();
    out.insert(out.end(), e.begin(), e.end());
    // Write beside the target, then rename: readers see the old entry or the whole new one. The
    // name is the writer's own (process and a per-process count): the addon's worker threads may
    // cache the same graph at once, and a shared name let one rename the other's file away.
    static std::atomic<unsigned> writes{0};
    const std::string tmp =
        path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(writes.fetch_add(1));
    FILE *f = fopen(tmp.c_str(), "wb");
    if (!f)
        throw GraphError("PS_GRAPH_IO", "cannot write " + tmp + ": " + strerror(errno));
    const bool ok = fwrite(out.data(), 1, out.size(), f) == out.size();
    if (fclose(f) != 0 || !ok || rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string why = strerror(errno);
        unlink(tmp.c_str());
        throw GraphError("PS_GRAPH_IO", "cannot write " + path + ": " + why);
    }
}

bool read_csr_file(const std::string &path, uint32_t id_bytes, Csr *out)
{
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the cache is read by memcpy");
    FILE *f = fopen(path.c_str(), "rb");
    if (!f)
        return false;
    unsigned char head[32];
    Csr g;
    bool ok = fread(head, 1, sizeof head, f) == sizeof head && memcmp(head, kCsrMagic, 8) == 0
        && get_u64(&head[8], 4) == id_bytes;
    const uint64_t vertices = ok ? get_u64(&head[16]) : 0, edges = ok ? get_u64(&head[24]) : 0;
    struct stat st;
    ok = ok && vertices <= (1ull << 40) && edges <= (1ull << 44) && fstat(fileno(f), &st) == 0
        && (uint64_t)st.st_size == 32 + (vertices + 1) * 8 + edges * id_bytes;
    if (ok) {
        g.vertices = vertices;
        g.id_bytes = id_bytes;
        g.offsets.resize(vertices + 1);
        g.neighbours.resize(edges);
        ok = fread(g.offsets.data(), 8, vertices + 1, f) == vertices + 1;
        if (ok && id_bytes == 8) {
            ok = fread(g.neighbours.data(), 8, edges, f) == edges;
        } else if (ok) {
            std::vector<uint32_t> narrow(edges);
            ok = fread(narrow.data(), 4, edges, f) == edges;
            std::copy(narrow.begin(), narrow.end(), g.neighbours.begin());
        }
    }
    fclose(f);
    if (!ok || g.offsets[0] != 0 || g.offsets[vertices] != edges)
        return false;
    for (uint64_t v = 0; v < vertices; ++v)
        if (g.offsets[v] > g.offsets[v + 1])
            return false;
    for (uint64_t w : g.neighbours)
        if (w >= vertices)
            return false;
    *out = std::move(g);
    return true;
}

Csr load_graph(const GraphSpec &spec, const std::string &cache_dir)
{
    if (spec.recipe == GraphRecipe::File) {
        const std::string ext =
            lower(spec.path.size() >= 4 ? spec.path.substr(spec.path.size() - 4) : "");
        return ext == ".mtx" ? load_matrix_market(spec.path, spec.id_bytes)
                             : load_edge_list(spec.path, spec.id_bytes);
    }
    std::string path;
    if (!cache_dir.empty()) {
        path = cache_dir + "/" + (spec.recipe == GraphRecipe::Kron ? "kron" : "urand") + "-"
            + std::to_string(spec.scale) + "-seed" + std::to_string(spec.seed) + "-id"
            + std::to_string(spec.id_bytes) + ".csr";
        Csr cached;
        if (read_csr_file(path, spec.id_bytes, &cached))
            return cached;
    }
    const std::vector<EdgeTuple> tuples = spec.recipe == GraphRecipe::Kron
        ? kronecker_tuples(spec.scale, spec.seed)
        : urand_tuples(spec.scale, spec.seed);
    Csr g = build_csr(1ull << spec.scale, tuples, spec.id_bytes);
    if (!path.empty()) {
        make_dirs(cache_dir);
        write_csr_file(g, path);
    }
    return g;
}

} // namespace ps
