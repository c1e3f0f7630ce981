// SPDX-License-Identifier: Apache-2.0
// Configuration of the kernel-scheduling policy ([kernel_scheduler]).
#pragma once
#include "sim/param.h"
#include "sim/policy_catalog.h"

namespace stacksim::sched {

/// [kernel_scheduler]: which pending kernel is launched next, and whether running kernels are preempted.
struct KernelSchedulerConfig {
    sim::PolicySpec policy{"fcfs"};  ///< kernel_schedulers()
    static const sim::Params<KernelSchedulerConfig>& params();
};

}  // namespace stacksim::sched
