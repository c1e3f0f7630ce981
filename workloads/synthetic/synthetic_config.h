// SPDX-License-Identifier: Apache-2.0
// Parameters of the seeded synthetic kernel generator ([synthetic]), declared once.
#pragma once
#include <cstdint>
#include <string>

#include "sim/param.h"

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

    uint32_t grid = 16;    ///< CTAs of a run with size 0 (grid x block threads), [1, 65535]
    uint32_t block = 256;  ///< threads per CTA, [1, 1024]

    /// Every key with its range; reading [synthetic] checks them, then validate().
    static const sim::Params<SyntheticConfig>& params();
    /// Throws sim::ConfigError("alu_fraction: ...") unless the five fractions sum to 1.
    void validate() const;
    /// Throws sim::ConfigError naming the key unless every key is within its declared range
    /// and validate() passes: for configs built in code (reading [synthetic] checks itself).
    void check() const;
    /// One line naming every parameter, for logs and reports.
    std::string describe() const;
};

}  // namespace stacksim::workloads
