// SPDX-License-Identifier: Apache-2.0
// How the preemption controller takes each CTA off an SM it frees: the selection policies.
#pragma once
#include <cstdint>

#include "core/cta_host.h"
#include "sim/registry.h"

namespace stacksim::sched {

/// What a selection policy knows of one resident CTA when its SM is to be freed (cycles are
/// core cycles).
struct CtaEstimate {
    const core::ResidentCta* cta = nullptr;
    bool idempotent = false;      ///< its kernel may be flushed
    uint64_t drain_cycles = 0;    ///< estimated time to its end: remaining instructions x CPI so far
    uint64_t switch_cycles = 0;   ///< estimated save time: the SM's context bytes / its bandwidth share
    uint64_t flush_cycles = 0;    ///< work a flush throws away: its resident cycles so far
    double cycles_per_us = 1.0;   ///< core clock, for policies with targets in microseconds
};

/// A preemption selection policy (registry preemption_policies(), [preemption] policy).
class PreemptionPolicy {
public:
    virtual ~PreemptionPolicy() = default;
    /// False: the controller never takes SMs away (higher priority only wins free slots).
    virtual bool preempts() const { return true; }
    /// The technique for one CTA. Flush may only be returned when `e.idempotent`.
    virtual core::PreemptTechnique choose(const CtaEstimate& e) const = 0;
    /// Estimated time until the CTA has left with technique `t` (cycles).
    static uint64_t latency(const CtaEstimate& e, core::PreemptTechnique t);
};

using PreemptionPolicyRegistry = sim::Registry<PreemptionPolicy>;
/// Preemption policies by name: sched/preemption_policy_*.cpp.
PreemptionPolicyRegistry& preemption_policies();

}  // namespace stacksim::sched
