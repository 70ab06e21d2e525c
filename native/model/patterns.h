// pcie-scope access patterns: the ONE definition of each pattern, shared by the traffic model
// (native/model, native/twin) and the CUDA zero-copy kernels (native/cuda).
//
// A pattern is written exactly as a kernel loop computes it:
//
//     const PatternShape s = pattern_shape(spec);          // launch: s.threads threads
//     for (uint32_t i = 0; i < s.iterations; ++i) {        // every thread runs the same loop
//         uint64_t off;
//         if (pattern_access(spec, s, thread, i, &off))     // active predicate + byte offset
//             acc += load<E>(base + off);                   // one lane_bytes-wide load
//     }
//
// `thread` is the global thread index (blockIdx.x * blockDim.x + threadIdx.x); warp w holds
// threads 32w .. 32w+31 and lane = thread % 32. `off` is relative to a 128-B aligned base;
// `spec.offset` shifts every pattern's data (merged-misaligned defaults to 32). `spec.bytes` is
// the number of useful bytes read; the buffer must hold offset + bytes bytes.
//
// E = spec.element_bytes, the width of every lane's load (4, 8 or 16: a word, a pair, a vector;
// spec/workloads.json). bytes and offset are multiples of E, so every load is naturally aligned
// (a GPU faults on a misaligned vector load) and the last load ends exactly at `bytes`.
//
// Patterns:
//   strided           thread t walks its own 128-B chunk: iteration i reads offset + 128 t + E i,
//                     128 / E iterations (32, 16, 8); threads = ceil(bytes / 128), no grid
//                     stride. Every load of one instruction lands in a different line.
//   merged-aligned    a warp instruction reads one SPAN of 32 E bytes (E / 4 lines: 128, 256,
//                     512 B): lane l reads offset + 32 E u + E l for span u. Spans are assigned
//                     GRID-STRIDE: warp w's k-th instruction reads span u = w + k * warps, with
//                     warps = min(spans, grid_warps), spans = ceil(bytes / (32 E)) and
//                     iterations = ceil(spans / warps); a lane is active while its byte index is
//                     below `bytes` (the last, partial span is masked like a kernel's bound check).
//                     Run round-robin over all warps, the spans come out in address order.
//   merged-misaligned the same loop with offset (default 32): each warp instruction's span
//                     straddles E / 4 + 1 lines (R4: 96 + 32 B at +32 with 4-B lanes; 96 + 128 +
//                     32 with 8-B lanes; 96 + 3 x 128 + 32 with 16-B lanes).
//   merged-chunked    EMOGI's merged kernels: warp w walks its own contiguous CHUNK of C =
//                     spec.chunk_bytes bytes, lane l of its k-th instruction reading offset +
//                     C w + 32 E k + E l while that is inside the chunk (and below `bytes`);
//                     warps = ceil(bytes / C), one per chunk as one per vertex, no grid stride;
//                     iterations = ceil(C / 32 E). With an offset, the line two consecutive spans
//                     share is read by ONE warp, one instruction apart (merged-misaligned hands
//                     its two parts to neighbouring warps).
//
// Device-visible parts use no STL and no exceptions; PS_HD marks them __host__ __device__ under
// nvcc. The name helpers and the argument check at the bottom are host-only.
#ifndef PCIE_SCOPE_MODEL_PATTERNS_H
#define PCIE_SCOPE_MODEL_PATTERNS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "generated/workloads.h"

#if defined(__CUDACC__)
#define PS_HD __host__ __device__
#else
#define PS_HD
#endif

namespace ps {

constexpr uint32_t kWarpSize = 32;
constexpr uint32_t kSectorBytes = 32;
constexpr uint32_t kLineBytes = 128;
constexpr uint32_t kSectorsPerLine = kLineBytes / kSectorBytes;

// Reference launch shape: 8 x 132 blocks of 256 threads = 8448 warps, eight blocks per SM of a
// 132-SM Hopper GPU (docs/gpu-coalescing.md; spec/workloads.json gpus).
constexpr uint64_t kDefaultGridWarps =
    (uint64_t)kGpuMinBlocksPerSm * kGpus[kGpuDefault].sm_count * kGpuBlockThreads / kWarpSize;
static_assert(kSpecLineBytes == kLineBytes,
              "spec/workloads.json lineBytes is the coalescer's line");

// Pattern (the enum), its names, default offsets and limits come from spec/workloads.json through
// generated/workloads.h; the index arithmetic below is the code that gives each its meaning. The
// switches have no default, so a pattern added to the spec without arithmetic fails the build
// (-Werror=switch).

struct PatternSpec {
    Pattern pattern;
    uint64_t bytes;         // useful bytes read (a multiple of element_bytes)
    uint32_t offset;        // byte offset of the data from the 128-B aligned base (multiple of E)
    uint32_t element_bytes; // E: bytes per lane load, 4, 8 or 16
    uint64_t grid_warps;    // warps in the grid of the grid-stride (merged) kernels
    uint64_t chunk_bytes;   // merged-chunked: bytes each warp walks (a multiple of E)
};

struct PatternShape {
    uint64_t threads;    // threads to launch (a multiple of 32)
    uint64_t warps;      // threads / 32
    uint32_t iterations; // loop trip count of every thread
    uint32_t lane_bytes; // bytes per load (E)
    uint64_t span_bytes; // bytes one warp instruction covers when all lanes are active: 32 E
};

PS_HD inline PatternSpec make_pattern_spec(Pattern p, uint64_t bytes, uint32_t offset,
                                           uint32_t element_bytes = kElementBytesDefault,
                                           uint64_t grid_warps = kDefaultGridWarps,
                                           uint64_t chunk_bytes = kChunkBytesDefault)
{
    PatternSpec s;
    s.pattern = p;
    s.bytes = bytes;
    s.offset = offset;
    s.element_bytes = element_bytes ? element_bytes : kElementBytesDefault;
    s.grid_warps = grid_warps ? grid_warps : 1;
    s.chunk_bytes = chunk_bytes ? chunk_bytes : kChunkBytesDefault;
    return s;
}

PS_HD inline uint64_t ps_div_ceil(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

PS_HD inline PatternShape pattern_shape(const PatternSpec &spec)
{
    PatternShape s;
    s.lane_bytes = spec.element_bytes;
    s.span_bytes = (uint64_t)kWarpSize * s.lane_bytes;
    switch (spec.pattern) {
    case Pattern::Strided: {
        const uint64_t chunks = ps_div_ceil(spec.bytes, kLineBytes);
        s.warps = ps_div_ceil(chunks, kWarpSize); // one thread per 128-B chunk
        s.iterations = kLineBytes / s.lane_bytes; // 32, 16, 8
        break;
    }
    case Pattern::MergedAligned:
    case Pattern::MergedMisaligned: {
        const uint64_t spans = ps_div_ceil(spec.bytes, s.span_bytes);
        s.warps = spans < spec.grid_warps ? spans : spec.grid_warps;
        s.iterations = s.warps ? (uint32_t)ps_div_ceil(spans, s.warps) : 0;
        break;
    }
    case Pattern::MergedChunked:
        s.warps = ps_div_ceil(spec.bytes, spec.chunk_bytes); // one warp per chunk
        s.iterations = (uint32_t)ps_div_ceil(spec.chunk_bytes, s.span_bytes);
        break;
    }
    s.threads = s.warps * kWarpSize;
    return s;
}

// Byte index into the useful data of thread `thread`'s load in loop iteration `iteration`, for
// pattern P (the arithmetic of the pattern table above; pattern_access applies offset and bounds).
// A merged-chunked load past its chunk's end returns kPastChunk (inactive, as a lane past its
// vertex's list).
constexpr uint64_t kPastChunk = ~(uint64_t)0;

template <Pattern P>
PS_HD inline uint64_t pattern_index(const PatternSpec &spec, const PatternShape &shape,
                                    uint64_t thread, uint32_t iteration)
{
    if (P == Pattern::Strided)
        return thread * kLineBytes + (uint64_t)shape.lane_bytes * iteration;
    if (P == Pattern::MergedChunked) {
        const uint64_t in_chunk = (uint64_t)iteration * shape.span_bytes
            + (uint64_t)shape.lane_bytes * (thread % kWarpSize);
        return in_chunk < spec.chunk_bytes ? (thread / kWarpSize) * spec.chunk_bytes + in_chunk
                                           : kPastChunk;
    }
    // merged-aligned and merged-misaligned: one span per warp instruction, grid-stride
    const uint64_t warp = thread / kWarpSize;
    const uint64_t lane = thread % kWarpSize;
    const uint64_t span = warp + (uint64_t)iteration * shape.warps;
    return span * shape.span_bytes + (uint64_t)shape.lane_bytes * lane;
}

// Active predicate and byte offset (from the aligned base) of pattern P's load `index` (its
// pattern_index): exactly what the kernel computes.
PS_HD inline bool pattern_bounds(const PatternSpec &spec, const PatternShape &shape,
                                 uint32_t iteration, uint64_t index, uint64_t *byte_offset)
{
    *byte_offset = spec.offset + index;
    return iteration < shape.iterations && index < spec.bytes; // kPastChunk is never below bytes
}

// Active predicate and byte offset (from the aligned base) of thread `thread`'s load in loop
// iteration `iteration`. Exactly what the kernel computes.
PS_HD inline bool pattern_access(const PatternSpec &spec, const PatternShape &shape,
                                 uint64_t thread, uint32_t iteration, uint64_t *byte_offset)
{
    uint64_t index = 0;
    switch (spec.pattern) {
    case Pattern::Strided:
        index = pattern_index<Pattern::Strided>(spec, shape, thread, iteration);
        break;
    case Pattern::MergedAligned:
        index = pattern_index<Pattern::MergedAligned>(spec, shape, thread, iteration);
        break;
    case Pattern::MergedMisaligned:
        index = pattern_index<Pattern::MergedMisaligned>(spec, shape, thread, iteration);
        break;
    case Pattern::MergedChunked:
        index = pattern_index<Pattern::MergedChunked>(spec, shape, thread, iteration);
        break;
    }
    return pattern_bounds(spec, shape, iteration, index, byte_offset);
}

// ---- host-only helpers (names and defaults from the spec's table) -----------------------------
#if !defined(__CUDA_ARCH__)
inline bool ps_str_eq(const char *a, const char *b)
{
    while (*a && *a == *b) {
        ++a;
        ++b;
    }
    return *a == 0 && *b == 0;
}

inline const char *pattern_name(Pattern p)
{
    for (const PatternInfo &info : kPatterns) {
        if (info.pattern == p)
            return info.name;
    }
    return "?";
}

// Returns false for an unknown name.
inline bool pattern_from_name(const char *name, Pattern *out)
{
    for (const PatternInfo &info : kPatterns) {
        if (ps_str_eq(info.name, name)) {
            *out = info.pattern;
            return true;
        }
    }
    return false;
}

inline uint32_t pattern_default_offset(Pattern p)
{
    for (const PatternInfo &info : kPatterns) {
        if (info.pattern == p)
            return info.default_offset;
    }
    return 0;
}

inline const char *l1_load_name(L1Load l)
{
    for (const L1LoadInfo &info : kL1Loads) {
        if (info.load == l)
            return info.name;
    }
    return "?";
}

// Returns false for an unknown name ("ideal", "bypass").
inline bool l1_load_from_name(const char *name, L1Load *out)
{
    for (const L1LoadInfo &info : kL1Loads) {
        if (ps_str_eq(info.name, name)) {
            *out = info.load;
            return true;
        }
    }
    return false;
}

inline bool element_bytes_valid(uint64_t e)
{
    for (uint32_t v : kElementBytesValues) {
        if (v == e)
            return true;
    }
    return false;
}

inline bool ps_in_limits(uint64_t v, uint64_t min, uint64_t max, uint64_t multiple)
{
    return v >= min && v <= max && v % multiple == 0;
}

// The workload rules every runner applies (spec limits, plus whole and naturally aligned loads).
// Returns true when valid; else false with the first problem as one sentence in `err`.
inline bool workload_valid(uint64_t bytes, uint32_t offset, uint32_t element_bytes, char *err,
                           size_t errlen, uint64_t chunk_bytes = kChunkBytesDefault)
{
    if (!ps_in_limits(bytes, kWorkloadBytesMin, kWorkloadBytesMax, kWorkloadBytesMultiple))
        snprintf(err, errlen, "bytes must be %s", kWorkloadBytesRule);
    else if (!ps_in_limits(offset, kWorkloadOffsetMin, kWorkloadOffsetMax, kWorkloadOffsetMultiple))
        snprintf(err, errlen, "offset must be %s", kWorkloadOffsetRule);
    else if (!element_bytes_valid(element_bytes))
        snprintf(err, errlen, "element bytes must be %s", kElementBytesRule);
    else if (bytes % element_bytes != 0)
        snprintf(err, errlen, "bytes must be a multiple of the element bytes (%u): whole loads",
                 element_bytes);
    else if (offset % element_bytes != 0)
        snprintf(err, errlen, "offset must be a multiple of the element bytes (%u): aligned loads",
                 element_bytes);
    else if (!ps_in_limits(chunk_bytes, kChunkBytesMin, kChunkBytesMax, kChunkBytesMultiple))
        snprintf(err, errlen, "chunk bytes must be %s", kChunkBytesRule);
    else if (chunk_bytes % element_bytes != 0)
        snprintf(err, errlen,
                 "chunk bytes must be a multiple of the element bytes (%u): whole aligned loads",
                 element_bytes);
    else
        return true;
    return false;
}
#endif

} // namespace ps

#endif
