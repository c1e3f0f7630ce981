// SPDX-License-Identifier: Apache-2.0
// Greedy-then-oldest with a cap on the greedy streak: GTO that cannot starve the other warps.
#include "sched/warp_scheduler_registry.h"

namespace stacksim::sched {

namespace {

/// Parameters of gto_capped ([gpu.sm.gto_capped]).
struct GtoCappedParams {
    uint32_t max_streak = 16;
    static const sim::Params<GtoCappedParams>& params() {
        static const auto p = [] {
            sim::Params<GtoCappedParams> p;
            p.add("max_streak", &GtoCappedParams::max_streak, "instructions",
                  "consecutive issues of the greedy warp before it yields to the oldest")
                .range(1, 1u << 20);
            return p;
        }();
        return p;
    }
};

/// Like GTO, the warp that issued last keeps the highest priority, but only for max_streak
/// consecutive issues; then the warps are taken oldest first until another warp issues.
class GtoCapped final : public core::WarpSchedulerPolicy {
public:
    explicit GtoCapped(const GtoCappedParams& p) : m_max(p.max_streak) {}
    void prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) override {
        order.clear();
        sort_oldest_first(warps, m_sorted);
        const bool greedy = m_streak < m_max;
        for (auto& w : m_sorted)
            if (greedy && w.slot == m_last) order.push_back(w.slot);
        for (auto& w : m_sorted)
            if (!greedy || w.slot != m_last) order.push_back(w.slot);
    }
    bool order_stable() const override { return true; }
    void on_issue(uint32_t slot, bool) override {
        m_streak = slot == m_last ? m_streak + 1 : 1;
        m_last = slot;
    }

private:
    uint32_t m_max;
    uint32_t m_last = ~0u;
    uint32_t m_streak = 0;
    std::vector<core::WarpRef> m_sorted;
};

const bool registered = warp_schedulers().add_with<GtoCappedParams>(
    "gto_capped", "greedy then oldest, the greedy warp yielding after max_streak consecutive issues",
    [](const GtoCappedParams& p) { return std::make_unique<GtoCapped>(p); });

}  // namespace

}  // namespace stacksim::sched
