// pcie-scope access patterns: the ONE definition of each pattern, shared by the traffic model
// (native/model, native/twin) and the CUDA zero-copy kernels (native/zc).
//
// A pattern is written exactly as a kernel loop computes it:
//
//     const PatternShape s = pattern_shape(spec);          // launch: s.threads threads
//     for (uint32_t i = 0; i < s.iterations; ++i) {        // every thread runs the same loop
//         uint64_t off;
//         if (pattern_access(spec, s, thread, i, &off))     // active predicate + byte offset
//             acc += *(const uint32_t *)(base + off);       // one lane_bytes-wide load
//     }
//
// `thread` is the global thread index (blockIdx.x * blockDim.x + threadIdx.x); warp w holds
// threads 32w .. 32w+31 and lane = thread % 32. `off` is relative to a 128-B aligned base;
// `spec.offset` shifts every pattern's data (merged-misaligned defaults to 32). `spec.bytes` is
// the number of useful bytes read; the buffer must hold offset + bytes bytes.
//
// Patterns (4-B lanes):
//   strided           thread t walks its own 128-B chunk: iteration i reads offset + 128 t + 4 i,
//                     32 iterations; threads = ceil(bytes / 128), no grid stride.
//   merged-aligned    a warp reads one 128-B line per instruction: lane l reads
//                     offset + 128 line + 4 l. Lines are assigned GRID-STRIDE: warp w's k-th
//                     instruction reads line w + k * warps, with warps = min(lines, grid_warps)
//                     and iterations = ceil(lines / warps); a lane is active while its byte index
//                     is below `bytes` (so the last, partial line is masked like a kernel's bound
//                     check). Run round-robin over all warps, the lines come out in address order.
//   merged-misaligned the same loop with offset (default 32): each warp instruction straddles two
//                     lines (R4: 96 + 32 B for +32).
//
// Device-visible parts use no STL and no exceptions; PS_HD marks them __host__ __device__ under
// nvcc. The name helpers at the bottom are host-only.
#ifndef PCIE_SCOPE_MODEL_PATTERNS_H
#define PCIE_SCOPE_MODEL_PATTERNS_H

#include <stdint.h>

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
// 132-SM Hopper GPU (docs/gpu-coalescing.md).
constexpr uint64_t kDefaultGridWarps = 8ull * 132ull * 256ull / kWarpSize;
static_assert(kSpecLineBytes == kLineBytes,
              "spec/workloads.json lineBytes is the coalescer's line");

// Pattern (the enum), its names, default offsets and limits come from spec/workloads.json through
// generated/workloads.h; the index arithmetic below is the code that gives each its meaning. The
// switches have no default, so a pattern added to the spec without arithmetic fails the build
// (-Werror=switch).

struct PatternSpec {
    Pattern pattern;
    uint64_t bytes;      // useful bytes read
    uint32_t offset;     // byte offset of the data from the 128-B aligned base (multiple of 4)
    uint64_t grid_warps; // warps in the grid of the grid-stride (merged) kernels
};

struct PatternShape {
    uint64_t threads;    // threads to launch (a multiple of 32)
    uint64_t warps;      // threads / 32
    uint32_t iterations; // loop trip count of every thread
    uint32_t lane_bytes; // bytes per load
};

PS_HD inline PatternSpec make_pattern_spec(Pattern p, uint64_t bytes, uint32_t offset,
                                           uint64_t grid_warps = kDefaultGridWarps)
{
    PatternSpec s;
    s.pattern = p;
    s.bytes = bytes;
    s.offset = offset;
    s.grid_warps = grid_warps ? grid_warps : 1;
    return s;
}

PS_HD inline uint64_t ps_div_ceil(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

PS_HD inline PatternShape pattern_shape(const PatternSpec &spec)
{
    PatternShape s;
    s.lane_bytes = 4;
    const uint64_t lines = ps_div_ceil(spec.bytes, kLineBytes);
    switch (spec.pattern) {
    case Pattern::Strided:
        s.warps = ps_div_ceil(lines, kWarpSize); // one thread per 128-B chunk
        s.iterations = kLineBytes / 4;           // 32
        break;
    case Pattern::MergedAligned:
    case Pattern::MergedMisaligned:
        s.warps = lines < spec.grid_warps ? lines : spec.grid_warps;
        s.iterations = s.warps ? (uint32_t)ps_div_ceil(lines, s.warps) : 0;
        break;
    }
    s.threads = s.warps * kWarpSize;
    return s;
}

// Active predicate and byte offset (from the aligned base) of thread `thread`'s load in loop
// iteration `iteration`. Exactly what the kernel computes.
PS_HD inline bool pattern_access(const PatternSpec &spec, const PatternShape &shape,
                                 uint64_t thread, uint32_t iteration, uint64_t *byte_offset)
{
    uint64_t index = 0; // byte index into the useful data
    switch (spec.pattern) {
    case Pattern::Strided:
        index = thread * kLineBytes + 4ull * iteration;
        break;
    case Pattern::MergedAligned:
    case Pattern::MergedMisaligned: {
        const uint64_t warp = thread / kWarpSize;
        const uint64_t lane = thread % kWarpSize;
        const uint64_t line = warp + (uint64_t)iteration * shape.warps;
        index = line * kLineBytes + 4ull * lane;
        break;
    }
    }
    *byte_offset = spec.offset + index;
    return iteration < shape.iterations && index < spec.bytes;
}

// ---- host-only helpers (names and defaults from the spec's table) -----------------------------
#if !defined(__CUDA_ARCH__)
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
        const char *a = info.name;
        const char *b = name;
        while (*a && *a == *b) {
            ++a;
            ++b;
        }
        if (*a == 0 && *b == 0) {
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
#endif

} // namespace ps

#endif
