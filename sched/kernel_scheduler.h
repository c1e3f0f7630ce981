// SPDX-License-Identifier: Apache-2.0
// Kernel-scheduling policies: which pending kernel the kernel management unit launches, and whether to preempt.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/kernel_launch.h"
#include "sim/registry.h"

namespace stacksim::sched {

class CtaDispatcher;

/// What a kernel-scheduling policy may observe of the running GPU (all optional: a null
/// function reads as zero).
struct SchedulerProbe {
    std::function<uint64_t()> cycle;  ///< current core cycle
    /// L2 reads and read misses summed over the slices since the start (requests).
    std::function<std::pair<uint64_t, uint64_t>()> l2_reads_misses;
    const CtaDispatcher* dispatcher = nullptr;  ///< resident CTAs of each kernel
};

/// A kernel-scheduling policy ([kernel_scheduler] policy, registry kernel_schedulers()). The
/// kernel management unit asks it, each time a kernel arrives or finishes, what to do next, and
/// asks again after every launch until it answers Wait.
class KernelScheduler {
public:
    /// A kernel in the pending pool: new (never started) or preempted (started, its CTAs held).
    struct Pending {
        core::KernelLaunch* launch = nullptr;
        bool preempted = false;
        uint64_t arrival = 0;  ///< arrival sequence number
    };
    struct Decision {
        enum class Kind : uint8_t { Wait, Launch, Preempt };
        Kind kind = Kind::Wait;
        size_t index = 0;                       ///< Launch/Preempt: the pool entry to run
        core::KernelLaunch* victim = nullptr;   ///< Preempt: the running kernel to take off
    };
    virtual ~KernelScheduler() = default;
    /// `pool` in arrival order; `running` the kernels placing CTAs (not preempted);
    /// `max_resident` the hardware cap (gpu.max_resident_kernels).
    virtual Decision next(const std::vector<Pending>& pool, const std::vector<core::KernelLaunch*>& running,
                          uint32_t max_resident) = 0;
    /// Whether it decides preemptions itself (then priorities no longer trigger preemption
    /// requests, and the GPU reports gpu.kernel_scheduler.*).
    virtual bool decides_preemptions() const { return true; }
    /// The preemption decisions so far, with the predicted gain and cost of each (summed).
    struct Tally {
        uint64_t preemptions = 0;  ///< preemptions decided
        /// Decisions (at most one per cycle) at the cap where a better-ranked set existed but the
        /// predicted gain did not exceed the cost.
        uint64_t declined = 0;
        double gain_taken = 0, cost_taken = 0;        ///< of the preemptions (policy's units)
        double gain_declined = 0, cost_declined = 0;  ///< of the best pair of each declined decision
    };
    virtual Tally tally() const { return {}; }
};

/// The pool entry of highest priority, the earliest arrival on a tie (the pool is in arrival
/// order); `pool` must not be empty. FCFS's choice, and the priority scheduler's.
size_t highest_priority(const std::vector<KernelScheduler::Pending>& pool);

using KernelSchedulerRegistry = sim::Registry<KernelScheduler, const SchedulerProbe&>;
/// Kernel schedulers by name: sched/kernel_scheduler_*.cpp.
KernelSchedulerRegistry& kernel_schedulers();

}  // namespace stacksim::sched
