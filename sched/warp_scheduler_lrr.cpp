// SPDX-License-Identifier: Apache-2.0
// Loose round robin warp scheduling (textbook §3.4, fig 3-24).
#include "sched/warp_scheduler_registry.h"

namespace stacksim::sched {

namespace {

/// Starts after the warp that issued last (in the scheduler's warp list), wrapping around.
class Lrr final : public core::WarpSchedulerPolicy {
public:
    void prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) override {
        const size_t n = warps.size();
        size_t start = 0;
        for (size_t i = 0; i < n; ++i)
            if (warps[i].slot == m_last) start = i + 1;
        if (start == n) start = 0;
        order.resize(n);
        size_t k = 0;
        for (size_t i = start; i < n; ++i) order[k++] = warps[i].slot;
        for (size_t i = 0; i < start; ++i) order[k++] = warps[i].slot;
    }
    bool order_stable() const override { return true; }
    void on_issue(uint32_t slot, bool) override { m_last = slot; }

private:
    uint32_t m_last = ~0u;
};

const bool registered = warp_schedulers().add(
    "lrr", "loose round robin: rotate priority past the last warp that issued", [] { return std::make_unique<Lrr>(); });

}  // namespace

}  // namespace stacksim::sched
