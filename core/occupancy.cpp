// SPDX-License-Identifier: Apache-2.0
// How many CTAs of a kernel fit on one SM, and which resource limits it.
#include "core/occupancy.h"

#include <algorithm>

namespace stacksim::core {

uint32_t registers_per_warp(uint32_t regs_per_thread, uint32_t unit) {
    uint32_t regs = regs_per_thread * 32;
    return unit ? (regs + unit - 1) / unit * unit : regs;
}

Occupancy occupancy(const SmConfig& cfg, uint32_t threads_per_cta, uint32_t regs_per_thread,
                    uint32_t shared_bytes, uint32_t unit) {
    Occupancy o;
    if (threads_per_cta == 0) return o;
    uint32_t warps = (threads_per_cta + 31) / 32;
    uint32_t by_threads = cfg.max_threads / (warps * 32);
    uint32_t reg_per_cta = registers_per_warp(regs_per_thread, unit) * warps;
    uint32_t by_regs = reg_per_cta ? cfg.registers / reg_per_cta : cfg.max_ctas;
    uint32_t by_smem = shared_bytes ? cfg.shared_memory_bytes / shared_bytes : cfg.max_ctas;
    o.ctas = cfg.max_ctas;
    o.limited_by = "cta_slots";
    auto limit = [&](uint32_t v, const char* name) {
        if (v < o.ctas) {
            o.ctas = v;
            o.limited_by = name;
        }
    };
    limit(by_threads, "threads");
    limit(by_regs, "registers");
    limit(by_smem, "shared_memory");
    return o;
}

}  // namespace stacksim::core
