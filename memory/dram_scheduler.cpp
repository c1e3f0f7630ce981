// SPDX-License-Identifier: Apache-2.0
// The registry of DRAM command schedulers; each registers itself in memory/dram_scheduler_*.cpp.
#include "memory/dram_scheduler.h"

namespace stacksim::memory {

DramSchedulerRegistry& dram_schedulers() {
    static DramSchedulerRegistry registry("DRAM scheduler", "DRAM schedulers: the order a channel serves its queued requests");
    return registry;
}

}  // namespace stacksim::memory
