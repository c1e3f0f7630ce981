// SPDX-License-Identifier: Apache-2.0
// CPU model of a synthetic program: the expected outputs of one launch.
#pragma once
#include <cstdint>
#include <vector>

#include "workloads/synthetic/program.h"

namespace stacksim::workloads {

/// The outputs of one launch of a synthetic kernel (only threads gtid < n store).
struct SynthOutputs {
    std::vector<uint32_t> out;    ///< out_words(): xor of the integer chains, 0 past n
    std::vector<float> fout;      ///< threads: sum of the float chains and sinks
    std::vector<uint32_t> slots;  ///< slot_words(): slot j of thread g at j*n + g, 0 if unwritten
};

/// Runs launch `launch` (0, or 1 for the second reuse launch) of `p` on the CPU over the
/// input array `in` (footprint_words words): every thread of every CTA, the body op by op in
/// lockstep so the shared-memory exchanges see their neighbours' values. uint32 arithmetic
/// is exact; the float ops call the same libm functions as the functional executor.
SynthOutputs run_cpu_model(const SynthProgram& p, const std::vector<uint32_t>& in, uint32_t launch);

}  // namespace stacksim::workloads
