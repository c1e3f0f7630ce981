// SPDX-License-Identifier: Apache-2.0
// Executes one warp instruction with exact PTX semantics.
#pragma once
#include <stdexcept>
#include <string>

#include "core/exec_context.h"
#include "core/instruction.h"

namespace stacksim::core {

/// A run-time fault in a kernel (bad shared-memory address, misaligned access, ...).
class ExecError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Executes `inst` for the lanes of `active_mask` whose guard predicate holds; applies
/// register, shared-memory and global-memory effects at once and reports addresses and the
/// branch outcome in `out`. Throws ExecError naming the line on a fault.
void execute(const Instruction& inst, WarpExecContext& warp, uint32_t active_mask,
             ExecResult& out);

/// bar.red (core/ops_barrier.cpp): writes the CTA's reduction into the destination of a warp
/// that waited at the barrier. The SM calls it for each released warp and then clears
/// CtaExecContext::bar_red.
void finish_barrier_reduction(WarpExecContext& warp);

}  // namespace stacksim::core
