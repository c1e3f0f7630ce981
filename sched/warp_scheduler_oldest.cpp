// SPDX-License-Identifier: Apache-2.0
// Oldest-first warp scheduling: strict age priority (the baseline of the GTO and CCWS papers).
#include "sched/warp_scheduler_registry.h"

namespace stacksim::sched {

namespace {

class OldestFirst final : public core::WarpSchedulerPolicy {
public:
    void prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) override {
        order.clear();
        sort_oldest_first(warps, m_sorted);
        for (auto& w : m_sorted) order.push_back(w.slot);
    }
    void on_issue(uint32_t, bool) override {}

private:
    std::vector<core::WarpRef> m_sorted;
};

const bool registered = warp_schedulers().add("oldest", "oldest first: strict age priority",
                                              [] { return std::make_unique<OldestFirst>(); });

}  // namespace

}  // namespace stacksim::sched
