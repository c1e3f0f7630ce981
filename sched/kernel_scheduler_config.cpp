// SPDX-License-Identifier: Apache-2.0
// Configuration of the kernel-scheduling policy ([kernel_scheduler]).
#include "sched/kernel_scheduler_config.h"

#include "sched/kernel_scheduler.h"

namespace stacksim::sched {

const sim::Params<KernelSchedulerConfig>& KernelSchedulerConfig::params() {
    using C = KernelSchedulerConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.policy("policy", &C::policy, kernel_schedulers(),
                 "which pending kernel the kernel management unit launches next, and whether it preempts a "
                 "running one (docs/preemption.md#the-patents-multi-tenant-scheduler)");
        return p;
    }();
    return p;
}

}  // namespace stacksim::sched
