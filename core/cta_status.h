// SPDX-License-Identifier: Apache-2.0
// What the CTA dispatcher and the preemption controller may read of an SM (its status).
#pragma once
#include <cstdint>
#include <vector>

#include "core/kernel_launch.h"

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

/// An SM's CTA slots as the schedulers read them (its status registers). Everything they ask
/// of the SM goes through its command port (core/cta_port.h); this view changes nothing.
class CtaStatus {
public:
    virtual ~CtaStatus() = default;
    /// True when threads, warps, registers, shared memory and CTA slots allow one more CTA.
    virtual bool can_accept(const KernelLaunch& launch) const = 0;
    virtual uint32_t sm_id() const = 0;
    /// Whether every CTA on the SM (if any) belongs to `launch` (spatial sharing).
    virtual bool only_runs(const KernelLaunch& launch) const = 0;
    /// The CTAs on the SM (for preemption decisions).
    virtual std::vector<ResidentCta> resident_ctas() const = 0;
    /// This SM's part of `launch`'s tallies so far (zero when it ran none of it, or after
    /// ForgetKernel).
    virtual KernelTally tally(const KernelLaunch& launch) const = 0;
};

}  // namespace stacksim::core
