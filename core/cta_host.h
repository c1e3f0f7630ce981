// SPDX-License-Identifier: Apache-2.0
// What a CTA scheduler needs from an SM.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/checkpoint.h"
#include "core/kernel_launch.h"
#include "core/saved_cta.h"

namespace stacksim::core {

/// How a CTA leaves its SM when the SM is taken for another kernel.
enum class PreemptTechnique : uint8_t {
    Drain,   ///< it runs to its end; the SM takes no new CTAs meanwhile
    Switch,  ///< stop, drain the pipeline, save the context through memory, resume later
    Flush,   ///< stop and drop it; it restarts from its beginning later (idempotent kernels)
};

/// A CTA resident on an SM, as a preemption policy sees it.
struct ResidentCta {
    uint32_t slot = 0;             ///< CTA slot on the SM
    KernelLaunch* launch = nullptr;
    uint64_t cta_index = 0;
    uint64_t resident_cycles = 0;  ///< cycles on SMs so far (across switches)
    uint64_t warp_instructions = 0;
    uint64_t context_bytes = 0;    ///< registers + shared memory + SIMT/barrier state
    bool leaving = false;          ///< being switched out or flushed already
    bool restoring = false;        ///< its context is being read back
    uint32_t checkpoints = 0;      ///< PEP checkpoints taken so far
    bool armed_start = false;      ///< started on an SM expecting a preemption (PEP cases d, e)
};

/// An SM as the CTA dispatcher sees it.
class CtaHost {
public:
    virtual ~CtaHost() = default;
    /// True when threads, warps, registers, shared memory and CTA slots allow one more CTA.
    virtual bool can_accept(const KernelLaunch& launch) const = 0;
    /// Starts CTA `cta_index` of `launch`; precondition can_accept(launch).
    virtual void start_cta(KernelLaunch& launch, uint64_t cta_index) = 0;
    /// Resumes a context-switched CTA of `launch` (its context is read back first);
    /// precondition can_accept(launch).
    virtual void restore_cta(KernelLaunch& launch, std::unique_ptr<SavedCta> saved) = 0;
    virtual uint32_t sm_id() const = 0;
    /// Whether every CTA on the SM (if any) belongs to `launch` (spatial sharing).
    virtual bool only_runs(const KernelLaunch& launch) const {
        (void)launch;
        return true;
    }
    /// The CTAs on the SM (for preemption decisions).
    virtual std::vector<ResidentCta> resident_ctas() const { return {}; }
    /// Starts taking CTA `slot` off the SM by `t` (Switch or Flush; Drain needs nothing of
    /// the SM). The SM reports the end through its saved / flushed callbacks.
    virtual void preempt_cta(uint32_t slot, PreemptTechnique t) {
        (void)slot, (void)t;
        throw std::logic_error("this SM cannot preempt CTAs");
    }
    /// PEP: stops CTA `slot`, drains its pipeline and saves its dirty registers and shared-memory
    /// blocks (core/checkpoint.h); with `o.resume` it then runs on (first checkpoint), else it
    /// leaves like a switch (the save may stay in place within the SM's in-place budget).
    virtual void checkpoint_cta(uint32_t slot, const CheckpointOrder& o) {
        (void)slot, (void)o;
        throw std::logic_error("this SM cannot checkpoint CTAs");
    }
    /// PEP: CTAs starting from now on take a first checkpoint after `instructions` warp
    /// instructions (0 disarms).
    virtual void arm_checkpoints(uint64_t instructions, CheckpointCounters* c) { (void)instructions, (void)c; }
    /// Dirty-tracking policies: mark shared-memory blocks on stores (registers are always marked).
    virtual void track_shared_stores(bool on) { (void)on; }
    /// PEP+in-place: bytes of unused registers + shared memory the next saves may stay in.
    virtual void set_inplace_budget(uint64_t bytes) { (void)bytes; }
};

}  // namespace stacksim::core
