// SPDX-License-Identifier: Apache-2.0
// The registry of warp-scheduling policies, and the age ordering they share.
#include "sched/warp_scheduler_registry.h"

#include <algorithm>

namespace stacksim::sched {

WarpSchedulerRegistry& warp_schedulers() {
    static WarpSchedulerRegistry registry("warp scheduler", "warp schedulers: the order in which each SM scheduler tries its warps");
    return registry;
}

void sort_oldest_first(const std::vector<core::WarpRef>& warps, std::vector<core::WarpRef>& sorted) {
    sorted = warps;
    auto older = [](const core::WarpRef& a, const core::WarpRef& b) { return a.age < b.age; };
    if (!std::is_sorted(sorted.begin(), sorted.end(), older)) std::sort(sorted.begin(), sorted.end(), older);
}

}  // namespace stacksim::sched
