// pcie-scope PRNG: xoshiro256** seeded through splitmix64 (Blackman and Vigna), so generated
// graphs are the same on every compiler and standard library (<random>'s distributions are not
// specified bit for bit).
#ifndef PCIE_SCOPE_MODEL_PRNG_H
#define PCIE_SCOPE_MODEL_PRNG_H

#include <stdint.h>

namespace ps {

inline uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

class Xoshiro256 {
public:
    explicit Xoshiro256(uint64_t seed)
    {
        for (uint64_t &w : s_)
            w = splitmix64(&seed);
    }
    uint64_t next()
    {
        const uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }
    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return (double)(next() >> 11) * 0x1.0p-53; }
    // Uniform in [0, n), n > 0, without modulo bias: values below 2^64 mod n are redrawn, so
    // the rest is a whole number of n-sized runs.
    uint64_t below(uint64_t n)
    {
        const uint64_t threshold = (0 - n) % n;
        for (;;) {
            const uint64_t x = next();
            if (x >= threshold)
                return x % n;
        }
    }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t s_[4];
};

} // namespace ps

#endif
