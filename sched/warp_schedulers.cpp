// SPDX-License-Identifier: Apache-2.0
// Warp-scheduling policies (textbook §3.4) and their registry.
#include "sched/warp_schedulers.h"

#include <algorithm>

namespace stacksim::sched {

namespace {
// The scheduler's list is kept oldest first; only slot reuse could break that.
void oldest_first(const std::vector<core::WarpRef>& warps, std::vector<core::WarpRef>& sorted) {
    sorted = warps;
    auto older = [](const core::WarpRef& a, const core::WarpRef& b) { return a.age < b.age; };
    if (!std::is_sorted(sorted.begin(), sorted.end(), older)) std::sort(sorted.begin(), sorted.end(), older);
}
thread_local std::vector<core::WarpRef> t_sorted;
}  // namespace

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
    oldest_first(warps, t_sorted);
    for (auto& w : t_sorted)
        if (w.slot == m_last) order.push_back(w.slot);
    for (auto& w : t_sorted)
        if (w.slot != m_last) order.push_back(w.slot);
}

void OldestFirstPolicy::prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) {
    order.clear();
    oldest_first(warps, t_sorted);
    for (auto& w : t_sorted) order.push_back(w.slot);
}

void TwoLevelPolicy::prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) {
    order.clear();
    // Drop warps that left the scheduler or wait on a long-latency load or a barrier
    // (keeping barrier waiters active would starve the warps they wait for).
    auto gone = [&](uint32_t slot) {
        for (auto& w : warps)
            if (w.slot == slot) return w.waiting_memory || w.at_barrier;
        return true;
    };
    m_active.erase(std::remove_if(m_active.begin(), m_active.end(), gone), m_active.end());
    // Promote ready pending warps, oldest first.
    oldest_first(warps, t_sorted);
    for (auto& w : t_sorted) {
        if (m_active.size() >= m_active_size) break;
        if (w.waiting_memory || w.at_barrier) continue;
        if (std::find(m_active.begin(), m_active.end(), w.slot) == m_active.end()) m_active.push_back(w.slot);
    }
    size_t n = m_active.size(), start = 0;
    for (size_t i = 0; i < n; ++i)
        if (m_active[i] == m_last) start = i + 1;
    if (start >= n) start = 0;
    for (size_t i = 0; i < n; ++i) order.push_back(m_active[(start + i) % n]);
}

void TwoLevelPolicy::on_issue(uint32_t slot, bool long_latency) {
    m_last = slot;
    if (long_latency) m_active.erase(std::remove(m_active.begin(), m_active.end(), slot), m_active.end());
}

void CcwsPolicy::on_lost_locality(uint32_t slot) { m_score[slot] += m_bump; }

uint32_t CcwsPolicy::score(uint32_t slot) const {
    auto it = m_score.find(slot);
    return it == m_score.end() ? 0 : it->second;
}

void CcwsPolicy::prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) {
    order.clear();
    for (auto it = m_score.begin(); it != m_score.end();) {
        if (it->second > 0) --it->second;
        it = it->second == 0 ? m_score.erase(it) : std::next(it);
    }
    oldest_first(warps, m_ranked);
    // Highest score first; ties keep age order.
    std::stable_sort(m_ranked.begin(), m_ranked.end(),
                     [&](const core::WarpRef& a, const core::WarpRef& b) { return score(a.slot) > score(b.slot); });
    // Each warp weighs kBase plus its score; warps past the cutoff in rank order are throttled.
    // Warps waiting at a barrier weigh nothing and are never throttled, so the warps they wait
    // for always get in (no deadlock).
    std::stable_partition(m_ranked.begin(), m_ranked.end(), [](const core::WarpRef& w) { return !w.at_barrier; });
    uint64_t cumulative = 0;
    size_t allowed = 0;
    for (auto& w : m_ranked) {
        if (!w.at_barrier) {
            cumulative += kBase + score(w.slot);
            if (allowed > 0 && cumulative > m_cutoff) break;
        }
        ++allowed;
    }
    m_ranked.resize(allowed);
    for (auto& w : m_ranked)
        if (w.slot == m_last) order.push_back(w.slot);
    std::sort(m_ranked.begin(), m_ranked.end(), [](auto& a, auto& b) { return a.age < b.age; });
    for (auto& w : m_ranked)
        if (w.slot != m_last) order.push_back(w.slot);
}

const WarpSchedulerRegistry& warp_scheduler_registry() {
    static const WarpSchedulerRegistry registry = [] {
        WarpSchedulerRegistry r("warp scheduler");
        r.add("lrr", "loose round robin: rotate priority past the last warp that issued",
              [] { return std::make_unique<LrrPolicy>(); });
        r.add("gto", "greedy then oldest: stay on the last warp until it stalls, then the oldest",
              [] { return std::make_unique<GtoPolicy>(); });
        r.add("oldest", "oldest first: strict age priority",
              [] { return std::make_unique<OldestFirstPolicy>(); });
        r.add("two_level", "two-level: round robin over an active set of 4; long-latency loads demote",
              [] { return std::make_unique<TwoLevelPolicy>(); });
        r.add("ccws", "cache-conscious: throttle warps past a lost-locality score cutoff (needs the L1)",
              [] { return std::make_unique<CcwsPolicy>(); });
        return r;
    }();
    return registry;
}

}  // namespace stacksim::sched
