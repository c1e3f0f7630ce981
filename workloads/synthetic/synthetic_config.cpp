// SPDX-License-Identifier: Apache-2.0
// SyntheticConfig validation and one-line description.
#include "workloads/synthetic/synthetic_config.h"

#include <cmath>
#include <sstream>

#include "sim/error.h"

namespace stacksim::workloads {
namespace {

[[noreturn]] void fail(const std::string& key, const std::string& message) {
    throw sim::ConfigError(key + ": " + message);
}

void check_fraction(const char* key, double v) {
    if (!(v >= 0.0 && v <= 1.0)) {
        std::ostringstream os;
        os << "must be in [0, 1], got " << v;
        fail(key, os.str());
    }
}

void check_range(const char* key, uint64_t v, uint64_t lo, uint64_t hi) {
    if (v < lo || v > hi)
        fail(key, "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
                      std::to_string(v));
}

}  // namespace

void SyntheticConfig::validate() const {
    check_fraction("alu_fraction", alu_fraction);
    check_fraction("sfu_fraction", sfu_fraction);
    check_fraction("memory_fraction", memory_fraction);
    check_fraction("store_fraction", store_fraction);
    check_fraction("shared_fraction", shared_fraction);
    const double sum =
        alu_fraction + sfu_fraction + memory_fraction + store_fraction + shared_fraction;
    if (std::fabs(sum - 1.0) > 1e-6) {
        std::ostringstream os;
        os << "alu_fraction + sfu_fraction + memory_fraction + store_fraction + shared_fraction"
              " must be 1, got "
           << sum;
        fail("alu_fraction", os.str());
    }
    check_range("body_instructions", body_instructions, 1, 4096);
    check_range("iterations", iterations, 1, 1u << 20);
    check_range("dependency_distance", dependency_distance, 1, 32);
    check_fraction("divergence_probability", divergence_probability);
    check_range("divergence_depth", divergence_depth, 0, 8);
    if (pattern != "coalesced" && pattern != "strided" && pattern != "random" && pattern != "reuse")
        fail("pattern", "must be one of coalesced, strided, random, reuse; got '" + pattern + "'");
    check_range("stride_elements", stride_elements, 1, 1u << 20);
    check_range("footprint_bytes", footprint_bytes, 128, uint64_t{1} << 28);
    if ((footprint_bytes & (footprint_bytes - 1)) != 0)
        fail("footprint_bytes", "must be a power of two, got " + std::to_string(footprint_bytes));
    check_range("grid", grid, 1, 65535);
    check_range("block", block, 1, 1024);
}

std::string SyntheticConfig::describe() const {
    std::ostringstream os;
    os << "synthetic: mix alu=" << alu_fraction << " sfu=" << sfu_fraction
       << " memory=" << memory_fraction << " store=" << store_fraction
       << " shared=" << shared_fraction << ", body_instructions=" << body_instructions
       << ", iterations=" << iterations << ", dependency_distance=" << dependency_distance
       << ", divergence_probability=" << divergence_probability
       << ", divergence_depth=" << divergence_depth << ", pattern=" << pattern;
    if (pattern == "strided") os << ", stride_elements=" << stride_elements;
    os << ", footprint_bytes=" << footprint_bytes << ", grid=" << grid << ", block=" << block;
    return os.str();
}

}  // namespace stacksim::workloads
