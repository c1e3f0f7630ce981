// SPDX-License-Identifier: Apache-2.0
// How many CTAs of a kernel fit on one SM, and which resource limits it.
#pragma once
#include <cstdint>
#include <string>

#include "core/sm_config.h"

namespace stacksim::core {

/// Result of the occupancy calculation (textbook CTA allocation, SPEC §1).
struct Occupancy {
    uint32_t ctas = 0;          ///< CTAs that fit at once
    std::string limited_by;     ///< "threads", "registers", "shared_memory" or "cta_slots"
};

/// CTAs of `threads_per_cta` threads using `regs_per_thread` registers and `shared_bytes`
/// of shared memory that fit on an SM configured by `cfg`. Warps are allocated whole and
/// registers per warp are rounded up to the allocation unit `reg_alloc_unit`.
Occupancy occupancy(const SmConfig& cfg, uint32_t threads_per_cta, uint32_t regs_per_thread,
                    uint32_t shared_bytes, uint32_t reg_alloc_unit = 256);

/// Registers one warp of the kernel holds.
uint32_t registers_per_warp(uint32_t regs_per_thread, uint32_t reg_alloc_unit = 256);

}  // namespace stacksim::core
