// SPDX-License-Identifier: Apache-2.0
// Immediate post-dominator analysis: the reconvergence PC of every branch.
#pragma once
#include <cstdint>
#include <vector>

#include "core/kernel.h"

namespace stacksim::core {

/// A kernel's basic blocks: block i spans [start[i], start[i+1]).
struct ControlFlowGraph {
    std::vector<uint32_t> start;
    std::vector<std::vector<uint32_t>> succ;  ///< successor block ids; exit blocks have none
    std::vector<uint32_t> block_of;           ///< instruction index -> block id
};

/// Builds the CFG of `k` (branch targets and exits end blocks).
ControlFlowGraph build_cfg(const Kernel& k);

/// Immediate post-dominator block of each block; -1 when it is the virtual exit.
std::vector<int32_t> immediate_post_dominators(const ControlFlowGraph& cfg);

/// Sets Instruction::reconv_pc of every branch to the first instruction of the immediate
/// post-dominator of its block (kNoTarget when that is the kernel's exit).
void compute_reconvergence(Kernel& k);

}  // namespace stacksim::core
