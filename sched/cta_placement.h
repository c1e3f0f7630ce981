// SPDX-License-Identifier: Apache-2.0
// Interface of CTA placement policies and their registry; each registers itself in its own file.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "core/kernel_launch.h"
#include "sched/cta_queue.h"
#include "sched/sm_link.h"
#include "sim/registry.h"

namespace stacksim::sched {

/// Where the next CTAs go. `place` starts waiting CTAs of `q` on those of `sms` (the SMs
/// the kernel may use now) that can accept them; `cursor` is the policy's own position
/// between calls for this kernel.
class CtaPlacement {
public:
    virtual ~CtaPlacement() = default;
    virtual void place(const std::vector<SmLink*>& sms, CtaQueue& q, size_t& cursor) = 0;
};

using CtaPlacementRegistry = sim::Registry<CtaPlacement>;
/// CTA placement policies by name (gpu.cta_scheduler): sched/cta_placement_*.cpp.
CtaPlacementRegistry& cta_placements();

}  // namespace stacksim::sched
