// SPDX-License-Identifier: Apache-2.0
// Greedy-then-oldest warp scheduling (Rogers et al., MICRO 2012; textbook fig 3-24).
#include "sched/warp_scheduler_registry.h"

namespace stacksim::sched {

namespace {

/// Keeps issuing from the warp that issued last until it stalls, then the oldest ready warp.
class Gto final : public core::WarpSchedulerPolicy {
public:
    void prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) override {
        order.clear();
        sort_oldest_first(warps, m_sorted);
        for (auto& w : m_sorted)
            if (w.slot == m_last) order.push_back(w.slot);
        for (auto& w : m_sorted)
            if (w.slot != m_last) order.push_back(w.slot);
    }
    bool order_stable() const override { return true; }
    void on_issue(uint32_t slot, bool) override { m_last = slot; }

private:
    uint32_t m_last = ~0u;
    std::vector<core::WarpRef> m_sorted;
};

const bool registered =
    warp_schedulers().add("gto", "greedy then oldest: stay on the last warp until it stalls, then the oldest",
                          [] { return std::make_unique<Gto>(); });

}  // namespace

}  // namespace stacksim::sched
