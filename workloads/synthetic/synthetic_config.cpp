// SPDX-License-Identifier: Apache-2.0
// SyntheticConfig: declared parameters, validation and one-line description.
#include "workloads/synthetic/synthetic_config.h"

#include <cmath>
#include <sstream>

#include "sim/error.h"

namespace stacksim::workloads {

const sim::Params<SyntheticConfig>& SyntheticConfig::params() {
    using C = SyntheticConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("alu_fraction", &C::alu_fraction, "", "uint32 ALU ops on the integer chains").range(0.0, 1.0);
        p.add("sfu_fraction", &C::sfu_fraction, "", "SFU ops on the float chains").range(0.0, 1.0);
        p.add("memory_fraction", &C::memory_fraction, "", "global loads of the input array").range(0.0, 1.0);
        p.add("store_fraction", &C::store_fraction, "", "global stores of a chain to a per-thread slot").range(0.0, 1.0);
        p.add("shared_fraction", &C::shared_fraction, "", "shared-memory neighbour exchanges").range(0.0, 1.0);
        p.add("body_instructions", &C::body_instructions, "ops", "ops per loop iteration").range(1, 4096);
        p.add("iterations", &C::iterations, "", "loop trip count").range(1, 1u << 20);
        p.add("dependency_distance", &C::dependency_distance, "chains", "independent chains (1 = one serial chain)")
            .range(1, 32);
        p.add("divergence_probability", &C::divergence_probability, "",
              "per-lane probability of taking each divergent then path")
            .range(0.0, 1.0);
        p.add("divergence_depth", &C::divergence_depth, "levels", "nesting depth of the divergent if/else (0 = none)")
            .range(0, 8);
        p.add("pattern", &C::pattern, "", "address pattern of the loads")
            .one_of({"coalesced", "strided", "random", "reuse"});
        p.add("stride_elements", &C::stride_elements, "elements", "element stride of the strided pattern")
            .range(1, 1u << 20);
        p.add("footprint_bytes", &C::footprint_bytes, "bytes", "input array size; load indices wrap inside it")
            .range(128, uint64_t{1} << 28)
            .power_of_two();
        p.add("grid", &C::grid, "CTAs", "CTAs of a run with run.size = 0 (grid x block threads)").range(1, 65535);
        p.add("block", &C::block, "threads", "threads per CTA").range(1, 1024);
        return p;
    }();
    return p;
}

void SyntheticConfig::validate() const {
    const double sum = alu_fraction + sfu_fraction + memory_fraction + store_fraction + shared_fraction;
    if (std::fabs(sum - 1.0) > 1e-6) {
        std::ostringstream os;
        os << "alu_fraction + sfu_fraction + memory_fraction + store_fraction + shared_fraction"
              " must be 1, got "
           << sum;
        throw sim::ConfigError("alu_fraction: " + os.str());
    }
}

void SyntheticConfig::check() const {
    sim::ConfigDoc none;  // every key absent: reading keeps the values and applies every check
    SyntheticConfig copy = *this;
    params().read_into(none.section("synthetic"), copy);
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
