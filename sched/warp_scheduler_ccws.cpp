// SPDX-License-Identifier: Apache-2.0
// Cache-conscious wavefront scheduling (Rogers et al., MICRO 2012).
#include <algorithm>
#include <unordered_map>

#include "sched/warp_scheduler_registry.h"

namespace stacksim::sched {

namespace {

/// Parameters of ccws ([gpu.sm.ccws]).
struct CcwsParams {
    uint32_t score_bump = 128;
    uint32_t warp_weight = 16;
    uint32_t cutoff = 256;
    static const sim::Params<CcwsParams>& params() {
        static const auto p = [] {
            sim::Params<CcwsParams> p;
            p.add("score_bump", &CcwsParams::score_bump, "points",
                  "lost-locality score added when the L1 reports that a warp missed on a line it had lost")
                .range(1, 1u << 20);
            p.add("warp_weight", &CcwsParams::warp_weight, "points", "weight of every warp besides its score")
                .range(1, 1u << 20);
            p.add("cutoff", &CcwsParams::cutoff, "points",
                  "warps past this cumulative weight (ranked by score) are not scheduled")
                .range(1, 1u << 30);
            return p;
        }();
        return p;
    }
};

/// Each warp has a lost-locality score, raised by score_bump when the L1 reports that the warp
/// missed on a line it had lost, decaying by one per scheduling cycle. Warps are ranked by
/// score (highest first), each weighing warp_weight + score; warps whose cumulative weight
/// passes the cutoff are throttled, so the warps that lose locality keep the cache to
/// themselves. With no lost locality the defaults admit 16 warps. The allowed warps issue
/// greedy-then-oldest.
class Ccws final : public core::WarpSchedulerPolicy {
public:
    explicit Ccws(const CcwsParams& p) : m_p(p) {}
    void prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) override;
    void on_issue(uint32_t slot, bool) override { m_last = slot; }
    void on_lost_locality(uint32_t slot) override { m_score[slot] += m_p.score_bump; }

private:
    uint32_t score(uint32_t slot) const {
        auto it = m_score.find(slot);
        return it == m_score.end() ? 0 : it->second;
    }
    CcwsParams m_p;
    std::unordered_map<uint32_t, uint32_t> m_score;
    uint32_t m_last = ~0u;
    std::vector<core::WarpRef> m_ranked;
};

void Ccws::prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) {
    order.clear();
    for (auto it = m_score.begin(); it != m_score.end();) {
        if (it->second > 0) --it->second;
        it = it->second == 0 ? m_score.erase(it) : std::next(it);
    }
    sort_oldest_first(warps, m_ranked);
    // Highest score first; ties keep age order.
    std::stable_sort(m_ranked.begin(), m_ranked.end(),
                     [&](const core::WarpRef& a, const core::WarpRef& b) { return score(a.slot) > score(b.slot); });
    // Warps waiting at a barrier weigh nothing and are never throttled, so the warps they wait
    // for always get in (no deadlock).
    std::stable_partition(m_ranked.begin(), m_ranked.end(), [](const core::WarpRef& w) { return !w.at_barrier; });
    uint64_t cumulative = 0;
    size_t allowed = 0;
    for (auto& w : m_ranked) {
        if (!w.at_barrier) {
            cumulative += m_p.warp_weight + score(w.slot);
            if (allowed > 0 && cumulative > m_p.cutoff) break;
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

const bool registered = warp_schedulers().add_with<CcwsParams>(
    "ccws", "cache-conscious: throttle warps past a lost-locality score cutoff (needs the L1)",
    [](const CcwsParams& p) { return std::make_unique<Ccws>(p); });

}  // namespace

}  // namespace stacksim::sched
