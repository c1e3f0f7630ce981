// SPDX-License-Identifier: Apache-2.0
// FCFS DRAM command scheduling: strict arrival order.
#include "memory/dram_scheduler.h"

namespace stacksim::memory {

namespace {

/// First-come first-served: only the oldest request may issue (Rixner et al., ISCA 2000,
/// in-order baseline).
class Fcfs final : public DramScheduler {
public:
    size_t choose(const std::vector<DramCandidate>& c, uint64_t now) const override {
        return !c.empty() && c[0].ready <= now ? 0 : none;
    }
    uint64_t next_ready(const std::vector<DramCandidate>& c) const override {
        return c.empty() ? never : c[0].ready;
    }
};

const bool registered = dram_schedulers().add("fcfs", "first come first served: the oldest request's command only",
                                              [] { return std::make_unique<Fcfs>(); });

}  // namespace

}  // namespace stacksim::memory
