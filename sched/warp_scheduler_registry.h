// SPDX-License-Identifier: Apache-2.0
// The registry of warp-scheduling policies (textbook §3.4); each registers itself in its own file.
#pragma once
#include <vector>

#include "core/warp_scheduler_policy.h"
#include "sim/registry.h"

namespace stacksim::sched {

using WarpSchedulerRegistry = sim::Registry<core::WarpSchedulerPolicy>;
/// Warp schedulers by name (gpu.sm.warp_scheduler): sched/warp_scheduler_*.cpp.
WarpSchedulerRegistry& warp_schedulers();

/// `warps` sorted oldest first into `sorted` (the SM's list is already in age order unless a
/// slot was reused).
void sort_oldest_first(const std::vector<core::WarpRef>& warps, std::vector<core::WarpRef>& sorted);

}  // namespace stacksim::sched
