// SPDX-License-Identifier: Apache-2.0
// The patent scheduler's analysis module: a kernel's predicted instruction count and class.
#pragma once
#include <cstdint>

#include "core/kernel_launch.h"

namespace stacksim::sched {

/// Memory- or compute-intensive (patent 004's two classes).
enum class KernelClass : uint8_t { Compute, Memory };

/// What the analysis module predicts of one launch before it runs.
struct KernelAnalysis {
    double instructions = 0;     ///< predicted warp instructions of the whole grid
    double memory_fraction = 0;  ///< global/generic loads, stores and atomics per instruction
    KernelClass cls = KernelClass::Compute;
};

/// PTX: the static body with every instruction inside a loop (a backward branch) weighted 8 per
/// loop level (up to 3 levels) x warps per CTA x CTAs; the memory fraction over the same
/// weights. Trace: the exact dynamic count and fraction. `memory_threshold`: memory_fraction at or above it is memory-intensive.
KernelAnalysis analyze_kernel(const core::KernelLaunch& launch, double memory_threshold);

/// The prediction refined by the run so far: once CTAs finished, their mean warp instructions
/// x CTAs of the grid; never below `issued`, the warp instructions it issued so far.
double predicted_instructions(const KernelAnalysis& a, const core::KernelLaunch& launch, uint64_t issued);

}  // namespace stacksim::sched
