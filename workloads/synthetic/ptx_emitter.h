// SPDX-License-Identifier: Apache-2.0
// Synthetic program -> PTX text of one `.visible .entry synth(...)`.
#pragma once
#include <string>

#include "workloads/synthetic/program.h"

namespace stacksim::workloads {

/// Name of the generated entry.
inline constexpr const char* kSynthEntry = "synth";

/// PTX (.version 8.0, .target sm_75, .address_size 64) of `p`. Parameters, in order:
/// u64 in, u64 out, u64 fout, u64 slots, u32 salt (see docs/synthetic.md).
std::string emit_ptx(const SynthProgram& p);

/// A source name for launch_ptx_source() that is unique per text ("synthetic-<hash>.ptx").
std::string synth_source_name(const std::string& ptx_text);

}  // namespace stacksim::workloads
