// SPDX-License-Identifier: Apache-2.0
// The synthetic traffic's random number generator.
#pragma once
#include <cstdint>

namespace stacksim::noc {

/// Deterministic 64-bit generator (SplitMix64).
class SplitMix64 {
public:
    explicit SplitMix64(uint64_t seed) : m_state(seed) {}
    uint64_t next() {
        uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// Uniform in [0, n).
    uint32_t below(uint32_t n) { return static_cast<uint32_t>((next() >> 32) * n >> 32); }

private:
    uint64_t m_state;
};

/// A uniformly random node of `n` other than `src` (`src` itself when n = 1).
inline unsigned uniform_other(unsigned src, unsigned n, SplitMix64& rng) {
    if (n == 1) return src;
    const unsigned d = rng.below(n - 1);
    return d >= src ? d + 1 : d;
}

}  // namespace stacksim::noc
