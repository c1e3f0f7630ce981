// SPDX-License-Identifier: Apache-2.0
// Interface of CTA placement policies and their registry; each registers itself in its own file.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "core/cta_host.h"
#include "core/kernel_launch.h"
#include "sim/registry.h"

namespace stacksim::sched {

/// Where the next CTAs go. `place` starts CTAs of `k` (from `next_cta` on) on SMs that can
/// accept them, advancing `next_cta`; `cursor` is the policy's own position between calls.
class CtaPlacement {
public:
    virtual ~CtaPlacement() = default;
    virtual void place(const std::vector<core::CtaHost*>& sms, core::KernelLaunch& k, uint64_t& next_cta,
                       size_t& cursor) = 0;
};

using CtaPlacementRegistry = sim::Registry<CtaPlacement>;
/// CTA placement policies by name (gpu.cta_scheduler): sched/cta_placement_*.cpp.
CtaPlacementRegistry& cta_placements();

}  // namespace stacksim::sched
