// SPDX-License-Identifier: Apache-2.0
// Warp-scheduling policies (textbook §3.4) and their registry.
#include "sched/warp_schedulers.h"

#include <algorithm>

namespace stacksim::sched {

void LrrPolicy::prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) {
    order.clear();
    size_t n = warps.size();
    size_t start = 0;
    for (size_t i = 0; i < n; ++i)
        if (warps[i].slot == m_last) start = i + 1;
    if (start == n) start = 0;
    for (size_t i = 0; i < n; ++i) order.push_back(warps[(start + i) % n].slot);
}

void GtoPolicy::prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) {
    order.clear();
    m_sorted = warps;
    auto older = [](const core::WarpRef& a, const core::WarpRef& b) { return a.age < b.age; };
    if (!std::is_sorted(m_sorted.begin(), m_sorted.end(), older))
        std::sort(m_sorted.begin(), m_sorted.end(), older);
    for (auto& w : m_sorted)
        if (w.slot == m_last) order.push_back(w.slot);
    for (auto& w : m_sorted)
        if (w.slot != m_last) order.push_back(w.slot);
}

const WarpSchedulerRegistry& warp_scheduler_registry() {
    static const WarpSchedulerRegistry registry = [] {
        WarpSchedulerRegistry r("warp scheduler");
        r.add("lrr", "loose round robin: rotate priority past the last warp that issued",
              [] { return std::make_unique<LrrPolicy>(); });
        r.add("gto", "greedy then oldest: stay on the last warp until it stalls, then the oldest",
              [] { return std::make_unique<GtoPolicy>(); });
        return r;
    }();
    return registry;
}

}  // namespace stacksim::sched
