// SPDX-License-Identifier: Apache-2.0
// Device-function calls on the SIMT stack: entering a callee, returning under divergence,
// dropping the frames of calls whose lanes all exited.
#pragma once
#include <cstdint>

#include "core/exec_context.h"
#include "core/instruction.h"
#include "core/simt_stack.h"

namespace stacksim::core {

/// `call` at `pc` executed (functional part in ExecResult: the lanes of r.taken_mask enter
/// function r.call_function; the other executing lanes of an indirect call that target
/// another function run the call again afterwards). Copies the arguments into the callee's
/// frame, saves the callee's registers when it is already active (recursion), pushes the SIMT
/// entries. Throws ExecError past CallFrames::kMaxDepth.
void enter_call(SimtStack& stack, WarpExecContext& w, const Instruction& call, uint32_t pc, const ExecResult& r);

/// `ret` executed by `lanes` inside a device function: they leave the call; when every lane
/// of the call has returned, the frame is popped (return value copied, registers restored) and
/// the caller continues after the call.
void return_from_call(SimtStack& stack, WarpExecContext& w, uint32_t lanes);

/// Pops the frames of calls whose SIMT entries are gone (every lane exited inside them).
void sync_call_frames(const SimtStack& stack, WarpExecContext& w);

}  // namespace stacksim::core
