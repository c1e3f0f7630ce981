// SPDX-License-Identifier: Apache-2.0
// Marks a memory request as an SM's context save or restore traffic (preemption).
#pragma once
#include "sim/flag_extension.h"

namespace stacksim::common {

struct ContextTag;
/// Set by the SM (core/) on the writes that save a context-switched CTA's registers, shared
/// memory and SIMT state, and on the reads that restore it. Their addresses lie in the context
/// area, a physical region of device memory: the translation unit (memory/) passes them
/// untranslated, an L1 forwards them without allocating, the L2 slices and DRAM serve them
/// like any other traffic (so saves and restores contend with the running kernels).
using ContextExtension = sim::FlagExtension<ContextTag>;

/// Start of the context area; each SM's CTA slot has its own 1 MiB region there.
constexpr uint64_t kContextAreaBase = 0xE000'0000'0000;

}  // namespace stacksim::common
