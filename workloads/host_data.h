// SPDX-License-Identifier: Apache-2.0
// Deterministic host-side input generators (constant, iota, seeded random, binary file).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace stacksim::workloads {

/// SplitMix64: a tiny, fully specified PRNG, so inputs are identical on every platform and
/// standard library (unlike std::uniform_*_distribution).
class SplitMix64 {
public:
    explicit SplitMix64(uint64_t seed) : m_state(seed) {}
    /// The next 64 random bits.
    uint64_t next();
    /// A uniform integer in [0, bound) (bound >= 1), by 32x32 multiply-shift.
    uint32_t next_below(uint64_t bound);
    /// A uniform double in [0, 1) with 53 random bits.
    double next_unit();

private:
    uint64_t m_state;
};

/// An independent seed for input array `stream` of a workload seeded with `seed`.
inline uint64_t sub_seed(uint64_t seed, uint64_t stream) {
    return SplitMix64(seed ^ (stream * 0xd1b54a32d192ed03ull)).next();
}

/// `n` copies of `value`.
template <typename T>
std::vector<T> constant_data(size_t n, T value) {
    return std::vector<T>(n, value);
}

/// start, start+step, start+2*step, ... (`n` values; computed as start + i*step).
std::vector<int32_t> iota_i32(size_t n, int32_t start = 0, int32_t step = 1);
std::vector<uint32_t> iota_u32(size_t n, uint32_t start = 0, uint32_t step = 1);
std::vector<float> iota_f32(size_t n, float start = 0.0f, float step = 1.0f);

/// `n` seeded uniform integers in the inclusive range [lo, hi].
std::vector<int32_t> random_i32(size_t n, uint64_t seed, int32_t lo, int32_t hi);
std::vector<uint32_t> random_u32(size_t n, uint64_t seed, uint32_t lo, uint32_t hi);
/// `n` seeded uniform floats in [lo, hi) (lo + (hi-lo)*u computed in double, then rounded).
std::vector<float> random_f32(size_t n, uint64_t seed, float lo, float hi);

/// The whole content of the binary file `path`; throws std::runtime_error naming the file.
std::vector<uint8_t> load_binary(const std::string& path);

/// The file `path` read as an array of T; throws std::runtime_error naming the file when it
/// cannot be read or its size is not a multiple of sizeof(T).
template <typename T>
std::vector<T> load_binary_as(const std::string& path) {
    std::vector<uint8_t> bytes = load_binary(path);
    if (bytes.size() % sizeof(T) != 0)
        throw std::runtime_error("binary file '" + path + "' has " + std::to_string(bytes.size()) +
                                 " bytes, not a multiple of " + std::to_string(sizeof(T)));
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!bytes.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

}  // namespace stacksim::workloads
