// SPDX-License-Identifier: Apache-2.0
// Parameters of the seeded synthetic kernel generator, their validation and config reading.
#pragma once
#include <cstdint>
#include <string>

namespace stacksim::workloads {

/// What a synthetic kernel looks like: instruction mix, ILP, divergence, memory pattern and
/// launch shape. The generator seed comes from the run seed, not from here.
struct SyntheticConfig {
    // Instruction mix: fractions of `body_instructions` (they must sum to 1).
    double alu_fraction = 0.6;     ///< uint32 ALU ops (add/xor/mul/mad/rotate) on the chains
    double sfu_fraction = 0.1;     ///< sqrt.rn/rcp.rn/rsqrt/ex2 on float chains
    double memory_fraction = 0.15; ///< ld.global of the input array
    double store_fraction = 0.05;  ///< st.global of a chain to a per-thread slot
    double shared_fraction = 0.1;  ///< st.shared + bar.sync + ld.shared neighbour exchanges
    uint32_t body_instructions = 32;  ///< ops per loop iteration, [1, 4096]
    uint32_t iterations = 16;         ///< loop trip count, [1, 1048576]

    uint32_t dependency_distance = 4;  ///< independent chains; 1 = one serial chain, [1, 32]

    double divergence_probability = 0.5;  ///< per-lane probability of each `then` path, [0, 1]
    uint32_t divergence_depth = 1;        ///< nesting depth of divergent if/else, [0, 8]

    std::string pattern = "coalesced";  ///< coalesced | strided | random | reuse
    uint32_t stride_elements = 32;      ///< element stride of `strided`, [1, 1048576]
    uint64_t footprint_bytes = 1u << 20;  ///< input array size, a power of two in [128, 256 MiB]

    uint32_t grid = 16;    ///< CTAs (overridden by the workload size), [1, 65535]
    uint32_t block = 256;  ///< threads per CTA, [1, 1024]

    /// Throws sim::ConfigError("key: message") naming the first out-of-range key.
    void validate() const;
    /// One line naming every parameter, for logs and reports.
    std::string describe() const;
};

/// Reads every SyntheticConfig field from a config section (`sim::ConfigSection` or any type
/// with the same read/read_choice methods); absent keys keep their defaults.
template <class Section> void read_synthetic_config(Section& s, SyntheticConfig& c) {
    s.read("alu_fraction", c.alu_fraction);
    s.read("sfu_fraction", c.sfu_fraction);
    s.read("memory_fraction", c.memory_fraction);
    s.read("store_fraction", c.store_fraction);
    s.read("shared_fraction", c.shared_fraction);
    s.read("body_instructions", c.body_instructions);
    s.read("iterations", c.iterations);
    s.read("dependency_distance", c.dependency_distance);
    s.read("divergence_probability", c.divergence_probability);
    s.read("divergence_depth", c.divergence_depth);
    s.read_choice("pattern", c.pattern, {"coalesced", "strided", "random", "reuse"});
    s.read("stride_elements", c.stride_elements);
    s.read("footprint_bytes", c.footprint_bytes);
    s.read("grid", c.grid);
    s.read("block", c.block);
}

}  // namespace stacksim::workloads
