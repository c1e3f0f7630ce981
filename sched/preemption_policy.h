// SPDX-License-Identifier: Apache-2.0
// How the preemption controller takes each CTA off an SM it frees: the selection policies.
#pragma once
#include <cstdint>

#include "core/cta_port.h"
#include "core/cta_status.h"
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
    /// PEP's drain estimate: the kernel's measured average CTA time minus the CTA's elapsed
    /// time; drain_cycles (Chimera's) until a CTA of the kernel has finished.
    uint64_t measured_drain_cycles = 0;
    uint32_t checkpoints = 0;     ///< PEP checkpoints the CTA has taken
};

/// A preemption selection policy (registry preemption_policies(), [preemption] policy).
class PreemptionPolicy {
public:
    virtual ~PreemptionPolicy() = default;
    /// False: the controller never takes SMs away (higher priority only wins free slots).
    virtual bool preempts() const { return true; }
    /// Whether CTA contexts may travel through memory (switch, checkpoints): the caches then
    /// count context traffic.
    virtual bool moves_context() const { return preempts(); }
    /// The technique for one CTA. Flush may only be returned when `e.idempotent`.
    virtual core::PreemptTechnique choose(const CtaEstimate& e) const = 0;
    /// Saves write only the registers and shared-memory blocks written since the CTA started
    /// or its last checkpoint (Switch is then a checkpoint the CTA leaves with).
    virtual bool dirty_tracking() const { return false; }
    /// PEP: first checkpoints at the request predicted from the launch call.
    virtual bool proactive() const { return false; }
    /// PEP+in-place: the last checkpoint stays in unused registers / shared memory when it fits.
    virtual bool in_place() const { return false; }
    /// A technique of the policy's own: fills `out` with the command that takes CTA `r` off
    /// (chosen `t`, which the controller counts and estimates by) and returns true; the SM's
    /// CTA manager handles that command kind. False (default): the controller sends the
    /// standard command for `t` (none for Drain, Preempt, or Checkpoint when dirty-tracking).
    virtual bool command(const core::ResidentCta& r, core::PreemptTechnique t, const CtaEstimate& e,
                         core::CtaCommand& out) const {
        (void)r, (void)t, (void)e, (void)out;
        return false;
    }
    /// Estimated time until the CTA has left with technique `t` (cycles).
    static uint64_t latency(const CtaEstimate& e, core::PreemptTechnique t);
};

using PreemptionPolicyRegistry = sim::Registry<PreemptionPolicy>;
/// Preemption policies by name: sched/preemption_policy_*.cpp.
PreemptionPolicyRegistry& preemption_policies();
/// Chimera's choice (sched/preemption_policy_chimera.cpp) for a latency target in microseconds.
core::PreemptTechnique chimera_choice(const CtaEstimate& e, double target_us);

}  // namespace stacksim::sched
