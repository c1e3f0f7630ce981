// SPDX-License-Identifier: Apache-2.0
// Two-level warp scheduling (Narasiman et al., MICRO 2011; textbook fig 3-26).
#include <algorithm>

#include "sched/warp_scheduler_registry.h"

namespace stacksim::sched {

namespace {

/// Parameters of two_level ([gpu.sm.two_level]).
struct TwoLevelParams {
    uint32_t active_warps = 4;
    static const sim::Params<TwoLevelParams>& params() {
        static const auto p = [] {
            sim::Params<TwoLevelParams> p;
            p.add("active_warps", &TwoLevelParams::active_warps, "warps", "size of each scheduler's active set")
                .range(1, 1024);
            return p;
        }();
        return p;
    }
};

/// Only the warps of the active set are scheduled, round robin. A warp that issues a
/// long-latency (global) load, or waits at a barrier, leaves the set; ready pending warps are
/// promoted, oldest first, when the set has room.
class TwoLevel final : public core::WarpSchedulerPolicy {
public:
    explicit TwoLevel(const TwoLevelParams& p) : m_active_size(p.active_warps) {}
    void prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) override {
        order.clear();
        // Keeping barrier waiters active would starve the warps they wait for.
        auto gone = [&](uint32_t slot) {
            for (auto& w : warps)
                if (w.slot == slot) return w.waiting_memory || w.at_barrier;
            return true;
        };
        m_active.erase(std::remove_if(m_active.begin(), m_active.end(), gone), m_active.end());
        sort_oldest_first(warps, m_sorted);
        for (auto& w : m_sorted) {
            if (m_active.size() >= m_active_size) break;
            if (w.waiting_memory || w.at_barrier) continue;
            if (std::find(m_active.begin(), m_active.end(), w.slot) == m_active.end()) m_active.push_back(w.slot);
        }
        const size_t n = m_active.size();
        size_t start = 0;
        for (size_t i = 0; i < n; ++i)
            if (m_active[i] == m_last) start = i + 1;
        if (start >= n) start = 0;
        for (size_t i = 0; i < n; ++i) order.push_back(m_active[(start + i) % n]);
    }
    bool considers(uint32_t slot) const override {
        return std::find(m_active.begin(), m_active.end(), slot) != m_active.end();
    }
    bool order_stable() const override { return true; }
    void on_issue(uint32_t slot, bool long_latency) override {
        m_last = slot;
        if (long_latency) m_active.erase(std::remove(m_active.begin(), m_active.end(), slot), m_active.end());
    }

private:
    uint32_t m_active_size;
    std::vector<uint32_t> m_active;  ///< active set, in round-robin order
    uint32_t m_last = ~0u;
    std::vector<core::WarpRef> m_sorted;
};

const bool registered = warp_schedulers().add_with<TwoLevelParams>(
    "two_level", "two-level: round robin over a small active set; long-latency loads demote",
    [](const TwoLevelParams& p) { return std::make_unique<TwoLevel>(p); });

}  // namespace

}  // namespace stacksim::sched
