// SPDX-License-Identifier: Apache-2.0
// Warp-scheduling policies (textbook §3.4) and their registry.
#pragma once
#include <memory>
#include <unordered_map>

#include "core/warp_scheduler_policy.h"
#include "sim/registry.h"

namespace stacksim::sched {

using WarpSchedulerRegistry = sim::Registry<core::WarpSchedulerPolicy>;

/// Loose round robin: start after the warp that issued last (in the scheduler's warp list),
/// wrapping around.
class LrrPolicy : public core::WarpSchedulerPolicy {
public:
    void prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) override;
    void on_issue(uint32_t slot, bool) override { m_last = slot; }

private:
    uint32_t m_last = ~0u;
};

/// Greedy then oldest: keep issuing from the warp that issued last until it stalls,
/// then the oldest ready warp.
class GtoPolicy : public core::WarpSchedulerPolicy {
public:
    void prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) override;
    void on_issue(uint32_t slot, bool) override { m_last = slot; }

private:
    uint32_t m_last = ~0u;
};

/// Oldest first: strict age priority, no greediness.
class OldestFirstPolicy : public core::WarpSchedulerPolicy {
public:
    void prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) override;
    void on_issue(uint32_t, bool) override {}
};

/// Two-level (Narasiman et al., textbook fig 3-26): only the `active_size` warps of the active
/// set are scheduled, round robin. A warp that issues a long-latency (global) load is demoted
/// to the pending set; pending warps whose loads have returned are promoted, oldest first,
/// when the active set has room.
class TwoLevelPolicy : public core::WarpSchedulerPolicy {
public:
    explicit TwoLevelPolicy(uint32_t active_size = 4) : m_active_size(active_size) {}
    void prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) override;
    void on_issue(uint32_t slot, bool long_latency) override;

private:
    uint32_t m_active_size;
    std::vector<uint32_t> m_active;  ///< active set, in round-robin order
    uint32_t m_last = ~0u;
};

/// Cache-conscious wavefront scheduling (Rogers et al.): each warp has a lost-locality score,
/// raised by `bump` when the L1 reports that the warp missed on a line it had lost, decaying
/// by one per scheduling cycle. Warps are ranked by score (highest first), each weighing
/// kBase + score; warps whose cumulative weight passes `cutoff` are throttled (not scheduled),
/// so the warps that lose locality keep the cache to themselves. With no lost locality the
/// default cutoff admits 16 warps (all of a scheduler's warps on the presets). The allowed
/// warps issue greedy-then-oldest.
class CcwsPolicy : public core::WarpSchedulerPolicy {
public:
    static constexpr uint32_t kBase = 16;
    CcwsPolicy(uint32_t bump = 128, uint32_t cutoff = 16 * kBase) : m_bump(bump), m_cutoff(cutoff) {}
    void prioritize(const std::vector<core::WarpRef>& warps, std::vector<uint32_t>& order) override;
    void on_issue(uint32_t slot, bool) override { m_last = slot; }
    void on_lost_locality(uint32_t slot) override;
    uint32_t score(uint32_t slot) const;

private:
    uint32_t m_bump, m_cutoff;
    std::unordered_map<uint32_t, uint32_t> m_score;
    uint32_t m_last = ~0u;
    std::vector<core::WarpRef> m_ranked;
};

/// Registry of warp-scheduling policies: "lrr", "gto", "oldest", "two_level", "ccws".
const WarpSchedulerRegistry& warp_scheduler_registry();

}  // namespace stacksim::sched
