// SPDX-License-Identifier: Apache-2.0
// The kernel-scheduler registry and FCFS: highest priority first, then arrival; never preempts.
#include "sched/kernel_scheduler.h"

namespace stacksim::sched {

KernelSchedulerRegistry& kernel_schedulers() {
    static KernelSchedulerRegistry registry("kernel scheduler", "kernel schedulers: which pending kernels run, and which running one a better pair preempts");
    return registry;
}

size_t highest_priority(const std::vector<KernelScheduler::Pending>& pool) {
    size_t best = 0;
    for (size_t i = 1; i < pool.size(); ++i)
        if (pool[i].launch->priority > pool[best].launch->priority) best = i;
    return best;
}

namespace {

class Fcfs final : public KernelScheduler {
public:
    bool decides_preemptions() const override { return false; }
    Decision next(const std::vector<Pending>& pool, const std::vector<core::KernelLaunch*>& running,
                  uint32_t max_resident) override {
        Decision d;
        if (pool.empty() || running.size() >= max_resident) return d;
        d.kind = Decision::Kind::Launch;
        d.index = highest_priority(pool);
        return d;
    }
};

const bool registered = kernel_schedulers().add(
    "fcfs", "highest priority first, then arrival order, while fewer than gpu.max_resident_kernels run; no preemption",
    [](const SchedulerProbe&) { return std::make_unique<Fcfs>(); });

}  // namespace

}  // namespace stacksim::sched
