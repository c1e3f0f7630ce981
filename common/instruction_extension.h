// SPDX-License-Identifier: Apache-2.0
// Marks a memory request as an SM's instruction-cache fill (gpu.sm.icache_fill = "memory").
#pragma once
#include "sim/flag_extension.h"

namespace stacksim::common {

struct InstructionTag;
/// Set by the SM (core/) on the read that fills a missing I-cache line. Its address lies in
/// the code area, a physical region of device memory: the translation unit (memory/) passes it
/// untranslated, an L1 data cache forwards it without allocating (the I-cache is the SM's
/// own), and the L2 slices and DRAM serve it like any other read (an L2 keeps the line, so
/// another SM's miss on the same code hits there).
using InstructionExtension = sim::FlagExtension<InstructionTag>;

/// Start of the code area. A kernel's code (its code identity) has its own 16 MiB window
/// there, at kCodeAreaBase + (code id << 24); instruction addresses inside it are the PTX
/// index times gpu.sm.instruction_bytes, or the traced PC.
constexpr uint64_t kCodeAreaBase = 0xD000'0000'0000;

}  // namespace stacksim::common
