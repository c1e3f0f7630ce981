// SPDX-License-Identifier: Apache-2.0
// CTA placement policies (round robin, fill) and their registry.
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

/// Round robin (textbook fig 3-33): one CTA per SM per pass, as many passes as resources allow.
class RoundRobinPlacement : public CtaPlacement {
public:
    void place(const std::vector<core::CtaHost*>& sms, core::KernelLaunch& k, uint64_t& next_cta,
               size_t& cursor) override;
};

/// Fill: consecutive CTAs go to the same SM until it is full, then the next SM (neighbouring
/// CTAs share an L1, which helps kernels whose neighbours touch the same data).
class FillPlacement : public CtaPlacement {
public:
    void place(const std::vector<core::CtaHost*>& sms, core::KernelLaunch& k, uint64_t& next_cta,
               size_t& cursor) override;
};

using CtaPlacementRegistry = sim::Registry<CtaPlacement>;
/// Registry of CTA scheduling policies: "round_robin", "fill".
const CtaPlacementRegistry& cta_scheduler_registry();

}  // namespace stacksim::sched
