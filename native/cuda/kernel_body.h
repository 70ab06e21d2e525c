// pcie-scope zero-copy kernels: the per-thread work, host- and device-compilable (PS_HD), so a
// C++ test can run every thread of a small workload on the CPU and obtain the checksum the GPU
// must produce (test/native/cuda/test_kernel_body.cpp).
//
// A thread runs the pattern's loop of native/model/patterns.h (pattern_shape / pattern_access:
// the same arithmetic the traffic model coalesces) and adds up every 32-bit word it loaded, as an
// unsigned 64-bit sum. The buffer is filled with buffer_word(i) (a pseudo-random function of the
// word's index), so reading a word twice, or missing one, changes the sum; the CPU's reference is
// the sum of the words of [offset, offset + bytes), which every pattern reads exactly once.
#ifndef PCIE_SCOPE_CUDA_KERNEL_BODY_H
#define PCIE_SCOPE_CUDA_KERNEL_BODY_H

#include <stdint.h>
#include <string.h>

#include "patterns.h"

namespace ps::gpu {

// Word i of every benchmark buffer (index from the 128-B aligned base): a 32-bit mix of i
// (the finaliser of MurmurHash3), so neighbouring words differ in every bit.
PS_HD inline uint32_t buffer_word(uint64_t i)
{
    uint32_t h = (uint32_t)i ^ (uint32_t)(i >> 32) * 0x9e3779b9u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

// The spec with its pattern and lane width fixed at compile time, so a kernel template
// instantiated per (pattern, width) folds the switches of patterns.h away.
template <Pattern P, uint32_t E> PS_HD inline PatternSpec fixed_spec(PatternSpec s)
{
    s.pattern = P;
    s.element_bytes = E;
    return s;
}

// One thread's loop: the sum of the 32-bit words of every load it issues. `load(p)` returns the
// sum of the E / 4 words at p (a device load of the right width and cache flavour on the GPU,
// a memcpy on the CPU).
template <class Load>
PS_HD inline uint64_t thread_sum(const PatternSpec &spec, const PatternShape &shape,
                                 uint64_t thread, const unsigned char *base, const Load &load)
{
    uint64_t acc = 0;
    if (thread >= shape.threads) // the last block's spare threads: a warp past the pattern's grid
        return 0;
    for (uint32_t i = 0; i < shape.iterations; ++i) {
        uint64_t off;
        if (pattern_access(spec, shape, thread, i, &off))
            acc += load(base + off);
    }
    return acc;
}

// ---- host side: the CPU's versions of the same computations ----------------------------------
// (not guarded by __CUDA_ARCH__: nvcc's device pass must still see what host code calls)

// Fills words [0, words) of `base` with buffer_word(i).
inline void fill_buffer(unsigned char *base, uint64_t words)
{
    uint32_t *w = reinterpret_cast<uint32_t *>(base);
    for (uint64_t i = 0; i < words; ++i)
        w[i] = buffer_word(i);
}

// The reference: the sum of the words of [offset, offset + bytes) (offset, bytes multiples of 4).
inline uint64_t reference_sum(const unsigned char *base, uint32_t offset, uint64_t bytes)
{
    uint64_t acc = 0;
    for (uint64_t b = offset; b < (uint64_t)offset + bytes; b += 4) {
        uint32_t w;
        memcpy(&w, base + b, 4);
        acc += w;
    }
    return acc;
}

struct HostLoad {
    uint32_t element_bytes;
    PS_HD uint64_t operator()(const unsigned char *p) const
    {
        uint64_t acc = 0;
        for (uint32_t k = 0; k < element_bytes; k += 4) {
            uint32_t w;
            memcpy(&w, p + k, 4);
            acc += w;
        }
        return acc;
    }
};

// Threads the kernel is launched with: whole blocks of `block_threads` covering the pattern's.
inline uint64_t launch_threads(const PatternShape &shape, uint32_t block_threads)
{
    return ps_div_ceil(shape.threads, block_threads) * block_threads;
}

// Every thread of the launch (spare ones included), run on the CPU: the checksum the GPU kernel
// must produce.
inline uint64_t kernel_sum_on_cpu(const PatternSpec &spec, const unsigned char *base,
                                  uint32_t block_threads)
{
    const PatternShape shape = pattern_shape(spec);
    const HostLoad load{shape.lane_bytes};
    uint64_t acc = 0;
    for (uint64_t t = 0; t < launch_threads(shape, block_threads); ++t)
        acc += thread_sum(spec, shape, t, base, load);
    return acc;
}

} // namespace ps::gpu

#endif
