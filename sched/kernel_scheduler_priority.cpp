// SPDX-License-Identifier: Apache-2.0
// Priority kernel preemption: FCFS by priority, and at the cap a pending kernel of higher
// priority takes the place of the lowest-priority running kernel, whatever the gain.
#include "sched/kernel_scheduler.h"

namespace stacksim::sched {

namespace {

// The baseline the patent's gain/cost test is measured against (docs/preemption.md): a
// multi-tenant scheduler that preempts a whole kernel by priority alone. Without it, priority
// preemption under a cap on running kernels cannot happen at all: the preemption controller
// takes SMs only for a kernel already running, and at the cap the higher-priority kernel is
// never started.
class Priority final : public KernelScheduler {
public:
    Decision next(const std::vector<Pending>& pool, const std::vector<core::KernelLaunch*>& running,
                  uint32_t max_resident) override {
        Decision d;
        if (pool.empty()) return d;
        const size_t best = highest_priority(pool);
        if (running.size() < max_resident) {
            d.kind = Decision::Kind::Launch;
            d.index = best;
            return d;
        }
        // At the cap: the victim is the running kernel of lowest priority, the latest started on
        // a tie (running is in start order), so the longest-running work is kept.
        core::KernelLaunch* victim = nullptr;
        for (core::KernelLaunch* k : running)
            if (!victim || k->priority <= victim->priority) victim = k;
        if (!victim || victim->priority >= pool[best].launch->priority) return d;
        d.kind = Decision::Kind::Preempt;
        d.index = best;
        d.victim = victim;
        ++m_tally.preemptions;
        return d;
    }
    Tally tally() const override { return m_tally; }

private:
    Tally m_tally;
};

const bool registered = kernel_schedulers().add(
    "priority",
    "highest priority first, then arrival order; at gpu.max_resident_kernels a pending kernel of higher priority "
    "preempts the running kernel of lowest priority (its CTAs leave by preemption.policy)",
    [](const SchedulerProbe&) { return std::make_unique<Priority>(); });

}  // namespace

}  // namespace stacksim::sched
