// SPDX-License-Identifier: Apache-2.0
// Deterministic host-side input generators (constant, iota, seeded random, binary file).
#include "workloads/host_data.h"

#include <fstream>
#include <iterator>

namespace stacksim::workloads {

uint64_t SplitMix64::next() {
    uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint32_t SplitMix64::next_below(uint64_t bound) {
    // bound <= 2^32, so (2^32 - 1) * bound fits in 64 bits.
    return static_cast<uint32_t>(((next() >> 32) * bound) >> 32);
}

double SplitMix64::next_unit() {
    return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

std::vector<int32_t> iota_i32(size_t n, int32_t start, int32_t step) {
    std::vector<int32_t> out(n);
    for (size_t i = 0; i < n; ++i)
        out[i] = static_cast<int32_t>(static_cast<uint32_t>(start) +
                                      static_cast<uint32_t>(i) * static_cast<uint32_t>(step));
    return out;
}

std::vector<uint32_t> iota_u32(size_t n, uint32_t start, uint32_t step) {
    std::vector<uint32_t> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = start + static_cast<uint32_t>(i) * step;
    return out;
}

std::vector<float> iota_f32(size_t n, float start, float step) {
    std::vector<float> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = start + static_cast<float>(i) * step;
    return out;
}

std::vector<uint32_t> random_u32(size_t n, uint64_t seed, uint32_t lo, uint32_t hi) {
    if (hi < lo) throw std::invalid_argument("random_u32: hi < lo");
    SplitMix64 rng(seed);
    const uint64_t span = uint64_t{hi} - lo + 1;
    std::vector<uint32_t> out(n);
    for (auto& v : out) v = lo + rng.next_below(span);
    return out;
}

std::vector<int32_t> random_i32(size_t n, uint64_t seed, int32_t lo, int32_t hi) {
    if (hi < lo) throw std::invalid_argument("random_i32: hi < lo");
    SplitMix64 rng(seed);
    const uint64_t span = static_cast<uint64_t>(int64_t{hi} - lo) + 1;
    std::vector<int32_t> out(n);
    for (auto& v : out) v = static_cast<int32_t>(int64_t{lo} + rng.next_below(span));
    return out;
}

std::vector<float> random_f32(size_t n, uint64_t seed, float lo, float hi) {
    if (!(lo <= hi)) throw std::invalid_argument("random_f32: hi < lo");
    SplitMix64 rng(seed);
    const double base = lo, span = static_cast<double>(hi) - lo;
    std::vector<float> out(n);
    for (auto& v : out) {
        v = static_cast<float>(base + span * rng.next_unit());
        if (v >= hi && hi > lo) v = lo;  // rounding to float may reach hi; keep [lo, hi)
    }
    return out;
}

std::vector<uint8_t> load_binary(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open binary file '" + path + "'");
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    if (in.bad()) throw std::runtime_error("error reading binary file '" + path + "'");
    return bytes;
}

}  // namespace stacksim::workloads
