// SPDX-License-Identifier: Apache-2.0
// A CTA taken off its SM by a context switch, with all it needs to resume elsewhere.
#pragma once
#include <cstdint>
#include <vector>

#include "core/warp.h"

namespace stacksim::core {

/// The state of a context-switched CTA. Functional state (registers, shared memory, SIMT
/// stacks, barrier) is kept here as C++ objects; the context's bytes crossed the memory
/// system as timed writes when saved and cross it again as reads when restored.
struct SavedCta {
    uint64_t cta_index = 0;
    uint64_t context_bytes = 0;      ///< registers + shared memory + SIMT/barrier state written
    uint64_t context_addr = 0;       ///< where in the context area it was written
    uint64_t warp_instructions = 0;  ///< issued before the switch
    uint64_t resident_cycles = 0;    ///< cycles on SMs before the switch
    CtaSlot cta;                     ///< slot state (barrier count, shared memory, ...)
    std::vector<Warp> warps;         ///< the CTA's warps in warp-in-CTA order
};

}  // namespace stacksim::core
